"""Tests for gather/scatter along the innermost dimension, the loop of
aten/src/ATen/native/cpu/ScatterGatherKernel.cpp that indexes typed pointers when out, src and
index are contiguous along that dimension, against numpy's take_along_axis / put_along_axis
and np.add.at, with the strided loop (transposed operands) giving the same values.

Guide: docs/source/internals/performance.rst
"""
import numpy as np
import pytest
import torch


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
