"""Tests of the tiled transpose copy (aten/src/ATen/native/Copy.cpp, copy_same_type_transpose_).

x.t().contiguous() and x.transpose(-2, -1).contiguous() of matrices big enough for tiles take the
tiled path; every dtype width, batch strides, ragged tile edges and the cases that must stay on
TensorIterator are checked against numpy. Guide: docs/source/internals/performance.rst.
"""
import numpy as np
import pytest

import torch
from torch.testing._internal.common_utils import num_threads


def _np(t):
    return t.numpy() if t.dtype != torch.bfloat16 else t.float().numpy()


@pytest.mark.parametrize("dtype", [torch.uint8, torch.int16, torch.float16, torch.bfloat16, torch.float32,
                                   torch.int32, torch.float64, torch.int64, torch.complex64, torch.complex128,
                                   torch.bool])
def test_transpose_contiguous_every_width(dtype):
    # 1..16-byte elements; 67 x 131 leaves partial tiles on both edges.
    base = torch.arange(67 * 131).reshape(131, 67)
    x = (base % 2 == 0) if dtype == torch.bool else (base % 97).to(dtype)
    y = x.t().contiguous()
    assert y.is_contiguous() and y.shape == (67, 131)
    np.testing.assert_array_equal(_np(y), _np(x).T)




@pytest.mark.parametrize("threads", [1, 2])
def test_large_matrix_matches_numpy(threads):
    with num_threads(threads):
        a = np.random.default_rng(0).standard_normal((1000, 777)).astype(np.float32)
        y = torch.from_numpy(a).t().contiguous()
        np.testing.assert_array_equal(y.numpy(), a.T)


def test_batched_last_two_dims_and_batch_strides():
    a = np.random.default_rng(1).standard_normal((3, 5, 70, 90))
    x = torch.from_numpy(a)
    np.testing.assert_array_equal(x.transpose(-2, -1).contiguous().numpy(), np.swapaxes(a, -2, -1))
    # Batch dims with their own (non-contiguous) strides: every other matrix, batch dims swapped.
    v = x[:, ::2].transpose(0, 1).transpose(-2, -1)
    np.testing.assert_array_equal(v.contiguous().numpy(), np.ascontiguousarray(np.swapaxes(a[:, ::2].swapaxes(0, 1), -2, -1)))
    # A transposed view with a column stride larger than its row count (a slice of a wider matrix).
    w = torch.from_numpy(a[0, 0]).t()[:, 10:80]
    np.testing.assert_array_equal(w.contiguous().numpy(), a[0, 0].T[:, 10:80])


def test_copy_into_existing_and_clone():
    a = np.random.default_rng(2).standard_normal((200, 300)).astype(np.float32)
    out = torch.empty(300, 200)
    out.copy_(torch.from_numpy(a).t())
    np.testing.assert_array_equal(out.numpy(), a.T)
    c = torch.from_numpy(a).t().clone(memory_format=torch.contiguous_format)
    np.testing.assert_array_equal(c.numpy(), a.T)


def test_overlapping_source_keeps_iterator_semantics():
    # Copying a matrix into its own transpose overlaps: the tiled path is not taken and the
    # iterator's overlap check answers as PyTorch does.
    x = torch.arange(128 * 128, dtype=torch.float32).reshape(128, 128)
    with pytest.raises(RuntimeError, match="unsupported operation: some elements of the input tensor and the "
                                           "written-to tensor refer to a single memory location"):
        x.copy_(x.t())


def test_dtype_conversion_and_broadcast_take_the_iterator():
    a = np.arange(100 * 80, dtype=np.float64).reshape(100, 80)
    out = torch.empty(80, 100, dtype=torch.float32)
    out.copy_(torch.from_numpy(a).t())
    np.testing.assert_array_equal(out.numpy(), a.T.astype(np.float32))
    row = torch.arange(100.0)
    out2 = torch.empty(80, 100)
    out2.copy_(row)
    np.testing.assert_array_equal(out2.numpy(), np.broadcast_to(np.arange(100.0, dtype=np.float32), (80, 100)))


def test_autograd_through_transposed_contiguous():
    x = torch.randn(70, 90, requires_grad=True)
    y = x.t().contiguous()
    g = torch.randn(90, 70)
    y.backward(g)
    np.testing.assert_array_equal(x.grad.numpy(), g.numpy().T)


@pytest.mark.parametrize("threads", [1, 2])
def test_destination_bigger_than_the_caches_is_streamed_and_exact(threads):
    # 12 MiB of float32 (whole 64-byte lines, cols a multiple of 16): written with non-temporal
    # stores; int32 shares the 4-byte path.
    with num_threads(threads):
        a = np.random.default_rng(4).standard_normal((1536, 2048)).astype(np.float32)
        np.testing.assert_array_equal(torch.from_numpy(a).t().contiguous().numpy(), a.T)
        b = np.arange(2048 * 1536, dtype=np.int32).reshape(2048, 1536)
        out = torch.empty(1536, 2048, dtype=torch.int32)
        out.copy_(torch.from_numpy(b).t())
        np.testing.assert_array_equal(out.numpy(), b.T)
