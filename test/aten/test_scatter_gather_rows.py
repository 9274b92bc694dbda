"""Tests for gather/scatter along the innermost dimension, the loop of
aten/src/ATen/native/cpu/ScatterGatherKernel.cpp that indexes typed pointers when out, src and
index are contiguous along that dimension, against numpy's take_along_axis / put_along_axis
and np.add.at, with the strided loop (transposed operands) giving the same values.

Guide: docs/source/internals/performance.rst
"""
import numpy as np
import pytest
import torch
from torch.testing._internal.common_utils import num_threads


def _data(dtype):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((37, 29)).astype(dtype)
    idx = rng.integers(0, 29, size=(37, 23))
    src = rng.standard_normal((37, 23)).astype(dtype)
    return x, idx, src


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_gather_last_dim(dtype):
    x, idx, _ = _data(dtype)
    out = torch.from_numpy(x).gather(1, torch.from_numpy(idx))
    np.testing.assert_array_equal(out.numpy(), np.take_along_axis(x, idx, 1))
    # The strided loop: the same gather on transposed copies.
    xt = torch.from_numpy(x.T.copy()).t()
    it = torch.from_numpy(idx.T.copy()).t()
    np.testing.assert_array_equal(xt.gather(1, it).numpy(), np.take_along_axis(x, idx, 1))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_scatter_and_scatter_add_last_dim(dtype):
    x, idx, src = _data(dtype)
    # Unique indices per row for scatter_ (with repeats, which write wins is unspecified).
    rng = np.random.default_rng(1)
    uidx = np.stack([rng.permutation(29)[:23] for _ in range(37)])
    got = torch.from_numpy(x.copy()).scatter_(1, torch.from_numpy(uidx), torch.from_numpy(src))
    want = x.copy()
    np.put_along_axis(want, uidx, src, 1)
    np.testing.assert_array_equal(got.numpy(), want)
    got = torch.from_numpy(x.copy()).scatter_add_(1, torch.from_numpy(idx), torch.from_numpy(src))
    want = x.copy()
    rows = np.repeat(np.arange(37)[:, None], 23, 1)
    np.add.at(want, (rows, idx), src)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6 if dtype == np.float32 else 1e-14)


def test_out_of_bounds_index_on_the_row_loop():
    x = torch.zeros(3, 4)
    idx = torch.tensor([[0, 1], [2, 4], [0, 0]])
    with pytest.raises(RuntimeError, match="index 4 is out of bounds for dimension 1 with size 4"):
        x.gather(1, idx)
    with pytest.raises(RuntimeError, match="index -1 is out of bounds for dimension 1 with size 4"):
        x.scatter_add_(1, torch.tensor([[0, -1], [0, 0], [0, 0]]), torch.ones(3, 2))


def _add_at(x, dim, idx, src):
    """numpy's scatter_add: every index entry adds its src value, repeats accumulating."""
    coords = list(np.indices(idx.shape))
    coords[dim] = idx
    out = x.copy()
    np.add.at(out, tuple(coords), src)
    return out


# Slices of the outermost iterated dimension go to threads when `dim` is not that dimension
# (ScatterGatherKernel.cpp for_each_without_collisions). Indices repeat within every slice, so a
# split that separated two colliding entries would lose additions; float64 sums of small
# integers are exact, so the comparison is exact too.
@pytest.mark.parametrize("shape,dim", [((2048, 64), 1), ((2048, 64), 0), ((64, 40, 48), 1), ((40, 64, 48), 2)])
@pytest.mark.parametrize("threads", [1, 2])
def test_scatter_add_in_parallel_slices_equals_numpy(shape, dim, threads):
    rng = np.random.default_rng(7)
    x = rng.integers(-5, 5, size=shape).astype(np.float64)
    idx_shape = list(shape)
    idx_shape[dim] = shape[dim] // 2
    idx = rng.integers(0, 3, size=idx_shape)  # few targets: many collisions
    src = rng.integers(-9, 9, size=idx_shape).astype(np.float64)
    with num_threads(threads):
        got = torch.from_numpy(x.copy()).scatter_add_(dim, torch.from_numpy(idx), torch.from_numpy(src))
        filled = torch.from_numpy(x.copy()).scatter_(dim, torch.from_numpy(idx), 2.0, reduce="add")
    np.testing.assert_array_equal(got.numpy(), _add_at(x, dim, idx, src))
    np.testing.assert_array_equal(filled.numpy(), _add_at(x, dim, idx, np.full(idx.shape, 2.0)))


def test_out_of_bounds_index_inside_a_parallel_slice():
    x = torch.zeros(4096, 64)
    idx = torch.zeros(4096, 64, dtype=torch.long)
    idx[3000, 5] = 64
    with num_threads(2):
        with pytest.raises(RuntimeError, match="index 64 is out of bounds for dimension 1 with size 64"):
            x.scatter_add_(1, idx, torch.ones(4096, 64))
