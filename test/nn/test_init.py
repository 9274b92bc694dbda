# test/nn/test_init.py - nn.init and the layers' default initializations.
# Mirrors PyTorch's test/nn/test_init.py. Guide: docs/source/internals/python_layer.rst.
#
# The generator here is PyTorch's (mt19937, same draws), so after torch.manual_seed(k) each
# initializer gives exactly PyTorch 2.13's numbers; those are hard-coded below with their seed.
import math

import numpy as np
import pytest
import torch
import torch.nn as nn
from torch.nn import init


def flat(t):
    return t.detach().flatten().tolist()


def test_linear_default_init_is_pytorchs():
    torch.manual_seed(0)
    m = nn.Linear(3, 4)
    assert flat(m.weight)[:4] == pytest.approx([-0.0043225177, 0.3097158372, -0.4751853347, -0.4248946011], abs=1e-7)
    assert flat(m.bias) == pytest.approx([-0.5515707135, -0.3823687434, -0.2379971147, 0.0213871151], abs=1e-7)
    bound = 1 / math.sqrt(3)
    assert all(abs(v) <= bound for v in flat(m.weight) + flat(m.bias))


def test_lstm_default_init_is_pytorchs():
    torch.manual_seed(1)
    w = nn.LSTM(2, 3).weight_ih_l0
    assert flat(w)[:4] == pytest.approx([0.2974873483, -0.254829824, -0.1119259819, 0.2709902823], abs=1e-7)


def test_scaled_initializers_match_pytorch():
    torch.manual_seed(3)
    t = torch.empty(3, 5)
    init.xavier_uniform_(t, gain=2.0)
    assert flat(t)[:3] == pytest.approx([-1.7172814608, -1.3663477898, -0.7418634295], abs=1e-6)
    torch.manual_seed(3)
    t = torch.empty(3, 5, 2)
    init.kaiming_uniform_(t, mode="fan_out", nonlinearity="relu")
    assert flat(t)[:3] == pytest.approx([-0.9914729595, -0.7888612747, -0.4283150434], abs=1e-6)


def test_bounds_and_spreads():
    torch.manual_seed(0)
    t = torch.empty(200, 100)
    init.xavier_uniform_(t)
    a = math.sqrt(6 / 300)
    assert t.abs().max().item() <= a and t.abs().max().item() > 0.95 * a
    init.kaiming_normal_(t, mode="fan_in", nonlinearity="relu")
    assert np.std(t.numpy()) == pytest.approx(math.sqrt(2 / 100), rel=0.05)
    init.xavier_normal_(t, gain=3.0)
    assert np.std(t.numpy()) == pytest.approx(3 * math.sqrt(2 / 300), rel=0.05)
    init.normal_(t, 2.0, 0.5)
    assert np.mean(t.numpy()) == pytest.approx(2.0, abs=0.02)
    init.uniform_(t, -1, 3)
    assert t.min().item() >= -1 and t.max().item() <= 3


def test_fills_do_not_record_history():
    p = nn.Parameter(torch.empty(2, 3))
    for fn in (init.zeros_, init.ones_, lambda t: init.constant_(t, 0.5), init.xavier_uniform_, init.kaiming_uniform_):
        assert fn(p) is p
        assert p.grad_fn is None and p.is_leaf
    assert flat(init.constant_(p, 0.5)) == [0.5] * 6
    assert flat(init.eye_(torch.empty(2, 3))) == [1, 0, 0, 0, 1, 0]


def test_calculate_gain_and_fans():
    assert [init.calculate_gain(n) for n in ["linear", "sigmoid", "tanh", "relu", "selu", "conv2d"]] == \
        pytest.approx([1, 1, 5 / 3, math.sqrt(2), 0.75, 1])
    assert init.calculate_gain("leaky_relu", 0.2) == pytest.approx(math.sqrt(2 / 1.04))
    assert init._calculate_fan_in_and_fan_out(torch.empty(4, 3, 2, 5)) == (30, 40)
    with pytest.raises(ValueError, match="^Unsupported nonlinearity foo$"):
        init.calculate_gain("foo")
    with pytest.raises(ValueError, match="^negative_slope x not a valid number$"):
        init.calculate_gain("leaky_relu", "x")
    with pytest.raises(ValueError, match="^Fan in and fan out can not be computed for tensor with fewer than 2 dimensions$"):
        init.xavier_uniform_(torch.ones(3))
    with pytest.raises(ValueError, match=r"^Mode foo not supported, please use one of \['fan_in', 'fan_out'\]$"):
        init.kaiming_uniform_(torch.ones(3, 3), mode="foo")
