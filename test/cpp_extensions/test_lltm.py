"""test/cpp_extensions/test_lltm.py - the write-ups' LLTM (docs/examples/lltm): the C++ extension
built just in time and with its setup.py, the dispatcher operator torch.ops.lltm_ops.lltm with
its C++ autograd kernel, and the CUDA extension on the simulated device, each against the Python
reference: outputs, gradients, and gradcheck in double. Guide: docs/source/internals/cpp_extensions.rst.
"""

import math
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import torch
from torch.autograd import gradcheck

from conftest import LLTM_DIR, ROOT

BATCH, FEATURES, STATE = 4, 5, 6


def assert_close(got, want, rtol=1e-10, atol=1e-12):
    """Same dtype and shape, values within tolerance (numpy as the referee)."""
    assert got.dtype == want.dtype and tuple(got.shape) == tuple(want.shape), (got.dtype, want.dtype, got.shape)
    np.testing.assert_allclose(got.detach().cpu().numpy(), want.detach().cpu().numpy(), rtol=rtol, atol=atol)


def inputs(dtype=torch.float64, seed=0):
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(BATCH, FEATURES, generator=g, dtype=dtype)
    h = torch.randn(BATCH, STATE, generator=g, dtype=dtype)
    c = torch.randn(BATCH, STATE, generator=g, dtype=dtype)
    W = torch.randn(3 * STATE, FEATURES + STATE, generator=g, dtype=dtype) * 0.5
    b = torch.randn(3 * STATE, generator=g, dtype=dtype) * 0.5
    return [t.requires_grad_() for t in (X, W, b, h, c)]


def reference(lltm, args):
    """Outputs and the gradients of a fixed weighted sum of them, by autograd on tensor ops."""
    new_h, new_cell = lltm.lltm_reference(*args)
    loss = (new_h * 1.5).sum() + (new_cell * new_cell).sum()
    grads = torch.autograd.grad(loss, args)
    return (new_h, new_cell), grads


def check_against_reference(lltm, fn, dtype=torch.float64):
    args = inputs(dtype)
    want_out, want_grads = reference(lltm, args)
    new_h, new_cell = fn(*args)
    loss = (new_h * 1.5).sum() + (new_cell * new_cell).sum()
    grads = torch.autograd.grad(loss, args)
    tol = dict(rtol=1e-10, atol=1e-12) if dtype == torch.float64 else dict(rtol=1e-5, atol=1e-6)
    assert_close(new_h, want_out[0], **tol)
    assert_close(new_cell, want_out[1], **tol)
    for got, want in zip(grads, want_grads):
        assert_close(got, want, **tol)


def test_reference_gradcheck(lltm):
    assert gradcheck(lltm.lltm_reference, inputs())


# ---- the C++ extension (cpp/lltm.cpp), built with load() -----------------------------------------

@pytest.fixture(scope="module")
def lltm_cpp(lltm):
    return lltm.load_cpp()


def test_cpp_forward_returns_the_intermediates(lltm, lltm_cpp):
    X, W, b, h, c = [t.detach() for t in inputs()]
    outputs = lltm_cpp.forward(X, W, b, h, c)
    assert isinstance(outputs, list) and len(outputs) == 7
    new_h, new_cell = lltm.lltm_reference(X, W, b, h, c)
    assert_close(outputs[0], new_h)
    assert_close(outputs[1], new_cell)
    assert outputs[5].shape == (BATCH, STATE + FEATURES)  # X = [old_h, input]


def test_cpp_matches_reference_and_gradcheck(lltm, lltm_cpp):
    fn = lltm.make_function(lltm_cpp).apply
    check_against_reference(lltm, fn)
    check_against_reference(lltm, fn, torch.float32)
    assert gradcheck(fn, inputs())


def test_cpp_module_trains_like_the_python_one(lltm, lltm_cpp):
    torch.manual_seed(0)
    python_cell = lltm.LLTM(FEATURES, STATE, impl="python").double()
    cpp_cell = lltm.LLTM(FEATURES, STATE, impl="cpp").double()
    cpp_cell.load_state_dict(python_cell.state_dict())
    X, _, _, h, c = [t.detach() for t in inputs()]
    for cell in (python_cell, cpp_cell):
        new_h, new_cell = cell(X, (h, c))
        (new_h.sum() + new_cell.sum()).backward()
    for p, q in zip(python_cell.parameters(), cpp_cell.parameters()):
        assert_close(q.grad, p.grad)


# ---- the same sources, ahead of time: cpp/setup.py with BuildExtension ----------------------------

def test_cpp_setup_py(tmp_path, extensions_dir):
    shutil.copy(os.path.join(LLTM_DIR, "cpp", "lltm.cpp"), tmp_path)
    shutil.copy(os.path.join(LLTM_DIR, "cpp", "setup.py"), tmp_path)
    built = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    code = ("import torch, lltm_cpp\n"
            "x, h, c = torch.ones(1, 2), torch.zeros(1, 3), torch.zeros(1, 3)\n"
            "W, b = torch.full((9, 5), 0.1), torch.zeros(9)\n"
            "new_h, new_cell = lltm_cpp.forward(x, W, b, h, c)[:2]\n"
            "print(round(float(new_cell[0, 0]), 6), round(float(new_h[0, 0]), 6))\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    # Worked by hand: gates = 0.2 each; input gate s(0.2), candidate elu(0.2) = 0.2, old cell 0:
    # new_cell = 0.2 * s(0.2); new_h = tanh(new_cell) * s(0.2).
    s = 1 / (1 + torch.exp(torch.tensor(-0.2, dtype=torch.float64))).item()
    new_cell = 0.2 * s
    assert run.stdout.split() == [str(round(new_cell, 6)), str(round(float(torch.tanh(torch.tensor(new_cell))) * s, 6))]


# ---- the dispatcher operator (op/lltm_op.cpp): TORCH_LIBRARY + an Autograd kernel ---------------

@pytest.fixture(scope="module")
def lltm_op(lltm):
    return lltm.load_op()


def test_op_library_registers_its_operators(lltm_op):
    assert lltm_op in torch.ops.loaded_libraries
    packet = torch.ops.lltm_ops.lltm
    assert packet.overloads() == ["default"]
    assert packet.default._schema == (
        "lltm(Tensor input, Tensor weights, Tensor bias, Tensor old_h, Tensor old_cell) -> Tensor[]")
    dump = torch._C._dispatch_dump("lltm_ops::lltm")
    assert "CPU: registered at lltm_op.cpp" in dump and "Autograd[alias]: registered at lltm_op.cpp" in dump


def test_op_matches_reference_and_gradcheck(lltm, lltm_op):
    def fn(*args):
        new_h, new_cell = torch.ops.lltm_ops.lltm(*args)
        return new_h, new_cell

    check_against_reference(lltm, fn)
    assert gradcheck(fn, inputs())
    new_h, _ = fn(*inputs())
    assert type(new_h.grad_fn).__name__ == "CppNode<LLTMFunction>" or "LLTMFunction" in new_h.grad_fn.name()


def test_op_without_grad_skips_the_graph(lltm, lltm_op):
    args = [t.detach() for t in inputs()]
    new_h, new_cell = torch.ops.lltm_ops.lltm.default(*args)
    assert new_h.grad_fn is None and not new_h.requires_grad
    assert_close(new_cell, lltm.lltm_reference(*args)[1])


def test_op_argument_errors(lltm_op):
    x = torch.ones(2, 2)
    with pytest.raises(RuntimeError, match=r"lltm_ops::lltm\(\) is missing value for argument 'old_cell'"):
        torch.ops.lltm_ops.lltm(x, x, x, x)
    with pytest.raises(RuntimeError, match=r"Expected a value of type 'Tensor' for argument 'bias' but instead "
                                           r"found type 'int'.\nPosition: 2"):
        torch.ops.lltm_ops.lltm(x, x, 1, x, x)
    with pytest.raises(AttributeError, match="'_OpNamespace' 'lltm_ops' object has no attribute 'nope'"):
        torch.ops.lltm_ops.nope


def test_op_dispatch_trace_shows_the_custom_kernels(lltm_op):
    code = (f"import torch; torch.ops.load_library({lltm_op!r})\n"
            "args = [torch.randn(2, 3, requires_grad=True), torch.randn(12, 7), torch.randn(12),"
            " torch.randn(2, 4), torch.randn(2, 4)]\n"
            "torch.ops.lltm_ops.lltm(*args)\n")
    env = dict(os.environ, TORCH_SHOW_DISPATCH_TRACE="1")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = [l.strip() for l in run.stderr.splitlines()]
    assert "[callBoxed] op=[lltm_ops::lltm], key=[AutogradCPU]" in lines
    # The autograd kernel calls lltm_forward below autograd: the CPU kernel, unboxed.
    assert "[call] op=[lltm_ops::lltm_forward], key=[CPU]" in lines


def test_op_library_imported_as_a_package_c_module(tmp_path, extensions_dir):
    package = tmp_path / "lltm_ops_pkg"
    package.mkdir()
    # _C is cpp/lltm.cpp's module (forward, backward); loading it also runs lltm_op.cpp's registrations.
    (package / "__init__.py").write_text("from . import _C  # noqa: F401  (registers torch.ops.lltm_ops)\n")
    shutil.copy(os.path.join(LLTM_DIR, "op", "lltm_op.cpp"), tmp_path)
    shutil.copy(os.path.join(LLTM_DIR, "cpp", "lltm.cpp"), tmp_path)
    (tmp_path / "setup.py").write_text(
        "from setuptools import setup\n"
        "from torch.utils.cpp_extension import BuildExtension, CppExtension\n"
        "setup(name='lltm_ops_pkg', packages=['lltm_ops_pkg'],\n"
        "      ext_modules=[CppExtension('lltm_ops_pkg._C', ['lltm_op.cpp', 'lltm.cpp'])],\n"
        "      cmdclass={'build_ext': BuildExtension})\n")
    built = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    code = ("import torch, lltm_ops_pkg\n"
            "x = torch.zeros(1, 1); W = torch.zeros(3, 2); b = torch.zeros(3)\n"
            "new_h, new_cell = torch.ops.lltm_ops.lltm(x, W, b, x, torch.ones(1, 1))\n"
            "print(float(new_cell))\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    # All gates 0: input gate 0.5, candidate elu(0) = 0, so new_cell = old_cell = 1.
    assert run.stdout.strip() == "1.0"


# ---- the CUDA extension, on the simulated device --------------------------------------------------

def test_cuda_extension_on_the_simulated_device(extensions_dir):
    """In a process of its own: TORCH_CUDA_SIMULATE must be set before torch is imported."""
    code = f"""
import sys, torch
sys.path.insert(0, {LLTM_DIR!r})
import lltm
from torch.autograd import gradcheck
assert torch.cuda.is_available()
ext = lltm.load_cuda()
fn = lltm.make_function(ext).apply
g = torch.Generator().manual_seed(0)
cpu = [torch.randn(*s, generator=g, dtype=torch.float64) for s in [(3, 4), (15, 9), (15,), (3, 5), (3, 5)]]
cuda = [t.cuda().requires_grad_() for t in cpu]
cpu = [t.requires_grad_() for t in cpu]
want = lltm.lltm_reference(*cpu)
got = fn(*cuda)
def close(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    assert torch.allclose(a, b, rtol=1e-10, atol=1e-12), (a - b).abs().max()
for w, o in zip(want, got):
    close(o.cpu(), w.detach())
(want[0].sum() + want[1].pow(2).sum()).backward()
(got[0].sum() + got[1].pow(2).sum()).backward()
for a, b in zip(cpu, cuda):
    close(b.grad.cpu(), a.grad)
assert gradcheck(fn, [t.detach().clone().requires_grad_() for t in cuda])
try:
    ext.forward(*[t.detach().cpu() for t in cuda])
except RuntimeError as e:
    print("error:", e)
print("ok")
"""
    env = dict(os.environ, TORCH_CUDA_SIMULATE="1")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "error: input must be a CUDA tensor" in run.stdout
    assert run.stdout.strip().endswith("ok")


def test_cuda_setup_py_on_the_simulated_device(tmp_path, extensions_dir):
    """cuda/setup.py (CUDAExtension + BuildExtension) under TORCH_CUDA_SIMULATE: the .cu file is
    translated and compiled for the simulated device, and the module runs there."""
    for name in ("lltm_cuda.cpp", "lltm_cuda_kernel.cu", "setup.py"):
        shutil.copy(os.path.join(LLTM_DIR, "cuda", name), tmp_path)
    env = dict(os.environ, TORCH_CUDA_SIMULATE="1")
    built = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tmp_path, env=env,
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    assert "tools.cuda_sim.translate" in built.stdout and "lltm_cuda_kernel.cu" in built.stdout
    code = ("import torch, lltm_cuda\n"
            "x, h, c = torch.ones(1, 2), torch.zeros(1, 3), torch.zeros(1, 3)\n"
            "W, b = torch.full((9, 5), 0.1), torch.zeros(9)\n"
            "args = [t.cuda() for t in (x, W, b, h, c)]\n"
            "new_h, new_cell = lltm_cuda.forward(*args)[:2]\n"
            "print(new_cell.device, round(float(new_cell[0, 0]), 6))\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    s = 1 / (1 + math.exp(-0.2))  # gates 0.2 each: new_cell = elu(0.2) * sigmoid(0.2)
    assert run.stdout.split() == ["cuda:0", str(round(0.2 * s, 6))]


def test_cuda_extension_builds_with_nvcc_for_a_gpu(lltm, tmp_path):
    """Without TORCH_CUDA_SIMULATE the .cu file goes to nvcc (for the architectures torch was
    built for), the module links the real CUDA runtime and imports; without a GPU its checks
    still run. A GPU runs the kernel itself (test_cuda_extension_on_the_simulated_device is
    the same check on the simulated device)."""
    from torch.utils import cpp_extension

    if not cpp_extension._build_paths()["with_cuda"]:
        pytest.skip("this torch was built without CUDA (USE_CUDA=0): no nvcc")
    ext = lltm.load_cuda(build_directory=str(tmp_path))
    ninja = (tmp_path / "build.ninja").read_text()
    assert "rule cuda_compile" in ninja and "nvcc" in ninja and "-gencode=arch=compute_" in ninja
    if torch.cuda.is_available():
        x = torch.ones(1, 2, device="cuda")
        new_h, new_cell = ext.forward(x, torch.full((9, 5), 0.1, device="cuda"), torch.zeros(9, device="cuda"),
                                      torch.zeros(1, 3, device="cuda"), torch.zeros(1, 3, device="cuda"))[:2]
        s = 1 / (1 + math.exp(-0.2))
        assert abs(float(new_cell[0, 0]) - 0.2 * s) < 1e-6
    else:
        with pytest.raises(RuntimeError, match="input must be a CUDA tensor"):
            ext.forward(*[torch.ones(1, 1)] * 5)
