"""What a bare ``import torch`` makes reachable, and the default device of factories.

Tests torch/__init__.py (submodules as attributes, set_default_device / get_default_device) and
torch/utils/_device.py with `with torch.device(...)`, against PyTorch 2.13's behaviour.
Guide: docs/source/internals/source_tree.rst, docs/source/internals/programs/amp_backends.rst
"""

import subprocess
import sys
import threading

import pytest

import torch

SUBMODULES = [
    "utils", "utils.data", "utils.data.dataloader", "utils.checkpoint", "utils.hooks", "nn", "nn.functional",
    "nn.init", "nn.utils", "optim", "optim.lr_scheduler", "autograd", "autograd.function", "autograd.grad_mode",
    "linalg", "cuda", "cuda.amp", "cpu", "cpu.amp", "backends", "backends.cuda", "backends.cudnn", "backends.mps",
    "backends.opt_einsum", "backends.cpu", "amp", "amp.grad_scaler", "amp.autocast_mode", "random", "library",
    "serialization", "storage", "overrides", "functional", "return_types",
]


def test_bare_import_reaches_the_submodules():
    # A fresh interpreter: only `import torch`, nothing imported by this test run.
    code = ("import torch\n"
            f"for path in {SUBMODULES!r}:\n"
            "    obj = torch\n"
            "    for part in path.split('.'):\n"
            "        obj = getattr(obj, part)\n"
            "print(torch.utils.data.DataLoader.__name__, torch.utils.checkpoint.checkpoint.__name__,\n"
            "      torch.amp.GradScaler.__name__, torch.backends.cudnn.enabled)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["DataLoader", "checkpoint", "GradScaler", "True"]


def test_namespace_functions():
    for name in ("autocast", "is_autocast_enabled", "get_autocast_dtype", "set_autocast_enabled",
                 "set_float32_matmul_precision", "get_float32_matmul_precision", "set_default_device",
                 "get_default_device"):
        assert callable(getattr(torch, name)), name
    assert "set_default_device" in torch.__all__ and "autocast" in torch.__all__


@pytest.fixture(autouse=True)
def default_device_reset():
    yield
    torch.set_default_device(None)


def test_default_device_is_cpu():
    assert torch.get_default_device() == torch.device("cpu")
    assert torch.zeros(1).device == torch.device("cpu")


def test_set_default_device_applies_to_constructors_only():
    torch.set_default_device("meta")
    assert torch.get_default_device() == torch.device("meta")
    assert torch.zeros(2).device.type == "meta"
    assert torch.ones(2, 3).device.type == "meta"
    assert torch.empty(1).device.type == "meta"
    assert torch.tensor([1.0]).device.type == "meta"
    assert torch.full((2,), 1.5).device.type == "meta"
    assert torch.zeros(1, device="cpu").device.type == "cpu"  # an explicit device wins
    cpu = torch.empty(1, device="cpu")
    assert torch.zeros_like(cpu).device.type == "cpu"  # *_like keep their input's device
    assert cpu.new_zeros(2).device.type == "cpu"
    assert (cpu + 1).device.type == "cpu"
    torch.set_default_device(None)
    assert torch.get_default_device() == torch.device("cpu") and torch.zeros(1).device.type == "cpu"


def test_set_default_device_accepts_a_device():
    torch.set_default_device(torch.device("cpu"))
    assert torch.get_default_device() == torch.device("cpu")


def test_device_context_manager_nests_and_restores():
    with torch.device("meta") as d:
        assert d == torch.device("meta")
        assert torch.ones(2).device.type == "meta" and torch.get_default_device() == torch.device("meta")
        with torch.device("cpu"):
            assert torch.ones(1).device.type == "cpu" and torch.get_default_device() == torch.device("cpu")
        assert torch.ones(1).device.type == "meta"
    assert torch.ones(1).device.type == "cpu" and torch.get_default_device() == torch.device("cpu")


def test_set_default_device_inside_a_device_block_follows_pytorchs_stack():
    # PyTorch 2.13's sequence: the global context replaces the block's mode at the bottom of the
    # stack; leaving the block pops it; clearing the global context puts the block's mode back.
    with torch.device("meta"):
        torch.set_default_device("cpu")
        assert torch.ones(1).device.type == "cpu"
    assert torch.ones(1).device.type == "cpu" and torch.get_default_device() == torch.device("cpu")
    torch.set_default_device(None)
    assert torch.get_default_device() == torch.device("meta") and torch.ones(1).device.type == "meta"
    torch.utils._device._pop_mode()
    assert torch.get_default_device() == torch.device("cpu")


def test_default_device_is_per_thread():
    torch.set_default_device("meta")
    seen = []
    worker = threading.Thread(target=lambda: seen.append((torch.get_default_device(), torch.zeros(1).device)))
    worker.start()
    worker.join()
    assert seen == [(torch.device("cpu"), torch.device("cpu"))]
    assert torch.zeros(1).device.type == "meta"


def test_set_default_device_errors():
    with pytest.raises(RuntimeError, match="^Expected one of cpu, cuda, .* device type at start of device string: foo$"):
        torch.set_default_device("foo")
    with pytest.raises(TypeError):
        torch.set_default_device(3.5)
    assert torch.get_default_device() == torch.device("cpu")


def test_set_device_decorator():
    @torch.utils._device.set_device("meta")
    def make():
        return torch.zeros(1)

    assert make().device.type == "meta" and torch.zeros(1).device.type == "cpu"


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_cuda_default_device_gets_an_index():
    torch.set_default_device("cuda")
    assert torch.get_default_device() == torch.device("cuda", torch.cuda.current_device())
    assert torch.zeros(1).is_cuda
