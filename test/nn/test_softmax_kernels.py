"""softmax and log_softmax, forward and backward (aten/src/ATen/native/SoftMax.cpp, loops in
aten/src/ATen/native/cpu/SoftMaxKernel.cpp): values against numpy in float32, float64 and
bfloat16 along every dim, of non-contiguous inputs, rows of -inf and NaN, empty and 0-d tensors;
gradients against finite differences (gradcheck) and against numpy's formulas.
Guide: docs/source/internals/performance.rst.
"""
import numpy as np
import pytest

import torch
import torch.nn.functional as F

INF = float("inf")
NAN = float("nan")


def np_softmax(a, dim, log=False):
    a = a.astype(np.float64)
    m = np.max(a, axis=dim, keepdims=True)
    m = np.where(np.isneginf(m), 0.0, m)
    with np.errstate(invalid="ignore", divide="ignore"):
        e = np.exp(a - m)
        s = e.sum(axis=dim, keepdims=True)
        return a - m - np.log(s) if log else e / s


def rand(shape, dtype=torch.float32, seed=0, scale=3.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(shape, generator=g, dtype=torch.float64) * scale).to(dtype)


TOL = {torch.float32: (2e-6, 1e-7), torch.float64: (1e-13, 1e-300), torch.bfloat16: (1.6e-2, 1e-6)}
LOG_TOL = {torch.float32: (1e-6, 5e-6), torch.float64: (1e-13, 1e-13), torch.bfloat16: (1.6e-2, 2e-2)}


# Row lengths around the 32-wide accumulators and the 64-wide column blocks, shapes with 1s.
SHAPES = [(5,), (3, 31), (4, 33), (2, 3, 67), (65, 3, 2), (1, 130, 1), (7, 1, 9)]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("log", [False, True])
def test_values_along_every_dim(dtype, shape, log):
    x = rand(shape, dtype)
    a = x.double().numpy()
    rtol, atol = (LOG_TOL if log else TOL)[dtype]
    for dim in range(-len(shape), len(shape)):
        y = (F.log_softmax if log else F.softmax)(x, dim=dim)
        assert y.dtype == dtype and y.shape == x.shape and y.is_contiguous()
        np.testing.assert_allclose(y.double().numpy(), np_softmax(a, dim, log), rtol=rtol, atol=atol,
                                   err_msg=f"dim={dim}")


@pytest.mark.parametrize("log", [False, True])
def test_non_contiguous_inputs(log):
    f = F.log_softmax if log else F.softmax
    base = rand((6, 40, 10))
    views = [base.transpose(0, 2), base[:, ::3, :], base.permute(1, 2, 0)[5:], base[..., 1]]
    for v in views:
        for dim in range(v.dim()):
            want = f(v.contiguous(), dim=dim)
            assert torch.equal(f(v, dim=dim), want)


def test_channels_last_input_gives_contiguous_output():
    x = rand((2, 3, 4, 5)).contiguous(memory_format=torch.channels_last)
    y = F.softmax(x, dim=1)
    assert y.is_contiguous()
    np.testing.assert_allclose(y.numpy(), np_softmax(x.numpy(), 1), rtol=2e-6, atol=1e-7)


@pytest.mark.parametrize("dim", [0, 1])
def test_special_rows(dim):
    # Rows (dim=1) or columns (dim=0) of: all -inf, some -inf, a NaN, +inf, large values.
    rows = torch.tensor([
        [-INF] * 40,
        [1.0, -INF] * 20,
        [0.5] * 17 + [NAN] + [0.25] * 22,
        [INF] + [1.0] * 39,
        [1e30, -1e30] * 20,
        [88.0 + i for i in range(40)],
    ])
    x = rows if dim == 1 else rows.t().contiguous()
    for log in (False, True):
        y = (F.log_softmax if log else F.softmax)(x, dim=dim)
        y = y if dim == 1 else y.t()
        want = np_softmax(rows.double().numpy(), 1, log)
        assert torch.isnan(y[0]).all() and torch.isnan(y[2]).all() and torch.isnan(y[3]).all()
        np.testing.assert_allclose(y[[1, 4, 5]].double().numpy(), want[[1, 4, 5]], rtol=2e-6, atol=1e-6)
        if not log:
            assert (y[1, 1::2] == 0).all() and (y[4, 1::2] == 0).all()
            assert torch.allclose(y[[1, 4, 5]].sum(1), torch.ones(3))


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_reduced_precision_computes_in_float_and_rounds_once(dtype):
    # Half and BFloat16 rows are computed in float and rounded once, as the float result rounded
    # to the dtype (NaN rows included).
    x = rand((9, 70), dtype, seed=5)
    x[3, 5] = NAN
    for f in (F.softmax, F.log_softmax):
        for dim in (0, 1):
            got = f(x, dim=dim)
            want = f(x.float(), dim=dim).to(dtype)
            assert torch.equal(got.isnan(), want.isnan())
            assert torch.equal(got.nan_to_num(), want.nan_to_num()), (f, dim)


def test_empty_and_zero_dim():
    for shape, dim in [((0,), 0), ((0, 3), 0), ((0, 3), 1), ((2, 0), 1), ((2, 0, 3), 0)]:
        x = torch.empty(shape)
        for f in (F.softmax, F.log_softmax):
            y = f(x, dim=dim)
            assert y.shape == x.shape
    s = torch.tensor(3.0)
    assert F.softmax(s, dim=0).item() == 1.0 and F.log_softmax(s, dim=0).item() == 0.0
    assert F.softmax(s, dim=-1).shape == ()


def test_long_rows_sum_to_one():
    for n in (1, 31, 32, 33, 1000, 4099):
        x = rand((3, n), scale=10.0)
        assert torch.allclose(F.softmax(x, dim=1).double().sum(1), torch.ones(3, dtype=torch.float64), atol=1e-5)
        lse = torch.logsumexp(x.double(), 1, keepdim=True)
        assert torch.allclose(F.log_softmax(x, dim=1).double(), x.double() - lse, atol=2e-5)


def test_rows_are_independent_of_parallel_split():
    x = rand((257, 300))
    y = F.softmax(x, dim=1)
    for i in (0, 128, 256):
        assert torch.equal(y[i], F.softmax(x[i], dim=0))
    # A column (softmax along dim 0) adds in another order than a row: equal to rounding.
    z = F.softmax(x, dim=0)
    assert torch.allclose(z[:, 7], F.softmax(x[:, 7].contiguous(), dim=0), rtol=1e-6, atol=0)


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("shape, dim", [((4, 7), 1), ((4, 7), 0), ((3, 5, 2), 1), ((2, 3, 70), 2), ((70, 2), 0),
                                        ((), 0)])
def test_gradcheck(log, shape, dim):
    x = rand(shape, torch.float64, seed=1).requires_grad_()
    f = F.log_softmax if log else F.softmax
    assert torch.autograd.gradcheck(lambda t: f(t, dim=dim), (x,))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
@pytest.mark.parametrize("log", [False, True])
def test_backward_against_numpy(dtype, log):
    for shape in [(3, 70), (5, 4, 3), (66, 2)]:
        for dim in range(len(shape)):
            x = rand(shape, dtype, seed=2).requires_grad_()
            g = rand(shape, dtype, seed=3)
            y = (F.log_softmax if log else F.softmax)(x, dim=dim)
            y.backward(g)
            yd, gd = y.detach().double().numpy(), g.double().numpy()
            if log:
                want = gd - np.exp(yd) * gd.sum(axis=dim, keepdims=True)
            else:
                want = yd * (gd - (gd * yd).sum(axis=dim, keepdims=True))
            rtol, atol = {torch.float32: (1e-5, 1e-6), torch.float64: (1e-12, 1e-14),
                          torch.bfloat16: (2e-2, 2e-2)}[dtype]
            assert x.grad.dtype == dtype
            np.testing.assert_allclose(x.grad.double().numpy(), want, rtol=rtol, atol=atol)


def test_backward_of_non_contiguous_grad():
    x = rand((6, 5), torch.float64).requires_grad_()
    y = F.softmax(x, dim=0)
    g = rand((5, 6), torch.float64, seed=4).t()
    y.backward(g)
    want = torch.ops.aten._softmax_backward_data(g.contiguous(), y.detach(), 0, torch.float64)
    assert torch.equal(x.grad, want)
