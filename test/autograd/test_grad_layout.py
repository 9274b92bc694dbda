"""Tests for where a gradient lands and how it is laid out: reshape's three branches keep the
graph (view, _reshape_alias, _unsafe_view), and a stored .grad has its parameter's strides
(PyTorch's layout contract in torch/csrc/autograd/functions/accumulate_grad.h), and Python
numbers on the left of an operator keep double precision as PyTorch's wrapped numbers do.

Guide: docs/source/internals/autograd.rst
"""
import numpy as np
import pytest
import torch


@pytest.mark.parametrize(
    "make, shape, node",
    [
        (lambda x: x, (3, 4), "ViewBackward0"),                       # contiguous: view
        (lambda x: x[:, :2], (3, 2, 1), "ReshapeAliasBackward0"),      # strides allow a view
        (lambda x: x.t(), (12,), "UnsafeViewBackward0"),              # needs a copy
    ],
)
def test_reshape_records_a_node_on_every_branch(make, shape, node):
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    y = make(x).reshape(shape)
    assert type(y.grad_fn).__name__ == node
    w = torch.randn(y.shape, dtype=torch.float64)
    (y * w).sum().backward()
    # The gradient is w put back where each element of y came from in x.
    expected = torch.zeros(3, 4, dtype=torch.float64)
    make(expected).copy_(w.reshape(make(expected).shape))
    np.testing.assert_allclose(x.grad.numpy(), expected.numpy())


def test_reshape_alias_is_a_view_of_its_base():
    x = torch.zeros(3, 4)
    y = x[:, :2].reshape(3, 2, 1)
    y.add_(1)
    assert x[:, :2].eq(1).all().item() and x[:, 2:].eq(0).all().item()
    assert y._version == x._version == 1


def test_batched_matmul_of_a_transposed_operand_keeps_its_gradient():
    a = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
    b = torch.randn(2, 5, 4, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, b: torch.matmul(a, b.transpose(-2, -1)), (a, b))


def test_stored_grad_takes_its_parameters_strides():
    # mm's backward gives the weight of x @ w.t() a gradient laid out as w.t(): transposed.
    w = torch.randn(4, 3, requires_grad=True)
    x = torch.randn(5, 3)
    (x @ w.t()).sum().backward()
    assert w.grad.stride() == w.stride() == (3, 1)
    np.testing.assert_allclose(w.grad.numpy(), np.ones((5, 4), np.float32).T @ x.numpy(), rtol=1e-6)
    assert w.grad.view(-1).shape == (12,)


def test_a_transposed_parameter_gets_a_transposed_grad():
    base = torch.randn(3, 4)
    w = base.t().detach().requires_grad_()  # strides (1, 4): dense, not contiguous
    (w * 2).sum().backward()
    assert w.grad.stride() == (1, 4)
    np.testing.assert_allclose(w.grad.numpy(), np.full((4, 3), 2, np.float32))


def test_lstm_cell_grads_are_contiguous():
    cell = torch.nn.LSTMCell(5, 20)
    h, c = cell(torch.randn(3, 5))
    (h.sum() + c.sum()).backward()
    for p in cell.parameters():
        assert p.grad.is_contiguous()


def test_number_on_the_left_keeps_double_precision():
    t = torch.tensor([3.0], dtype=torch.float64)
    assert (0.1 - t).item() == 0.1 - 3.0
    assert (0.1 ** torch.tensor([2.0], dtype=torch.float64)).item() == 0.1 ** 2
    assert (7.5 % torch.tensor([2.0], dtype=torch.float64)).item() == 1.5
    # ... and counts only by its category in type promotion
    assert (2.5 - torch.tensor([1])).dtype == torch.float32
    assert (2 - torch.tensor([1], dtype=torch.int32)).dtype == torch.int32


def test_number_divided_by_tensor_is_reciprocal_times_number():
    x = torch.tensor([3.0, 7.0, 0.1, 1e-3])
    np.testing.assert_array_equal((0.7 / x).numpy(), (x.reciprocal() * 0.7).numpy())
    assert (1 / torch.tensor([3, 4])).dtype == torch.float32


def test_mm_gradient_of_a_column_major_operand_is_column_major():
    # FunctionsManual.cpp mm_mat1_backward / mm_mat2_backward: the gradient of a transposed
    # operand comes out transposed, so nn.Linear's weight gradient needs no copy.
    rng = np.random.default_rng(5)
    x_np, w_np, g_np = (rng.standard_normal(s).astype(np.float32) for s in ((6, 4), (3, 4), (6, 3)))
    w = torch.tensor(w_np, requires_grad=True)
    x = torch.empty_strided((6, 4), (1, 6)).copy_(torch.from_numpy(x_np)).requires_grad_()  # column-major leaf
    y = torch.mm(x, w.t())
    (y * torch.from_numpy(g_np)).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), g_np.T @ x_np, rtol=1e-5)
    np.testing.assert_allclose(x.grad.numpy(), g_np @ w_np, rtol=1e-5)
    assert w.grad.stride() == (4, 1)
    assert x.grad.stride() == (1, 6)  # the layout of x itself
    # The same through addmm (nn.Linear), with alpha != 1.
    b = torch.zeros(3, requires_grad=True)
    w.grad = None
    torch.addmm(b, torch.from_numpy(x_np), w.t(), alpha=2.0).sum().backward()
    np.testing.assert_allclose(w.grad.numpy(), 2.0 * np.ones((6, 3), np.float32).T @ x_np, rtol=1e-5)
    assert w.grad.stride() == (4, 1)


def test_retained_grad_is_contiguous():
    # PyTorch's retain_grad hook stores grad.clone(memory_format=torch.contiguous_format).
    x = torch.randn(4, 6, requires_grad=True)
    xt = x.t()
    xt.retain_grad()
    w = torch.randn(3, 4)
    torch.mm(xt, w.t()).sum().backward()
    assert xt.grad.stride() == (4, 1)
    np.testing.assert_allclose(xt.grad.numpy(), np.ones((6, 3), np.float32) @ w.numpy(), rtol=1e-5)


def test_backward_never_writes_into_the_callers_gradient():
    # InputBuffer::add adds in place only into memory no one else holds: StackBackward0 hands
    # each step a view of the gradient passed to backward(), and two of them reaching the
    # same node used to be summed into the caller's tensor.
    w = torch.randn(3, 3, requires_grad=True)
    x = torch.randn(2, 3)
    outs, h = [], x
    for _ in range(3):
        h = torch.tanh(h @ w)
        outs.append(h)
    g = torch.randn(3, 2, 3)
    g_before = g.clone()
    grads = []
    for _ in range(2):
        w.grad = None
        outs2, h = [], x
        for _ in range(3):
            h = torch.tanh(h @ w)
            outs2.append(h)
        torch.stack(outs2, 0).backward(g)
        grads.append(w.grad.clone())
    assert torch.equal(g, g_before)
    assert torch.equal(grads[0], grads[1])
    # Against a hand-written backward of the same recurrence.
    wn, xn, gn = w.detach().double().numpy(), x.double().numpy(), g.double().numpy()
    hs = [xn]
    for _ in range(3):
        hs.append(np.tanh(hs[-1] @ wn))
    dw, dh = np.zeros_like(wn), np.zeros_like(xn)
    for t in range(3, 0, -1):
        dh = dh + gn[t - 1]
        da = dh * (1 - hs[t] ** 2)
        dw += hs[t - 1].T @ da
        dh = da @ wn.T
    np.testing.assert_allclose(grads[0].numpy(), dw, rtol=1e-4, atol=1e-5)
