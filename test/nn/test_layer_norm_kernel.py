"""Tests for layer_norm's fused CPU kernels (aten/src/ATen/native/cpu/layer_norm_kernel.cpp):
output, mean and rstd against numpy, gradients against numpy's formulas and finite
differences, with and without weight and bias, over one or two normalized dims, for
non-contiguous inputs, and the bfloat16 path that keeps the tensor-operation formulas.

Guide: docs/source/internals/performance.rst
"""
import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck


def _ln_numpy(x, shape, w, b, eps):
    axes = tuple(range(x.ndim - len(shape), x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mean) / np.sqrt(var + eps)
    if w is not None:
        y = y * w
    if b is not None:
        y = y + b
    return y


@pytest.mark.parametrize("dtype, tol", [(torch.float32, 1e-5), (torch.float64, 1e-12)])
@pytest.mark.parametrize("affine", ["both", "weight", "bias", "none"])
@pytest.mark.parametrize("shape", [(7,), (3, 37)])
def test_forward_and_backward_match_numpy(dtype, tol, affine, shape):
    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((4, 5) + shape) * 3 + 1
    w_np = rng.standard_normal(shape) if affine in ("both", "weight") else None
    b_np = rng.standard_normal(shape) if affine in ("both", "bias") else None
    x = torch.tensor(x_np, dtype=dtype, requires_grad=True)
    w = torch.tensor(w_np, dtype=dtype, requires_grad=True) if w_np is not None else None
    b = torch.tensor(b_np, dtype=dtype, requires_grad=True) if b_np is not None else None
    y = F.layer_norm(x, shape, w, b, 1e-5)
    np.testing.assert_allclose(y.detach().double().numpy(), _ln_numpy(x_np, shape, w_np, b_np, 1e-5),
                               rtol=tol, atol=tol)
    g_np = rng.standard_normal(y.shape)
    y.backward(torch.tensor(g_np, dtype=dtype))
    # numpy's gradients of the same formula (the per-row backward of the guide).
    axes = tuple(range(x_np.ndim - len(shape), x_np.ndim))
    n = int(np.prod(shape))
    mean = x_np.mean(axis=axes, keepdims=True)
    rstd = 1 / np.sqrt(((x_np - mean) ** 2).mean(axis=axes, keepdims=True) + 1e-5)
    xhat = (x_np - mean) * rstd
    g = g_np * (w_np if w_np is not None else 1)
    dx = (g - g.sum(axis=axes, keepdims=True) / n - xhat * (g * xhat).sum(axis=axes, keepdims=True) / n) * rstd
    np.testing.assert_allclose(x.grad.double().numpy(), dx, rtol=tol * 10, atol=tol * 10)
    lead = tuple(range(x_np.ndim - len(shape)))
    if w is not None:
        np.testing.assert_allclose(w.grad.double().numpy(), (g_np * xhat).sum(axis=lead), rtol=tol * 10, atol=tol * 10)
    if b is not None:
        np.testing.assert_allclose(b.grad.double().numpy(), g_np.sum(axis=lead), rtol=tol * 10, atol=tol * 10)


def test_native_layer_norm_statistics_and_non_contiguous_input():
    rng = np.random.default_rng(1)
    x_np = rng.standard_normal((6, 10))
    x = torch.tensor(x_np.T.copy()).t()  # non-contiguous
    out, mean, rstd = torch.native_layer_norm(x, [10], None, None, 1e-5)
    assert mean.shape == (6, 1) and rstd.shape == (6, 1)
    np.testing.assert_allclose(mean.numpy()[:, 0], x_np.mean(1), rtol=1e-13)
    np.testing.assert_allclose(rstd.numpy()[:, 0], 1 / np.sqrt(x_np.var(1) + 1e-5), rtol=1e-12)
    np.testing.assert_allclose(out.numpy(), _ln_numpy(x_np, (10,), None, None, 1e-5), rtol=1e-12, atol=1e-12)


def test_gradcheck_and_gradgradcheck():
    torch.manual_seed(0)
    x = torch.randn(3, 2, 5, dtype=torch.float64, requires_grad=True)
    w = torch.randn(2, 5, dtype=torch.float64, requires_grad=True)
    b = torch.randn(2, 5, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda *a: F.layer_norm(a[0], (2, 5), a[1], a[2]), (x, w, b))


def test_bfloat16_keeps_working():
    x = torch.randn(4, 16)
    y = F.layer_norm(x.bfloat16(), (16,))
    assert y.dtype == torch.bfloat16
    np.testing.assert_allclose(y.float().numpy(), F.layer_norm(x, (16,)).numpy(), atol=5e-2)
