# test/nn/test_layers.py - the layers without new kernels: Linear, Bilinear, Identity, activations,
# Flatten/Unflatten, Dropout, and F.one_hot / F.pad.
# Mirrors parts of PyTorch's test/test_nn.py. Guide: docs/source/internals/python_layer.rst.
#
# Values against numpy or against PyTorch 2.13 on the fixed inputs named in each test;
# gradients with gradcheck in float64.

import warnings

import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import gradcheck

D = torch.float64


def t64(values):
    return torch.tensor(values, dtype=D)


def rand64(*shape):
    return torch.rand(*shape, dtype=D).requires_grad_()


V = [-2.0, -0.5, 0.0, 0.3, 1.7]


def test_linear_matches_numpy_for_2d_and_batched_inputs():
    m = nn.Linear(4, 3)
    x = torch.randn(5, 4)
    w, b = m.weight.detach().numpy(), m.bias.detach().numpy()
    np.testing.assert_allclose(m(x).detach().numpy(), x.numpy() @ w.T + b, rtol=1e-5, atol=1e-6)
    x3 = torch.randn(2, 5, 4)
    np.testing.assert_allclose(m(x3).detach().numpy(), x3.numpy() @ w.T + b, rtol=1e-5, atol=1e-6)
    assert nn.Linear(4, 3, bias=False).bias is None
    assert type(m(x).grad_fn).__name__ == "AddmmBackward0"  # F.linear is one addmm for 2-D input


def test_linear_shape_error_is_the_matmul_error():
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(3x4 and 5x2\)"):
        F.linear(torch.randn(3, 4), torch.randn(2, 5))


def test_linear_and_bilinear_gradcheck():
    assert gradcheck(F.linear, (rand64(3, 4), rand64(2, 4), rand64(2)))
    assert gradcheck(F.linear, (rand64(2, 3, 4), rand64(2, 4), rand64(2)))
    assert gradcheck(F.bilinear, (rand64(2, 3), rand64(2, 4), rand64(5, 3, 4), rand64(5)))


def test_bilinear_values_and_errors():
    # Setup: A = sin(arange(24)).reshape(2, 3, 4), b = [1, -1]; values from PyTorch 2.13.
    out = F.bilinear(t64([[1., 2, 3], [0, -1, 1]]), t64([[0.5, 1, -1, 2], [1, 1, 1, 1]]),
                     torch.arange(24, dtype=D).reshape(2, 3, 4).sin(), t64([1., -1]))
    assert out.flatten().tolist() == pytest.approx([0.0790548398, -1.8187497713, 2.1956210839, 1.7449400215])
    with pytest.raises(RuntimeError, match="^bilinear\\(\\): input2 size does not match weight size: got 4 but expected 3$"):
        F.bilinear(torch.rand(2, 3), torch.rand(2, 4), torch.rand(5, 3, 3))
    assert repr(nn.Bilinear(2, 3, 4)) == "Bilinear(in1_features=2, in2_features=3, out_features=4, bias=True)"
    assert nn.Bilinear(2, 3, 4)(torch.rand(5, 2), torch.rand(5, 3)).shape == (5, 4)


def test_identity_takes_any_arguments():
    x = torch.ones(2)
    assert nn.Identity(3, foo=1)(x) is x


def test_activations_match_pytorch_values():
    v = t64(V)
    # Values from PyTorch 2.13 on V.
    assert F.gelu(v).tolist() == pytest.approx([-0.0455002639, -0.1542687694, 0.0, 0.1853734267, 1.6242387133])
    assert F.gelu(v, approximate="tanh").tolist() == pytest.approx(
        [-0.0454023059, -0.1542859902, 0.0, 0.1853709235, 1.6241058956])
    assert F.silu(v).tolist() == pytest.approx([-0.238405844, -0.1887703344, 0.0, 0.172332755, 1.4374090494])
    x = np.array(V)
    assert nn.ReLU()(v).tolist() == list(np.maximum(x, 0))
    assert nn.LeakyReLU(0.1)(v).tolist() == pytest.approx(list(np.where(x > 0, x, 0.1 * x)))
    assert nn.Sigmoid()(v).tolist() == pytest.approx(list(1 / (1 + np.exp(-x))))
    assert nn.Tanh()(v).tolist() == pytest.approx(list(np.tanh(x)))
    with pytest.raises(RuntimeError, match="^approximate argument must be either none or tanh.$"):
        F.gelu(v, approximate="foo")


def test_softmax_and_log_softmax_match_numpy():
    x = torch.randn(3, 4, dtype=D)
    e = np.exp(x.numpy() - x.numpy().max(1, keepdims=True))
    np.testing.assert_allclose(nn.Softmax(dim=1)(x).numpy(), e / e.sum(1, keepdims=True))
    np.testing.assert_allclose(nn.LogSoftmax(dim=1)(x).numpy(), np.log(e / e.sum(1, keepdims=True)))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        implicit = F.softmax(x)  # 2-D: dim 1, with PyTorch's warning
    assert "Implicit dimension choice for softmax has been deprecated" in str(w[0].message)
    np.testing.assert_allclose(implicit.numpy(), F.softmax(x, 1).numpy())


def test_activation_gradcheck():
    x = (torch.rand(6, dtype=D) * 4 - 2).requires_grad_()
    for fn in (F.gelu, F.silu, F.sigmoid, F.tanh, lambda t: F.leaky_relu(t, 0.2),
               lambda t: F.softmax(t.view(2, 3), 1), lambda t: F.log_softmax(t.view(2, 3), 0),
               lambda t: F.gelu(t, approximate="tanh")):
        assert gradcheck(fn, (x,))


def test_inplace_activations_modify_their_input():
    x = t64([-1.0, 2.0])
    assert nn.ReLU(inplace=True)(x) is x and x.tolist() == [0.0, 2.0]


def test_activation_reprs():
    assert [repr(m) for m in (nn.ReLU(), nn.ReLU(True), nn.LeakyReLU(0.2, True), nn.GELU("tanh"), nn.SiLU(),
                              nn.Softmax(1), nn.LogSoftmax(0), nn.Sigmoid())] == [
        "ReLU()", "ReLU(inplace=True)", "LeakyReLU(negative_slope=0.2, inplace=True)", "GELU(approximate='tanh')",
        "SiLU()", "Softmax(dim=1)", "LogSoftmax(dim=0)", "Sigmoid()"]


def test_flatten_and_unflatten():
    x = torch.arange(24.0).reshape(2, 3, 4)
    assert nn.Flatten()(x).shape == (2, 12)
    assert nn.Flatten(0, 1)(x).shape == (6, 4)
    assert nn.Unflatten(1, (3, 1))(x).shape == (2, 3, 1, 4)
    assert repr(nn.Flatten()) == "Flatten(start_dim=1, end_dim=-1)"
    assert repr(nn.Unflatten(1, (2, 3))) == "Unflatten(dim=1, unflattened_size=(2, 3))"
    with pytest.raises(TypeError, match="^unflattened_size must be a tuple of ints, but found type int$"):
        nn.Unflatten(1, 3)
    with pytest.raises(TypeError, match="^unflattened_size must be tuple of ints, but found element of type str at pos 1$"):
        nn.Unflatten(1, (2, "a"))


def test_dropout_zeroes_and_rescales_in_training_only():
    torch.manual_seed(0)
    d = nn.Dropout(0.25)
    x = torch.ones(10000)
    y = d(x)
    kept = y != 0
    assert set(y.unique().tolist()) == {0.0, np.float32(4.0 / 3.0).item()}
    assert abs(kept.to(torch.float32).mean().item() - 0.75) < 0.02
    d.eval()
    assert d(x) is x
    assert F.dropout(x, 1.0).sum().item() == 0.0
    assert repr(nn.Dropout()) == "Dropout(p=0.5, inplace=False)"
    with pytest.raises(ValueError, match="^dropout probability has to be between 0 and 1, but got 1.5$"):
        nn.Dropout(1.5)
    with pytest.raises(ValueError, match="^dropout probability has to be between 0 and 1, but got -0.1$"):
        F.dropout(x, -0.1)


def test_dropout_gradient_follows_the_mask():
    torch.manual_seed(1)
    x = torch.ones(100, requires_grad=True)
    y = F.dropout(x, 0.5)
    y.sum().backward()
    assert x.grad.tolist() == y.detach().tolist()


def test_one_hot():
    assert F.one_hot(torch.tensor([0, 2, 1]), 4).tolist() == [[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0]]
    assert F.one_hot(torch.tensor([[1], [2]])).shape == (2, 1, 3) and F.one_hot(torch.tensor([1])).dtype == torch.int64
    with pytest.raises(RuntimeError, match="^one_hot is only applicable to index tensor of type LongTensor.$"):
        F.one_hot(torch.tensor([1.0]))
    with pytest.raises(RuntimeError, match="^Class values must be non-negative.$"):
        F.one_hot(torch.tensor([-1]))
    with pytest.raises(RuntimeError, match="^Class values must be smaller than num_classes.$"):
        F.one_hot(torch.tensor([3]), 3)


def test_pad_modes_match_numpy():
    y = torch.arange(6, dtype=D).reshape(2, 3)
    a = y.numpy()
    np.testing.assert_array_equal(F.pad(y, (1, 2, 0, 1), value=-1.0).numpy(),
                                  np.pad(a, ((0, 1), (1, 2)), constant_values=-1.0))
    np.testing.assert_array_equal(F.pad(y, (-1, 1)).numpy(), np.pad(a[:, 1:], ((0, 0), (0, 1))))
    np.testing.assert_array_equal(F.pad(y[None], (2, 2), mode="reflect")[0].numpy(), np.pad(a, ((0, 0), (2, 2)), "reflect"))
    np.testing.assert_array_equal(F.pad(y[None], (2, 1), mode="replicate")[0].numpy(), np.pad(a, ((0, 0), (2, 1)), "edge"))
    np.testing.assert_array_equal(F.pad(y[None], (1, 2), mode="circular")[0].numpy(), np.pad(a, ((0, 0), (1, 2)), "wrap"))
    assert gradcheck(lambda t: F.pad(t, (1, 2, 1, 0), value=3.0), (rand64(2, 3),))
    assert gradcheck(lambda t: F.pad(t, (2, 1), mode="reflect"), (rand64(1, 2, 4),))


def test_pad_errors_match_pytorch():
    x = torch.ones(3, 4)
    with pytest.raises(RuntimeError, match="^Padding length must be divisible by 2$"):
        F.pad(x, (1,))
    with pytest.raises(RuntimeError, match="^Padding length should be less than or equal to two times the input "
                       "dimension but got padding length 6 and input of dimension 2$"):
        F.pad(x, (1, 1, 1, 1, 1, 1))
    with pytest.raises(NotImplementedError, match="^Unrecognised padding mode foo$"):
        F.pad(x, (1, 1), mode="foo")
