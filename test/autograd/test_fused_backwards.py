"""Tests for the backward kernels autograd calls instead of composite formulas: sigmoid_backward,
tanh_backward, gelu_backward, _softmax_backward_data and _log_softmax_backward_data (one pass
each, aten/src/ATen/native/BinaryOps.cpp, Activation.cpp, SoftMax.cpp), their own derivatives
for double backward, and chunk/unbind recording one node for all their outputs.

Guide: docs/source/internals/performance.rst ("Backward without temporaries")
"""
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck, gradgradcheck


def _rand(*shape, seed=0):
    return torch.from_numpy(np.random.default_rng(seed).standard_normal(shape))


# ---- values against numpy ----

def test_sigmoid_and_tanh_backward_values():
    x = _rand(5, 7)
    g = _rand(5, 7, seed=1)
    for fn, deriv in [(torch.sigmoid, lambda y: (1 - y) * y), (torch.tanh, lambda y: 1 - y * y)]:
        xr = x.clone().requires_grad_()
        y = fn(xr)
        y.backward(g)
        yn = y.detach().numpy()
        np.testing.assert_allclose(xr.grad.numpy(), g.numpy() * deriv(yn), rtol=1e-13, atol=1e-15)
    assert torch.sigmoid(x.requires_grad_()).grad_fn.name() == "SigmoidBackward0"


def test_sigmoid_and_tanh_backward_float32_and_bfloat16():
    x = _rand(64).float()
    for fn, deriv in [(torch.sigmoid, lambda y: (1 - y) * y), (torch.tanh, lambda y: 1 - y * y)]:
        for dtype, tol in [(torch.float32, 1e-6), (torch.bfloat16, 1e-2)]:
            xr = x.to(dtype).detach().clone().requires_grad_()
            y = fn(xr)
            y.sum().backward()
            expected = deriv(y.detach().double().numpy())
            assert xr.grad.dtype == dtype
            np.testing.assert_allclose(xr.grad.double().numpy(), expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_backward_values(approximate):
    x = _rand(200) * 3
    g = _rand(200, seed=2)
    xr = x.clone().requires_grad_()
    F.gelu(xr, approximate=approximate).backward(g)
    xn = x.numpy()
    if approximate == "none":
        cdf = 0.5 * (1 + np.vectorize(math.erf)(xn / math.sqrt(2)))
        pdf = np.exp(-0.5 * xn * xn) / math.sqrt(2 * math.pi)
        d = cdf + xn * pdf
    else:
        beta, kappa = math.sqrt(2 / math.pi), 0.044715
        t = np.tanh(beta * (xn + kappa * xn ** 3))
        d = 0.5 * (1 + t) + 0.5 * xn * (1 - t * t) * beta * (1 + 3 * kappa * xn * xn)
    np.testing.assert_allclose(xr.grad.numpy(), g.numpy() * d, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("log", [False, True])
def test_softmax_backward_data_values(dim, log):
    x = _rand(4, 6, 5)
    g = _rand(4, 6, 5, seed=3)
    xr = x.clone().requires_grad_()
    (F.log_softmax if log else F.softmax)(xr, dim=dim).backward(g)
    xn, gn = x.numpy(), g.numpy()
    e = np.exp(xn - xn.max(axis=dim, keepdims=True))
    sm = e / e.sum(axis=dim, keepdims=True)
    if log:
        expected = gn - sm * gn.sum(axis=dim, keepdims=True)
    else:
        expected = sm * (gn - (gn * sm).sum(axis=dim, keepdims=True))
    np.testing.assert_allclose(xr.grad.numpy(), expected, rtol=1e-12, atol=1e-14)


def test_softmax_backward_data_of_transposed_grad_and_0d():
    x = _rand(6, 4).requires_grad_()
    y = F.softmax(x, dim=0)
    g = _rand(4, 6, seed=4).t()  # non-contiguous gradient
    y.backward(g)
    yn, gn = y.detach().numpy(), g.numpy()
    np.testing.assert_allclose(x.grad.numpy(), yn * (gn - (gn * yn).sum(0, keepdims=True)), rtol=1e-12, atol=1e-14)
    s = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    F.softmax(s, dim=0).backward()
    assert s.grad.item() == 0.0  # softmax of one element is 1 whatever the input


def test_softmax_backward_data_checks_sizes_and_dtypes():
    g, y = _rand(3, 4), torch.rand(3, 4, dtype=torch.float64)
    assert torch._softmax_backward_data(g, y, 1, torch.float64).shape == (3, 4)
    with pytest.raises(RuntimeError, match=r"Expected tensor for argument #1 'grad' to have same size as tensor for "
                       r"argument #2 'output'; but \[3, 4\] does not equal \[2, 4\] \(while checking arguments for "
                       r"softmax_backward\)"):
        torch._softmax_backward_data(g, y[:2], 1, torch.float64)
    with pytest.raises(RuntimeError, match="expected scalar type Double but found Float"):
        torch._log_softmax_backward_data(g, y.float(), 1, torch.float32)


# ---- gradients and second derivatives against finite differences ----

@pytest.mark.parametrize("fn", [
    torch.sigmoid,
    torch.tanh,
    lambda x: F.gelu(x),
    lambda x: F.gelu(x, approximate="tanh"),
    lambda x: F.softmax(x, dim=1),
    lambda x: F.log_softmax(x, dim=0),
])
def test_gradcheck_and_gradgradcheck(fn):
    x = _rand(3, 4, seed=5).requires_grad_()
    assert gradcheck(fn, (x,))
    assert gradgradcheck(fn, (x,))


def test_backward_kernels_are_differentiable_in_grad_output():
    # create_graph=True through a fused backward: d/dg of (g * sigma'(x)) summed against w.
    x = _rand(5, seed=6).requires_grad_()
    g = _rand(5, seed=7).requires_grad_()
    (gx,) = torch.autograd.grad(torch.sigmoid(x), x, g, create_graph=True)
    (dg,) = torch.autograd.grad(gx.sum(), g)
    s = torch.sigmoid(x.detach())
    np.testing.assert_allclose(dg.numpy(), (s * (1 - s)).numpy(), rtol=1e-13)


# ---- one node for all the pieces ----

def test_chunk_and_unbind_record_one_node():
    x = _rand(4, 8).requires_grad_()
    pieces = x.chunk(4, 1)
    assert pieces[0].grad_fn.name() == "SplitBackward0"
    assert pieces[0].grad_fn is pieces[3].grad_fn
    rows = x.unbind(0)
    assert rows[1].grad_fn.name() == "UnbindBackward0"
    # Pieces without a gradient contribute zeros.
    (pieces[1].sum() * 2 + rows[2].sum()).backward()
    expected = np.zeros((4, 8))
    expected[:, 2:4] += 2
    expected[2, :] += 1
    np.testing.assert_allclose(x.grad.numpy(), expected)


def test_lstm_gradients_against_finite_differences():
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True).double()
    x = torch.randn(5, 2, 3, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda inp: lstm(inp)[0], (x,))
    params = list(lstm.parameters())
    out = lstm(x)[0]
    out.backward(torch.ones_like(out))
    w = params[1]  # weight_hh_l0
    i, j, eps = 2, 1, 1e-6
    with torch.no_grad():
        w[i, j] += eps
        plus = lstm(x)[0].sum().item()
        w[i, j] -= 2 * eps
        minus = lstm(x)[0].sum().item()
        w[i, j] += eps
    assert abs(w.grad[i, j].item() - (plus - minus) / (2 * eps)) < 1e-7


# ---- the fused LSTM cell (aten/src/ATen/native/RNN.cpp) ----

def _sigmoid(v):
    return 1 / (1 + np.exp(-v))


def _lstm_cell_numpy(ig, hg, cx, b1=None, b2=None):
    gates = ig + hg + (0 if b1 is None else b1) + (0 if b2 is None else b2)
    i, f, g, o = np.split(gates, 4, axis=1)
    i, f, g, o = _sigmoid(i), _sigmoid(f), np.tanh(g), _sigmoid(o)
    cy = f * cx + i * g
    return o * np.tanh(cy), cy, np.concatenate([i, f, g, o], axis=1)


@pytest.mark.parametrize("with_bias", [False, True])
def test_fused_lstm_cell_forward_matches_numpy(with_bias):
    ig, hg, cx = _rand(3, 8, seed=10), _rand(3, 8, seed=11), _rand(3, 2, seed=12)
    b1, b2 = (_rand(8, seed=13), _rand(8, seed=14)) if with_bias else (None, None)
    hy, cy, ws = torch._thnn_fused_lstm_cell(ig, hg, cx, b1, b2)
    e_hy, e_cy, e_ws = _lstm_cell_numpy(ig.numpy(), hg.numpy(), cx.numpy(),
                                        None if b1 is None else b1.numpy(), None if b2 is None else b2.numpy())
    for got, want in [(hy, e_hy), (cy, e_cy), (ws, e_ws)]:
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-13, atol=1e-15)


def test_fused_lstm_cell_gradients():
    ig, hg = _rand(2, 12, seed=15).requires_grad_(), _rand(2, 12, seed=16).requires_grad_()
    cx = _rand(2, 3, seed=17).requires_grad_()
    b1, b2 = _rand(12, seed=18).requires_grad_(), _rand(12, seed=19).requires_grad_()
    assert gradcheck(lambda *a: torch._thnn_fused_lstm_cell(*a)[:2], (ig, hg, cx, b1, b2))
    assert gradgradcheck(lambda *a: torch._thnn_fused_lstm_cell(*a)[:2], (ig, hg, cx, b1, b2))
    # Only h used (c's gradient missing), then only c used.
    assert gradcheck(lambda *a: torch._thnn_fused_lstm_cell(*a)[0], (ig, hg, cx))
    assert gradcheck(lambda *a: torch._thnn_fused_lstm_cell(*a)[1], (ig, hg, cx))
    hy, cy, ws = torch._thnn_fused_lstm_cell(ig, hg, cx)
    assert hy.grad_fn.name() == "ThnnFusedLstmCellBackward0"
    assert not ws.requires_grad


def test_fused_lstm_cell_float32_matches_float64():
    ig, hg, cx = _rand(4, 16, seed=20), _rand(4, 16, seed=21), _rand(4, 4, seed=22)
    ref = torch._thnn_fused_lstm_cell(ig, hg, cx)
    got = torch._thnn_fused_lstm_cell(ig.float(), hg.float(), cx.float())
    for a, b in zip(got, ref):
        assert a.dtype == torch.float32
        np.testing.assert_allclose(a.double().numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_fused_lstm_cell_checks_its_arguments():
    ig, cx = _rand(2, 8), _rand(2, 2)
    with pytest.raises(RuntimeError, match="is not a multiple of 4"):
        torch._thnn_fused_lstm_cell(_rand(2, 6), _rand(2, 6), cx)
    with pytest.raises(RuntimeError, match="cx of shape"):
        torch._thnn_fused_lstm_cell(ig, ig, _rand(2, 3))
    with pytest.raises(RuntimeError, match="differ"):
        torch._thnn_fused_lstm_cell(ig, _rand(3, 8), cx)
    with pytest.raises(RuntimeError, match="expected all tensors to have dtype"):
        torch._thnn_fused_lstm_cell(ig, ig.float(), cx)


def test_lstm_matches_the_cell_written_out():
    # torch.nn.LSTM's steps run the fused cell; the same weights through the formulas of
    # PyTorch's LSTM documentation give the same outputs and gradients.
    torch.manual_seed(1)
    lstm = torch.nn.LSTM(3, 5).double()
    x = torch.randn(4, 2, 3, dtype=torch.float64)
    out, (h, c) = lstm(x)
    w_ih, w_hh, b_ih, b_hh = lstm.weight_ih_l0, lstm.weight_hh_l0, lstm.bias_ih_l0, lstm.bias_hh_l0
    ht = torch.zeros(2, 5, dtype=torch.float64)
    ct = torch.zeros(2, 5, dtype=torch.float64)
    outs = []
    for t in range(4):
        gates = x[t] @ w_ih.t() + b_ih + ht @ w_hh.t() + b_hh
        i, f, g, o = gates.chunk(4, 1)
        ct = f.sigmoid() * ct + i.sigmoid() * g.tanh()
        ht = o.sigmoid() * ct.tanh()
        outs.append(ht)
    expected = torch.stack(outs)
    np.testing.assert_allclose(out.detach().numpy(), expected.detach().numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(c[0].detach().numpy(), ct.detach().numpy(), rtol=1e-12, atol=1e-14)
    g_out = torch.randn_like(out)
    got = torch.autograd.grad(out, (w_hh, b_ih), g_out)
    want = torch.autograd.grad(expected, (w_hh, b_ih), g_out)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-11, atol=1e-13)
