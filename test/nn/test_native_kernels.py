"""test/nn/test_native_kernels.py - the native kernels torch.nn needs: convolution, pooling,
batch norm, layer norm, embedding (aten/src/ATen/native/{Convolution,ConvolutionMM2d,Im2Col,
Pooling,Normalization,layer_norm,Embedding}.cpp).

Values against naive numpy loops and against numbers PyTorch 2.x gives for the same fixed
inputs (hard-coded below); gradients with gradcheck in float64; error messages as PyTorch's.
Guide: docs/source/internals/python_layer.rst.
"""
import numpy as np
import pytest

import torch
import torch.nn.functional as F
from torch.autograd import gradcheck


def assert_close(a, b):
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-5, atol=1e-6)


f64 = torch.float64


def fixed_x():
    return (torch.arange(2 * 2 * 5 * 5, dtype=f64).reshape(2, 2, 5, 5) % 7) / 7 - 0.4


def leaf(*shape):
    return torch.randn(*shape, dtype=f64).requires_grad_()


# ---- convolution ----

def naive_conv2d(x, w, b, stride, padding, dilation, groups):
    x, w = x.numpy(), w.numpy()
    n, c, h, wd = x.shape
    co, cig, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    oh = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, co, oh, ow))
    cog = co // groups
    for o in range(co):
        g = o // cog
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, g * cig:(g + 1) * cig,
                           i * stride[0]:i * stride[0] + dilation[0] * (kh - 1) + 1:dilation[0],
                           j * stride[1]:j * stride[1] + dilation[1] * (kw - 1) + 1:dilation[1]]
                out[:, o, i, j] = (patch * w[o]).sum(axis=(1, 2, 3)) + (b.numpy()[o] if b is not None else 0)
    return out


@pytest.mark.parametrize("stride,padding,dilation,groups", [
    ((1, 1), (0, 0), (1, 1), 1), ((2, 1), (1, 2), (1, 1), 1), ((1, 1), (1, 1), (2, 1), 2), ((2, 2), (0, 1), (1, 2), 4)])
def test_conv2d_matches_naive_loops(stride, padding, dilation, groups):
    x, w, b = torch.randn(2, 4, 7, 6, dtype=f64), torch.randn(8, 4 // groups, 3, 2, dtype=f64), torch.randn(8, dtype=f64)
    y = F.conv2d(x, w, b, stride, padding, dilation, groups)
    np.testing.assert_allclose(y.numpy(), naive_conv2d(x, w, b, stride, padding, dilation, groups), rtol=1e-10, atol=1e-12)


def test_conv2d_matches_pytorch_numbers():
    x = fixed_x()
    w = (torch.arange(4 * 1 * 3 * 3, dtype=f64).reshape(4, 1, 3, 3) % 5) / 5 - 0.3
    b = torch.tensor([0.1, -0.2, 0.3, 0.0], dtype=f64)
    y = F.conv2d(x, w, b, stride=2, padding=1, groups=2)
    assert y.shape == (2, 4, 3, 3)
    assert y.sum().item() == pytest.approx(4.239999999999998, abs=1e-12)
    expected = [-0.022857142857142854, -0.051428571428571435, 0.02571428571428569, 0.4571428571428571,
                0.17428571428571427, -0.17714285714285713, -0.04857142857142858, -0.3542857142857143,
                0.14285714285714282]
    np.testing.assert_allclose(y[1, 3].flatten().numpy(), expected, atol=1e-12)


def test_conv2d_grad_node_is_convolution_backward():
    y = F.conv2d(leaf(1, 2, 4, 4), leaf(3, 2, 2, 2))
    assert type(y.grad_fn).__name__ == "ConvolutionBackward0"


@pytest.mark.parametrize("kw", [dict(), dict(stride=2, padding=1), dict(dilation=2, padding=1), dict(groups=2)])
def test_conv2d_gradcheck(kw):
    g = kw.get("groups", 1)
    assert gradcheck(lambda x, w, b: F.conv2d(x, w, b, **kw), (leaf(2, 4, 5, 5), leaf(4, 4 // g, 3, 3), leaf(4)))


def test_conv2d_gradcheck_without_bias_and_unbatched():
    assert gradcheck(lambda x, w: F.conv2d(x, w, None, 1, 1), (leaf(2, 4, 4), leaf(3, 2, 2, 2)))


def test_conv1d_matches_conv2d_over_height_one_and_gradcheck():
    x, w, b = torch.randn(2, 3, 9, dtype=f64), torch.randn(4, 3, 3, dtype=f64), torch.randn(4, dtype=f64)
    y = F.conv1d(x, w, b, stride=2, padding=1, dilation=2)
    ref = F.conv2d(x.unsqueeze(2), w.unsqueeze(2), b, (1, 2), (0, 1), (1, 2)).squeeze(2)
    assert_close(y, ref)
    assert gradcheck(lambda x, w, b: F.conv1d(x, w, b, 2, 1, 2), (leaf(2, 3, 9), leaf(4, 3, 3), leaf(4)))


def test_padding_same_keeps_size_and_valid_is_zero_padding():
    x, w = torch.randn(1, 2, 6, 5, dtype=f64), torch.randn(3, 2, 4, 3, dtype=f64)  # even kernel: asymmetric
    y = F.conv2d(x, w, padding="same")
    assert y.shape == (1, 3, 6, 5)
    xp = torch.from_numpy(np.pad(x.numpy(), ((0, 0), (0, 0), (1, 2), (1, 1))))
    assert_close(y, F.conv2d(xp, w))
    assert_close(F.conv2d(x, w, padding="valid"), F.conv2d(x, w))
    assert F.conv1d(torch.randn(1, 2, 7, dtype=f64), torch.randn(3, 2, 3, dtype=f64), padding="same").shape == (1, 3, 7)
    assert gradcheck(lambda x, w: F.conv2d(x, w, padding="same"), (leaf(1, 2, 4, 4), leaf(2, 2, 2, 3)))


@pytest.mark.parametrize("call,message", [
    (lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(4, 2, 3, 3)),
     "Given groups=1, weight of size [4, 2, 3, 3], expected input[1, 3, 5, 5] to have 2 channels, but got 3 channels instead"),
    (lambda: F.conv2d(torch.randn(1, 4, 5, 5), torch.randn(4, 2, 3, 3), groups=3),
     "Given groups=3, expected weight to be divisible by 3 at dimension 0, but got weight of size [[4, 2, 3, 3]] instead"),
    (lambda: F.conv2d(torch.randn(1, 3, 2, 2), torch.randn(4, 3, 3, 3)),
     "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't be greater than actual input size"),
    (lambda: F.conv2d(torch.randn(3, 5), torch.randn(4, 3, 3, 3)),
     "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [3, 5]"),
    (lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(4, 3, 3, 3), torch.randn(3)),
     "Given weight of size [4, 3, 3, 3], expected bias to be 1-dimensional with 4 elements, but got bias of size [3] instead"),
    (lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(4, 3, 3, 3), stride=2, padding="same"),
     "padding='same' is not supported for strided convolutions"),
    (lambda: F.conv2d(torch.randn(1, 3, 5, 5), torch.randn(4, 3, 3, 3), padding="foo"), "Invalid padding string: 'foo'"),
    (lambda: F.conv1d(torch.randn(1, 3, 5), torch.randn(4, 2, 3)),
     "Given groups=1, weight of size [4, 2, 3], expected input[1, 3, 5] to have 2 channels, but got 3 channels instead"),
])
def test_conv_errors_match_pytorch(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value).splitlines()[0] == message


def test_unfold_fold_are_adjoint():
    x, c = torch.randn(2, 3, 5, 4, dtype=f64), torch.randn(2, 3 * 2 * 2, 15, dtype=f64)
    u = F.unfold(x, (2, 2), padding=1, stride=(2, 1))
    assert u.shape == (2, 12, 15)  # L = 3 * 5 blocks
    f = F.fold(c, (5, 4), (2, 2), padding=1, stride=(2, 1))
    assert (u * c).sum().item() == pytest.approx((x * f).sum().item())


# ---- pooling ----

def test_max_pool2d_matches_pytorch_numbers():
    x = fixed_x()
    assert F.max_pool2d(x, 3, 2, 1, ceil_mode=True).sum().item() == pytest.approx(14.171428571428569, abs=1e-12)
    values, indices = F.max_pool2d(x, 2, return_indices=True)
    assert indices[0, 0].flatten().tolist() == [6, 3, 11, 13]
    assert indices.dtype == torch.int64


def test_max_pool2d_matches_numpy_windows():
    x = torch.randn(2, 3, 6, 7, dtype=f64)
    y = F.max_pool2d(x, (2, 3), stride=(2, 2))
    xn = x.numpy()
    ref = np.array([[[[xn[n, c, 2 * i:2 * i + 2, 2 * j:2 * j + 3].max() for j in range(3)] for i in range(3)]
                     for c in range(3)] for n in range(2)])
    np.testing.assert_array_equal(y.numpy(), ref)


@pytest.mark.parametrize("kw", [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1, ceil_mode=True),
                                dict(kernel_size=2, dilation=2)])
def test_max_pool2d_gradcheck(kw):
    y = F.max_pool2d(leaf(2, 2, 6, 6), **kw)
    assert type(y.grad_fn).__name__ == "MaxPool2DWithIndicesBackward0"
    assert gradcheck(lambda x: F.max_pool2d(x, **kw), (leaf(2, 2, 6, 6),))


def test_avg_pool2d_matches_pytorch_numbers_and_numpy():
    x = fixed_x()
    assert F.avg_pool2d(x, 3, 2, 1, count_include_pad=False).sum().item() == pytest.approx(1.032539682539681, abs=1e-12)
    assert F.avg_pool2d(x, 2, ceil_mode=True).sum().item() == pytest.approx(0.4571428571428557, abs=1e-12)
    xn = x.numpy()
    ref = xn[:, :, :4, :4].reshape(2, 2, 2, 2, 2, 2).mean(axis=(3, 5))
    np.testing.assert_allclose(F.avg_pool2d(x, 2).numpy(), ref)
    assert F.avg_pool2d(x, 2, divisor_override=1).sum().item() == pytest.approx(xn[:, :, :4, :4].sum())


@pytest.mark.parametrize("kw", [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1, count_include_pad=False),
                                dict(kernel_size=3, stride=2, ceil_mode=True, divisor_override=3)])
def test_avg_pool2d_gradcheck(kw):
    assert type(F.avg_pool2d(leaf(1, 2, 5, 5), **kw).grad_fn).__name__ == "AvgPool2DBackward0"
    assert gradcheck(lambda x: F.avg_pool2d(x, **kw), (leaf(2, 2, 5, 5),))


def test_adaptive_avg_pool2d_matches_pytorch_numbers_and_gradcheck():
    y = F.adaptive_avg_pool2d(fixed_x(), (3, 2))
    expected = [-0.06666666666666671, -0.11428571428571432, 0.06031746031746028, 0.01269841269841266,
                -0.09047619047619053, 0.028571428571428543]
    np.testing.assert_allclose(y.flatten()[:6].numpy(), expected, atol=1e-12)
    assert F.adaptive_avg_pool2d(fixed_x(), (1, None)).shape == (2, 2, 1, 5)
    assert type(F.adaptive_avg_pool2d(leaf(1, 4, 4), 2).grad_fn).__name__ == "AdaptiveAvgPool2DBackward0"
    assert gradcheck(lambda x: F.adaptive_avg_pool2d(x, (3, 2)), (leaf(2, 2, 5, 5),))


@pytest.mark.parametrize("call,exc,message", [
    (lambda: F.max_pool2d(torch.randn(1, 1, 4, 4), 2, padding=2), RuntimeError,
     "pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and dilation=1"),
    (lambda: F.max_pool2d(torch.randn(1, 1, 1, 1), 3), RuntimeError,
     "Given input size: (1x1x1). Calculated output size: (1x0x0). Output size is too small"),
    (lambda: F.adaptive_avg_pool2d(torch.randn(2, 3), (2, 2)), ValueError, "Input dimension should be at least 3"),
])
def test_pooling_errors_match_pytorch(call, exc, message):
    with pytest.raises(exc) as info:
        call()
    assert str(info.value).splitlines()[0] == message


# ---- batch norm ----

def test_batch_norm_training_matches_pytorch_numbers_and_updates_running_stats():
    x = fixed_x()
    rm, rv = torch.zeros(2, dtype=f64), torch.ones(2, dtype=f64)
    w, b = torch.tensor([1.5, 0.5], dtype=f64), torch.tensor([0.1, 0.2], dtype=f64)
    out = F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.3)
    assert out.sum().item() == pytest.approx(15.0)
    np.testing.assert_allclose(out[0, 0, 0].numpy(), [-2.104299952815907, -1.3281379975990384, -0.5519760423821698,
                                                      0.22418591283469896, 1.0003478680515676], atol=1e-12)
    np.testing.assert_allclose(rm.numpy(), [0.0017142857142857027, 0.011142857142857133], atol=1e-12)
    np.testing.assert_allclose(rv.numpy(), [0.7233302790503956, 0.727091211995002], atol=1e-12)  # unbiased


def test_batch_norm_eval_uses_running_stats():
    x = torch.randn(4, 3, 2, dtype=f64)
    rm, rv = torch.randn(3, dtype=f64), torch.rand(3, dtype=f64) + 0.5
    out = F.batch_norm(x, rm, rv, training=False, eps=1e-3)
    ref = (x.numpy() - rm.numpy()[None, :, None]) / np.sqrt(rv.numpy()[None, :, None] + 1e-3)
    np.testing.assert_allclose(out.numpy(), ref)


@pytest.mark.parametrize("training", [True, False])
def test_batch_norm_gradcheck(training):
    rm, rv = torch.randn(3, dtype=f64), torch.rand(3, dtype=f64) + 0.5
    def fn(x, w, b):
        return F.batch_norm(x, rm.clone(), rv.clone(), w, b, training=training)

    assert type(fn(leaf(4, 3, 2), leaf(3), leaf(3)).grad_fn).__name__ == "NativeBatchNormBackward0"
    assert gradcheck(fn, (leaf(4, 3, 2), leaf(3), leaf(3)))
    assert gradcheck(lambda x: F.batch_norm(x, None, None, training=True), (leaf(5, 2),))


def test_batch_norm_errors_match_pytorch():
    with pytest.raises(ValueError, match=r"Expected more than 1 value per channel when training, got input size torch.Size\(\[1, 3\]\)"):
        F.batch_norm(torch.randn(1, 3), torch.zeros(3), torch.ones(3), training=True)
    with pytest.raises(RuntimeError, match="running_mean should contain 3 elements not 4"):
        F.batch_norm(torch.randn(2, 3), torch.zeros(4), torch.ones(4), training=True)


# ---- layer norm ----

def test_layer_norm_matches_pytorch_numbers_and_numpy():
    y = F.layer_norm(fixed_x(), (5, 5))
    np.testing.assert_allclose(y[0, 0, 0].numpy(), [-1.4042774158594526, -0.8954812506929842, -0.3866850855265159,
                                                     0.12211107963995238, 0.6309072448064207], atol=1e-12)
    x, w, b = torch.randn(3, 4, 5, dtype=f64), torch.randn(5, dtype=f64), torch.randn(5, dtype=f64)
    xn = x.numpy()
    ref = (xn - xn.mean(-1, keepdims=True)) / np.sqrt(xn.var(-1, keepdims=True) + 1e-5) * w.numpy() + b.numpy()
    np.testing.assert_allclose(F.layer_norm(x, (5,), w, b).numpy(), ref, rtol=1e-10)
    _, mean, rstd = torch.native_layer_norm(x, [5], w, b, 1e-5)
    assert mean.shape == rstd.shape == (3, 4, 1)


def test_layer_norm_gradcheck():
    y = F.layer_norm(leaf(3, 4), (4,), leaf(4), leaf(4))
    assert type(y.grad_fn).__name__ == "NativeLayerNormBackward0"
    assert gradcheck(lambda x, w, b: F.layer_norm(x, (3, 4), w, b), (leaf(2, 3, 4), leaf(3, 4), leaf(3, 4)))
    assert gradcheck(lambda x: F.layer_norm(x, (4,)), (leaf(3, 4),))


def test_layer_norm_error_matches_pytorch():
    with pytest.raises(RuntimeError) as info:
        F.layer_norm(torch.randn(2, 3), (4,))
    assert str(info.value).splitlines()[0] == \
        "Given normalized_shape=[4], expected input with shape [*, 4], but got input of size[2, 3]"


# ---- embedding ----

def test_embedding_lookup_matches_pytorch_numbers():
    e = F.embedding(torch.tensor([[0, 2], [2, 3]]), torch.arange(12., dtype=f64).reshape(4, 3), padding_idx=2)
    assert e.tolist() == [[[0.0, 1.0, 2.0], [6.0, 7.0, 8.0]], [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]]


def test_embedding_backward_scatter_adds_rows_and_skips_padding_idx():
    w = leaf(5, 3)
    idx = torch.tensor([[0, 2, 0], [4, 2, 1]])
    g = torch.randn(2, 3, 3, dtype=f64)
    F.embedding(idx, w, padding_idx=2).backward(g)
    ref = np.zeros((5, 3))
    for i, row in enumerate(idx.flatten().tolist()):
        if row != 2:
            ref[row] += g.reshape(6, 3)[i].numpy()
    np.testing.assert_allclose(w.grad.numpy(), ref)
    assert type(F.embedding(idx, w).grad_fn).__name__ == "EmbeddingBackward0"


def test_embedding_gradcheck_and_scale_grad_by_freq():
    idx = torch.tensor([1, 3, 1, 0])
    assert gradcheck(lambda w: F.embedding(idx, w), (leaf(4, 2),))
    w = leaf(4, 2)
    F.embedding(idx, w, scale_grad_by_freq=True).sum().backward()
    assert w.grad[:, 0].tolist() == [1.0, 1.0, 0.0, 1.0]  # row 1 used twice, each scaled by 1/2


def test_embedding_errors_match_pytorch():
    with pytest.raises(IndexError, match="index out of range in self"):
        F.embedding(torch.tensor([5]), torch.randn(4, 3))
    with pytest.raises(RuntimeError) as info:
        F.embedding(torch.tensor([1.0]), torch.randn(4, 3))
    assert str(info.value).splitlines()[0] == ("Expected tensor for argument #1 'indices' to have one of the following "
                                               "scalar types: Long, Int; but got torch.FloatTensor instead (while "
                                               "checking arguments for embedding)")
