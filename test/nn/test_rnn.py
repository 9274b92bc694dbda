# test/nn/test_rnn.py - RNN, LSTM, GRU and their cells: PyTorch's parameter names, values and errors.
# Mirrors the RNN parts of PyTorch's test/test_nn.py. Guide: docs/source/internals/python_layer.rst.
#
# Setup of every reference number (float64): the k-th parameter in named_parameters() order
# is filled with 0.5 * sin(arange(numel) * 0.37 + k); the sequence is cos(0.3 * arange(18))
# shaped (T=3, N=2, 3). Values from PyTorch 2.13 on the same setup.
import numpy as np
import pytest
import torch
import torch.nn as nn
from torch.autograd import gradcheck

D = torch.float64


def fill(m):
    with torch.no_grad():
        for k, (_, p) in enumerate(m.named_parameters()):
            p.copy_((torch.arange(p.numel(), dtype=D).reshape(p.shape) * 0.37 + k).sin() * 0.5)
    return m


def seq():
    return (torch.arange(18, dtype=D).reshape(3, 2, 3) * 0.3).cos()


def flat(t):
    return t.detach().flatten().tolist()


def test_parameter_names_shapes_and_repr_are_pytorchs():
    m = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    names = [n for n, _ in m.named_parameters()]
    assert names[:4] == ["weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"]
    assert names[4:8] == ["weight_ih_l0_reverse", "weight_hh_l0_reverse", "bias_ih_l0_reverse", "bias_hh_l0_reverse"]
    assert m.weight_ih_l0.shape == (16, 3) and m.weight_ih_l1.shape == (16, 8) and m.weight_hh_l1.shape == (16, 4)
    assert nn.GRU(3, 4).weight_hh_l0.shape == (12, 4)
    assert [n for n, _ in nn.LSTM(3, 4, bias=False).named_parameters()] == ["weight_ih_l0", "weight_hh_l0"]
    assert repr(nn.RNN(3, 4, nonlinearity="relu", num_layers=2)) == "RNN(3, 4, num_layers=2)"
    assert repr(nn.LSTM(3, 4, batch_first=True, bidirectional=True)) == "LSTM(3, 4, batch_first=True, bidirectional=True)"
    assert repr(nn.RNNCell(3, 4, nonlinearity="relu", bias=False)) == "RNNCell(3, 4, bias=False, nonlinearity=relu)"
    assert repr(nn.GRUCell(3, 4)) == "GRUCell(3, 4)"


def test_rnn_values_match_pytorch():
    out, h = fill(nn.RNN(3, 4, dtype=D))(seq())
    assert flat(h) == pytest.approx([-0.0459160065, -0.3785979735, -0.3248705872, -0.2229083579,
                                     0.0863769784, 0.4240241803, 0.4497637573, -0.4845596399])
    assert flat(out[-1]) == flat(h)
    out, h = fill(nn.RNN(3, 4, num_layers=2, bidirectional=True, dtype=D))(seq())
    assert out.shape == (3, 2, 8) and h.shape == (4, 2, 4)
    assert flat(h)[8:12] == pytest.approx([-0.9271529166, 0.041618893, 0.9437057624, 0.9413420437])


def test_lstm_values_match_pytorch():
    out, (h, c) = fill(nn.LSTM(3, 4, dtype=D))(seq())
    assert flat(h) == pytest.approx([-0.251247172, -0.005057309, 0.1540701689, 0.1903666764,
                                     -0.3358072404, -0.1982743614, -0.0358145158, 0.1355703957])
    assert flat(c)[:4] == pytest.approx([-0.6245207865, -0.0105725054, 0.2242517317, 0.2260386636])
    _, (h2, c2) = fill(nn.LSTM(3, 4, num_layers=2, bidirectional=True, dtype=D))(seq())
    assert flat(c2)[8:12] == pytest.approx([-0.2025904327, -0.2828312162, -0.5393454661, -0.944149709])
    # Unbatched (T, input_size) input gives unbatched states.
    out, (h1, c1) = fill(nn.LSTM(3, 4, dtype=D))(seq()[:, 0])
    assert out.shape == (3, 4) and flat(h1) == pytest.approx(flat(h)[:4])


def test_gru_values_match_pytorch():
    _, h = fill(nn.GRU(3, 4, num_layers=2, dtype=D))(seq())
    assert flat(h)[:4] == pytest.approx([-0.5590887297, 0.1403690241, 0.5312855007, 0.2559045507])
    m = fill(nn.GRU(3, 4, batch_first=True, dtype=D))
    h0 = torch.tensor([[[0.1, 0.2, 0.3, 0.4], [0.0, -0.1, 0.2, 0.1], [0.5, 0.5, 0.5, 0.5]]], dtype=D)
    out, h = m(seq(), h0)  # batch_first: seq() is read as (N=3, T=2, 3)
    assert out.shape == (3, 2, 4)
    assert flat(h)[:4] == pytest.approx([-0.4058270492, -0.7189674224, -0.4482711813, 0.1407225277])


def test_cells_match_pytorch():
    x = seq()[0]
    h, c = fill(nn.LSTMCell(3, 4, dtype=D))(x)
    assert flat(h)[:4] == pytest.approx([-0.2191261155, -0.5397061481, -0.3304665676, 0.0233292689])
    assert flat(fill(nn.GRUCell(3, 4, dtype=D))(x))[:4] == pytest.approx([-0.2860783546, -0.7053943582, -0.4353551104, -0.0111877339])
    assert flat(fill(nn.RNNCell(3, 4, dtype=D))(x))[:4] == pytest.approx([0.751415263, 0.9147150323, 0.562789947, -0.7907166705])


def test_lstm_step_matches_numpy():
    m = nn.LSTM(2, 3, dtype=D)
    x = torch.randn(1, 1, 2, dtype=D)
    _, (h, c) = m(x)
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    g = m.weight_ih_l0.detach().numpy() @ x.numpy()[0, 0] + m.bias_ih_l0.detach().numpy() + m.bias_hh_l0.detach().numpy()
    i, f, gg, o = np.split(g, 4)
    c_ref = sig(i) * np.tanh(gg)
    np.testing.assert_allclose(flat(c), c_ref)
    np.testing.assert_allclose(flat(h), sig(o) * np.tanh(c_ref))


def test_gradcheck_through_time():
    for m in (nn.RNN(2, 3, num_layers=2, dtype=D), nn.LSTM(2, 3, bidirectional=True, dtype=D), nn.GRU(2, 3, dtype=D)):
        x = torch.randn(3, 2, 2, dtype=D, requires_grad=True)
        assert gradcheck(lambda inp: m(inp)[0], (x,))
    m = nn.LSTM(2, 3, dtype=D)
    m(torch.randn(4, 1, 2, dtype=D))[0].sum().backward()
    assert all(p.grad is not None for p in m.parameters())


def test_errors_match_pytorch():
    with pytest.raises(ValueError, match="^Unknown nonlinearity 'foo'. Select from 'tanh' or 'relu'.$"):
        nn.RNN(3, 4, nonlinearity="foo")
    with pytest.raises(ValueError, match="^hidden_size must be greater than zero$"):
        nn.RNN(3, 0)
    with pytest.raises(ValueError, match="^num_layers must be greater than zero$"):
        nn.RNN(3, 4, num_layers=0)
    with pytest.raises(ValueError, match=r"^dropout should be a number in range \[0, 1\] representing the probability "
                       "of an element being zeroed$"):
        nn.RNN(3, 4, dropout=2)
    with pytest.raises(ValueError, match="^RNN: Expected input to be 2D or 3D, got 1D tensor instead$"):
        nn.RNN(3, 4)(torch.ones(2))
    with pytest.raises(ValueError, match="^LSTM: Expected input to be 2D or 3D, got 1D instead$"):
        nn.LSTM(3, 4)(torch.ones(2))
    with pytest.raises(RuntimeError, match=r"^input.size\(-1\) must be equal to input_size. Expected 3, got 2$"):
        nn.RNN(3, 4)(torch.ones(2, 2, 2))
    with pytest.raises(RuntimeError, match=r"^Expected hidden size \(1, 2, 4\), got \[1, 3, 4\]$"):
        nn.RNN(3, 4)(torch.ones(2, 2, 3), torch.ones(1, 3, 4))
    with pytest.raises(RuntimeError, match=r"^Expected hidden\[1\] size \(1, 2, 4\), got \[2, 2, 4\]$"):
        nn.LSTM(3, 4)(torch.ones(2, 2, 3), (torch.ones(1, 2, 4), torch.ones(2, 2, 4)))
    with pytest.raises(RuntimeError, match="^For unbatched 2-D input, hx should also be 2-D but got 3-D tensor$"):
        nn.GRU(3, 4)(torch.ones(2, 3), torch.ones(1, 2, 4))
    with pytest.raises(ValueError, match=r"^RNN input dtype \(torch.float64\) does not match weight dtype \(torch.float32\)"):
        nn.LSTM(3, 4)(torch.ones(2, 1, 3, dtype=D))


def test_dropout_between_layers_only_in_training():
    torch.manual_seed(0)
    m = nn.GRU(2, 3, num_layers=2, dropout=0.5)
    x = torch.randn(4, 1, 2)
    m.eval()
    a, b = m(x)[0], m(x)[0]
    assert flat(a) == flat(b)
    m.train()
    assert flat(m(x)[0]) != flat(a)


# ---- the LSTM layer as one autograd node (torch/nn/modules/rnn.py _LSTMLayer) ----

def test_lstm_layer_gradcheck_every_input_both_directions_and_no_bias():
    from torch.nn.modules.rnn import _LSTMLayer
    torch.manual_seed(0)
    for reverse in (False, True):
        gi = torch.randn(4, 2, 12, dtype=D, requires_grad=True)
        h0 = torch.randn(2, 3, dtype=D, requires_grad=True)
        c0 = torch.randn(2, 3, dtype=D, requires_grad=True)
        w_hh = torch.randn(12, 3, dtype=D, requires_grad=True)
        assert gradcheck(lambda *a: _LSTMLayer.apply(*a, reverse), (gi, h0, c0, w_hh))
    m = nn.LSTM(2, 3, num_layers=2, bias=False, dtype=D)
    x = torch.randn(4, 2, 2, dtype=D, requires_grad=True)
    h0 = torch.randn(2, 2, 3, dtype=D, requires_grad=True)
    c0 = torch.randn(2, 2, 3, dtype=D, requires_grad=True)
    assert gradcheck(lambda x, h0, c0: m(x, (h0, c0)), (x, h0, c0))


def test_lstm_biases_get_the_same_gradient_as_in_pytorch():
    m = fill(nn.LSTM(3, 4, dtype=D))
    out, (h, c) = m(seq())
    (out.sum() + c.sum()).backward()
    assert torch.equal(m.bias_ih_l0.grad, m.bias_hh_l0.grad)


def test_lstm_second_derivative():
    from torch.autograd import gradgradcheck
    torch.manual_seed(1)
    m = nn.LSTM(2, 3, bidirectional=True, dtype=D)
    x = torch.randn(3, 2, 2, dtype=D, requires_grad=True)
    assert gradgradcheck(lambda inp: m(inp)[0], (x,))
    # A gradient penalty: the gradient with respect to the input, differentiated again.
    (g,) = torch.autograd.grad(m(x)[0].pow(2).sum(), x, create_graph=True)
    g.pow(2).sum().backward()
    assert all(p.grad is not None and torch.isfinite(p.grad).all() for p in m.parameters())
