"""The autograd engine's threads: CPU nodes run on the thread that called backward, each CUDA
device's nodes on that device's worker thread, and what crosses between them (gradients,
errors, warnings, nested backward calls) arrives intact.

Mirrors PyTorch's test/test_autograd.py (TestAutogradDeviceType: test_backward_device,
test_reentrant_parent_error_on_cpu, test_simple_reentrant_cross_device,
test_warning_in_backward) on the simulated device. Guide: docs/source/internals/autograd.rst
(the engine); code: torch/csrc/autograd/engine.cpp (thread_main, ready_queue).

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_autograd_device_threads.py
"""

import threading
import warnings

import numpy as np
import pytest

import torch

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")
requires_two = pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2,
                                  reason="needs two CUDA devices")


class RecordThread(torch.autograd.Function):
    """Identity whose backward notes which thread ran it and which device was current."""
    seen = []

    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        device = torch.cuda.current_device() if g.is_cuda else None
        RecordThread.seen.append((threading.get_ident(), g.device.type, device))
        return g


def test_cpu_nodes_run_on_the_calling_thread_and_cuda_nodes_on_a_worker():
    RecordThread.seen = []
    x = torch.ones(3, requires_grad=True)
    RecordThread.apply(x).sum().backward()
    (tid_cpu, kind_cpu, _), = RecordThread.seen
    assert tid_cpu == threading.get_ident() and kind_cpu == "cpu"

    RecordThread.seen = []
    y = torch.ones(3, device="cuda", requires_grad=True)
    RecordThread.apply(y).sum().backward()
    (tid_cuda, kind_cuda, device), = RecordThread.seen
    assert kind_cuda == "cuda" and device == 0
    assert tid_cuda != threading.get_ident()
    assert y.grad.cpu().tolist() == [1.0, 1.0, 1.0]

    # The same worker serves device 0 on the next backward.
    RecordThread.seen = []
    RecordThread.apply(y).sum().backward()
    assert RecordThread.seen[0][0] == tid_cuda


@requires_two
def test_each_device_has_its_own_worker_with_its_device_current():
    RecordThread.seen = []
    a = torch.ones(2, device="cuda:0", requires_grad=True)
    b = torch.ones(2, device="cuda:1", requires_grad=True)
    loss = RecordThread.apply(a).sum().cpu() + RecordThread.apply(b).sum().cpu()
    loss.backward()
    by_device = {device: tid for tid, kind, device in RecordThread.seen}
    assert set(by_device) == {0, 1}
    assert by_device[0] != by_device[1]
    assert threading.get_ident() not in by_device.values()


def test_gradients_cross_devices_in_a_mixed_graph():
    x = torch.linspace(-1, 1, 7, requires_grad=True)
    w = torch.randn(7, device="cuda", requires_grad=True)
    h = (x.cuda() * w).tanh()         # CUDA nodes
    loss = (h.cpu() ** 2).sum()        # CPU nodes
    loss.backward()
    xd, wd = x.detach().numpy().astype(np.float64), w.detach().cpu().numpy().astype(np.float64)
    t = np.tanh(xd * wd)
    dh = 2 * t * (1 - t ** 2)
    np.testing.assert_allclose(x.grad.numpy(), dh * wd, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(w.grad.cpu().numpy(), dh * xd, rtol=1e-5, atol=1e-6)
    assert w.grad.is_cuda and not x.grad.is_cuda


def test_autograd_grad_captures_on_cuda():
    x = torch.tensor([1.0, 2.0, 3.0], device="cuda", requires_grad=True)
    y = (x ** 3).sum()
    (gx,) = torch.autograd.grad(y, x, create_graph=True)
    assert gx.cpu().tolist() == [3.0, 12.0, 27.0]
    (ggx,) = torch.autograd.grad(gx.sum(), x)
    assert ggx.cpu().tolist() == [6.0, 12.0, 18.0]


class FailOnDevice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        raise ValueError("backward failed on " + g.device.type)


def test_an_error_in_a_worker_reaches_the_caller():
    y = torch.ones(2, device="cuda", requires_grad=True)
    with pytest.raises(ValueError, match="backward failed on cuda"):
        FailOnDevice.apply(y).sum().backward()
    # The engine still works afterwards.
    (y * 2).sum().backward()
    assert y.grad.cpu().tolist() == [2.0, 2.0]


class WarnInBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        warnings.warn("warning from a device backward")
        return g


def test_a_warning_in_a_worker_reaches_the_caller():
    y = torch.ones(2, device="cuda", requires_grad=True)
    with pytest.warns(UserWarning, match="warning from a device backward"):
        WarnInBackward.apply(y).sum().backward()


class Reentrant(torch.autograd.Function):
    """backward runs a backward of its own (as reentrant checkpointing does)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        with torch.enable_grad():
            inner = x.detach().requires_grad_()
            (inner ** 2).sum().backward()
        return g * inner.grad


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_reentrant_backward(device):
    x = torch.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
    Reentrant.apply(x).sum().backward()
    assert x.grad.cpu().tolist() == [2.0, 4.0, 6.0]
