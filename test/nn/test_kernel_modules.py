"""test/nn/test_kernel_modules.py - Conv1d/Conv2d, MaxPool2d/AvgPool2d/AdaptiveAvgPool2d,
BatchNorm1d/2d, LayerNorm, Embedding (torch/nn/modules/{conv,pooling,batchnorm,normalization,sparse}.py).

Guide: docs/source/internals/python_layer.rst.
"""

import math

import numpy as np

import torch
import torch.nn.functional as F
from torch.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d
from torch.nn.modules.conv import Conv1d, Conv2d
from torch.nn.modules.normalization import LayerNorm
from torch.nn.modules.pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from torch.nn.modules.sparse import Embedding


def assert_close(a, b):
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5, atol=1e-6)


def test_conv2d_parameters_and_init_bounds():
    m = Conv2d(4, 6, 3, stride=2, padding=1, groups=2)
    assert m.weight.shape == (6, 2, 3, 3) and m.bias.shape == (6,)
    bound = 1 / math.sqrt(2 * 3 * 3)  # kaiming_uniform_(a=sqrt(5)) gives the same bound as the bias
    assert m.weight.abs().max().item() <= bound and m.bias.abs().max().item() <= bound
    x = torch.randn(2, 4, 5, 5)
    assert_close(m(x), F.conv2d(x, m.weight, m.bias, 2, 1, 1, 2))
    assert repr(m) == "Conv2d(4, 6, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), groups=2)"


def test_conv1d_forward():
    m = Conv1d(3, 2, 3, padding="same", bias=False)
    assert m.bias is None and m(torch.randn(1, 3, 7)).shape == (1, 2, 7)


def test_pooling_modules():
    x = torch.randn(1, 2, 6, 6)
    assert_close(MaxPool2d(2)(x), F.max_pool2d(x, 2))
    assert_close(AvgPool2d(3, 1, 1)(x), F.avg_pool2d(x, 3, 1, 1))
    assert AdaptiveAvgPool2d((1, 1))(x).shape == (1, 2, 1, 1)


def test_batchnorm_running_stats_momentum_and_eval():
    m = BatchNorm2d(3, momentum=0.5)
    assert [n for n, _ in m.named_buffers()] == ["running_mean", "running_var", "num_batches_tracked"]
    x = torch.randn(4, 3, 2, 2) * 2 + 1
    m(x)
    assert_close(m.running_mean, 0.5 * x.mean((0, 2, 3)))
    assert_close(m.running_var, 0.5 + 0.5 * x.var((0, 2, 3)))
    assert m.num_batches_tracked.item() == 1
    m.eval()
    y = m(x)
    assert_close(y, (x - m.running_mean.view(1, 3, 1, 1)) / (m.running_var.view(1, 3, 1, 1) + 1e-5).sqrt())
    b = BatchNorm1d(3, affine=False, track_running_stats=False)
    assert b.weight is None and b.running_mean is None
    assert b(torch.randn(5, 3)).shape == (5, 3)


def test_layernorm_and_embedding_modules():
    ln = LayerNorm(4)
    assert ln.weight.tolist() == [1.0] * 4 and ln.bias.tolist() == [0.0] * 4
    e = Embedding(5, 3, padding_idx=-1)
    assert e.padding_idx == 4 and e.weight[4].tolist() == [0.0, 0.0, 0.0]
    e(torch.tensor([4, 1])).sum().backward()
    assert e.weight.grad[4].tolist() == [0.0, 0.0, 0.0] and e.weight.grad[1].tolist() == [1.0, 1.0, 1.0]
