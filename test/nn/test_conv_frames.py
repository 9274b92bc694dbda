"""Tests for the CPU convolution run one image at a time (ConvolutionMM2d.cpp's
conv2d_forward_frames / conv2d_backward_frames) and for im2col/col2im with their bounds computed
once per row (aten/src/ATen/native/im2col.h): values and gradients against a direct numpy
convolution, for strides, paddings, dilations and groups that put patches on and off the edges.

Guide: docs/source/internals/performance.rst ("Convolution one image at a time")
"""
import itertools

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck
from torch.testing._internal.common_utils import num_threads


def conv2d_numpy(x, w, b, stride, padding, dilation, groups):
    n, c_in, h, wd = x.shape
    c_out, c_in_g, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (padding[0], padding[0]), (padding[1], padding[1])))
    oh = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (wd + 2 * padding[1] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, c_out, oh, ow))
    c_out_g = c_out // groups
    for co in range(c_out):
        grp = co // c_out_g
        for i, j in itertools.product(range(kh), range(kw)):
            ys = i * dilation[0]
            xs = j * dilation[1]
            patch = xp[:, grp * c_in_g:(grp + 1) * c_in_g,
                       ys:ys + stride[0] * (oh - 1) + 1:stride[0], xs:xs + stride[1] * (ow - 1) + 1:stride[1]]
            out[:, co] += np.einsum("nchw,c->nhw", patch, w[co, :, i, j])
        if b is not None:
            out[:, co] += b[co]
    return out


CASES = [
    # (N, C_in, H, W, C_out, k, stride, padding, dilation, groups)
    (2, 3, 7, 6, 4, (3, 3), (1, 1), (1, 1), (1, 1), 1),
    (1, 4, 9, 8, 6, (3, 2), (2, 3), (2, 0), (1, 1), 2),
    (3, 2, 10, 10, 2, (3, 3), (1, 2), (3, 1), (2, 3), 1),
    (2, 6, 5, 5, 6, (1, 1), (1, 1), (0, 0), (1, 1), 3),
    (1, 2, 4, 4, 3, (5, 5), (1, 1), (2, 2), (1, 1), 1),   # kernel larger than the image
    (2, 1, 6, 9, 2, (2, 4), (3, 2), (4, 5), (1, 1), 1),   # padding wider than a stride
    # Output as wide as the input, strides 1: im2col copies whole shifted planes.
    (2, 3, 6, 7, 2, (3, 3), (1, 1), (2, 2), (2, 2), 1),   # dilated "same"
    (1, 2, 5, 6, 3, (3, 5), (1, 1), (3, 2), (1, 1), 1),   # rows of padding beyond the kernel
    (2, 2, 5, 1, 2, (3, 1), (1, 1), (1, 0), (1, 1), 2),   # one column wide
    # Rows of the columns a multiple of 4 KiB (1024 floats, 512 doubles): stored padded apart.
    (2, 2, 32, 32, 3, (3, 3), (1, 1), (1, 1), (1, 1), 1),
    (1, 4, 16, 32, 4, (3, 3), (1, 1), (1, 1), (1, 1), 2),
]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("with_bias", [True, False])
def test_conv2d_forward_and_backward_match_numpy(case, dtype, with_bias):
    n, c_in, h, w, c_out, k, stride, padding, dilation, groups = case
    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((n, c_in, h, w))
    w_np = rng.standard_normal((c_out, c_in // groups) + k)
    b_np = rng.standard_normal(c_out) if with_bias else None
    x = torch.tensor(x_np, dtype=dtype, requires_grad=True)
    wt = torch.tensor(w_np, dtype=dtype, requires_grad=True)
    b = torch.tensor(b_np, dtype=dtype, requires_grad=True) if with_bias else None
    out = F.conv2d(x, wt, b, stride, padding, dilation, groups)
    expected = conv2d_numpy(x_np, w_np, b_np, stride, padding, dilation, groups)
    tol = 1e-4 if dtype == torch.float32 else 1e-11
    np.testing.assert_allclose(out.detach().double().numpy(), expected, rtol=tol, atol=tol)

    g_np = rng.standard_normal(expected.shape)
    out.backward(torch.tensor(g_np, dtype=dtype))
    fd_tol = 1e-3 if dtype == torch.float32 else 1e-7

    def loss(x_, w_):
        return (conv2d_numpy(x_, w_, b_np, stride, padding, dilation, groups) * g_np).sum()

    for grad, arr, idxs, with_x in [
        (x.grad, x_np, [(0, 0, 0, 0), (n - 1, c_in - 1, h - 1, w - 1), (0, c_in // 2, h // 2, w // 2)], True),
        (wt.grad, w_np, [(0, 0, 0, 0), (c_out - 1, c_in // groups - 1, k[0] - 1, k[1] - 1)], False),
    ]:
        for idx in idxs:
            # Central differences of <conv(x, w), g> in float64, one element at a time.
            plus, minus = arr.copy(), arr.copy()
            plus[idx] += 1e-6
            minus[idx] -= 1e-6
            fd = ((loss(plus, w_np) - loss(minus, w_np)) if with_x else (loss(x_np, plus) - loss(x_np, minus))) / 2e-6
            assert abs(grad[idx].item() - fd) < fd_tol
    if with_bias:
        np.testing.assert_allclose(b.grad.double().numpy(), g_np.sum(axis=(0, 2, 3)), rtol=tol, atol=tol)


def test_conv2d_gradcheck_with_groups_and_dilation():
    torch.manual_seed(0)
    x = torch.randn(2, 4, 6, 5, dtype=torch.float64, requires_grad=True)
    w = torch.randn(4, 2, 3, 2, dtype=torch.float64, requires_grad=True)
    b = torch.randn(4, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda x, w, b: F.conv2d(x, w, b, (2, 1), (1, 2), (1, 2), 2), (x, w, b))


def test_conv1d_and_non_contiguous_input():
    rng = np.random.default_rng(1)
    x_np = rng.standard_normal((2, 3, 11))
    w_np = rng.standard_normal((5, 3, 3))
    out = F.conv1d(torch.tensor(x_np), torch.tensor(w_np), None, 2, 1)
    expected = conv2d_numpy(x_np[:, :, None, :], w_np[:, :, None, :], None, (1, 2), (0, 1), (1, 1), 1)[:, :, 0]
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)
    # A channels-last (non-contiguous) input gives the same values.
    x4 = torch.tensor(rng.standard_normal((2, 3, 6, 6))).permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
    w4 = torch.tensor(rng.standard_normal((4, 3, 3, 3)))
    np.testing.assert_allclose(F.conv2d(x4, w4, padding=1).numpy(),
                               conv2d_numpy(x4.numpy(), w4.numpy(), None, (1, 1), (1, 1), (1, 1), 1),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("stride, padding, dilation", [((1, 1), (1, 1), (1, 1)), ((2, 3), (2, 1), (1, 2)),
                                                       ((3, 1), (0, 4), (2, 1))])
def test_unfold_fold_match_numpy(stride, padding, dilation):
    rng = np.random.default_rng(2)
    x_np = rng.standard_normal((2, 3, 7, 8))
    k = (2, 3)
    cols = F.unfold(torch.tensor(x_np), k, dilation, padding, stride)
    # Column l of channel-offset row (c, i, j) is the input under the kernel at position l.
    xp = np.pad(x_np, ((0, 0), (0, 0), (padding[0], padding[0]), (padding[1], padding[1])))
    oh = (7 + 2 * padding[0] - dilation[0] * (k[0] - 1) - 1) // stride[0] + 1
    ow = (8 + 2 * padding[1] - dilation[1] * (k[1] - 1) - 1) // stride[1] + 1
    expected = np.zeros((2, 3 * k[0] * k[1], oh * ow))
    for c, i, j in itertools.product(range(3), range(k[0]), range(k[1])):
        ys, xs = i * dilation[0], j * dilation[1]
        patch = xp[:, c, ys:ys + stride[0] * (oh - 1) + 1:stride[0], xs:xs + stride[1] * (ow - 1) + 1:stride[1]]
        expected[:, (c * k[0] + i) * k[1] + j] = patch.reshape(2, -1)
    np.testing.assert_allclose(cols.numpy(), expected)
    # fold is unfold's adjoint: <unfold(x), y> == <x, fold(y)>.
    y = torch.tensor(rng.standard_normal(expected.shape))
    folded = F.fold(y, (7, 8), k, dilation, padding, stride)
    np.testing.assert_allclose((cols * y).sum().item(), (torch.tensor(x_np) * folded).sum().item(), rtol=1e-12)


@pytest.mark.parametrize("shape", [(5, 3, 9, 11), (3, 2, 32, 32)])  # the second: padded columns rows
def test_images_shared_between_threads_give_the_one_thread_result(shape):
    # With more than one thread, float images go to threads whole (each its own columns buffer).
    rng = np.random.default_rng(5)
    x = torch.from_numpy(rng.standard_normal(shape).astype(np.float32))
    w = torch.from_numpy(rng.standard_normal((4, shape[1], 3, 3)).astype(np.float32))
    b = torch.from_numpy(rng.standard_normal(4).astype(np.float32))
    results = []
    for threads in (1, 2):
        with num_threads(threads):
            results.append(F.conv2d(x, w, b, padding=1))
    np.testing.assert_allclose(results[1].numpy(), results[0].numpy(), rtol=1e-6, atol=1e-6)
    expected = conv2d_numpy(x.double().numpy(), w.double().numpy(), b.double().numpy(), (1, 1), (1, 1), (1, 1), 1)
    np.testing.assert_allclose(results[1].numpy(), expected, rtol=1e-4, atol=1e-4)
