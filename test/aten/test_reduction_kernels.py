# test/aten/test_reduction_kernels.py - the CPU reduction loops against numpy: sums and means
# (float64 numpy as the reference), max/min/amax/amin/argmax/argmin exactly (NaN propagation,
# the first index of ties, the sign of a zero), over the layouts that pick different loops:
# contiguous rows, columns (an outer reduced dim), strided views, vector tails, thread splits.
# Mirrors PyTorch's test/test_reductions.py. Guide: docs/source/internals/tensor_iterator.rst
# ("Reductions").
import numpy as np
import numpy.testing as npt
import pytest
import torch

# Odd sizes run the vector loops' tails; 1000-row and 100003-element shapes run the cascade
# sum's levels and the column and row loops of max.
SHAPES = [(1, 1), (3, 5), (7, 33), (17, 129), (64, 65), (130, 31), (1000, 37), (37, 1000), (5, 7, 45), (2, 3, 4, 67)]


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def nthreads(request):
    saved = torch.get_num_threads()
    torch.set_num_threads(request.param)
    yield request.param
    torch.set_num_threads(saved)


def rand(shape, dtype=np.float32, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def views(a):
    """(numpy array, tensor) pairs: contiguous, transposed and sliced with a step."""
    t = torch.from_numpy(a)
    out = [(a, t)]
    if a.ndim >= 2:
        out.append((a.swapaxes(0, -1), t.transpose(0, -1)))
        out.append((a[..., ::2], t[..., ::2]))
    return out


def assert_sum_close(got, want, abs_sum, rtol):
    """|got - want| within rtol of the sum of absolute values (the error bound of a float sum)."""
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want)
    assert got.shape == want.shape
    assert (np.abs(got - want) <= rtol * (np.asarray(abs_sum) + 1)).all(), (got, want)


def bits(x):
    """The raw bits of a float array, so that -0.0 and 0.0 (and NaN payloads) differ."""
    x = np.ascontiguousarray(x)
    return x.view({4: np.int32, 8: np.int64, 2: np.int16}[x.itemsize]) if x.dtype.kind == "f" else x


# ---- sum and mean --------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sum_and_mean_match_numpy_float64(nthreads, shape, dtype):
    rtol = 1e-5 if dtype == np.float32 else 1e-12
    for a, t in views(rand(shape, dtype)):
        ref = a.astype(np.float64)
        assert_sum_close(t.sum().item(), ref.sum(), np.abs(ref).sum(), rtol)
        for dim in range(-a.ndim, a.ndim):
            for keepdim in (False, True):
                s = t.sum(dim, keepdim=keepdim)
                m = t.mean(dim, keepdim=keepdim)
                assert s.dtype == t.dtype and m.dtype == t.dtype
                abs_sum = np.abs(ref).sum(dim, keepdims=keepdim)
                assert_sum_close(s.numpy(), ref.sum(dim, keepdims=keepdim), abs_sum, rtol)
                assert_sum_close(m.numpy(), ref.mean(dim, keepdims=keepdim), abs_sum / a.shape[dim], rtol)


def test_sum_over_several_dims(nthreads):
    a = rand((6, 35, 17))
    t = torch.from_numpy(a)
    for dims in [(0, 2), (0, 1), (1, 2), (-1, 0)]:
        npt.assert_allclose(t.sum(dims).numpy(), a.astype(np.float64).sum(dims), rtol=1e-5, atol=1e-4)


def test_sums_of_ones_are_exact(nthreads):
    # The cascade keeps every partial sum of ones below 2^24, where float32 counts exactly.
    assert torch.ones(10**7).sum().item() == 10**7
    assert torch.ones(10**7).mean().item() == 1.0
    assert torch.ones(100003, 3).sum(0).tolist() == [100003.0] * 3
    assert torch.ones(3, 100003).sum(1).tolist() == [100003.0] * 3
    assert torch.ones(20000, 67).sum(0).tolist() == [20000.0] * 67


def test_long_sum_is_accurate(nthreads):
    a = rand(10**6 + 7, seed=3) + 1.0
    npt.assert_allclose(torch.from_numpy(a).sum().item(), a.astype(np.float64).sum(), rtol=1e-6)
    m = rand((2000, 129), seed=4) + 1.0
    npt.assert_allclose(torch.from_numpy(m).sum(0).numpy(), m.astype(np.float64).sum(0), rtol=1e-6)


def test_sum_of_integers_and_bool():
    a = np.random.default_rng(1).integers(-50, 50, (37, 129)).astype(np.int32)
    t = torch.from_numpy(a)
    assert t.sum().item() == int(a.astype(np.int64).sum())
    assert t.sum(0).dtype == torch.int64
    npt.assert_array_equal(t.sum(0).numpy(), a.astype(np.int64).sum(0))
    npt.assert_array_equal(t.sum(1).numpy(), a.astype(np.int64).sum(1))
    assert (t > 0).sum().item() == int((a > 0).sum())


def test_sum_and_mean_of_empty():
    assert torch.empty(0, 5).sum(0).tolist() == [0.0] * 5
    assert torch.empty(0).sum().item() == 0.0
    assert torch.empty(0, 3).mean(0).isnan().all()


# ---- max, min, amax, amin, argmax, argmin ------------------------------------------------------


def with_nans(a, seed, frac=0.01):
    a = a.copy()
    rng = np.random.default_rng(seed)
    a[rng.random(a.shape) < frac] = np.nan
    return a


def with_ties(shape, dtype, seed=0):
    """Few distinct values, so every row and column has many equal maxima and minima."""
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(dtype)


def check_minmax(a, t):
    for dim in range(-a.ndim, a.ndim):
        for keepdim in (False, True):
            for name, ref_val, ref_arg in [("max", np.max, np.argmax), ("min", np.min, np.argmin)]:
                values, indices = getattr(t, name)(dim, keepdim=keepdim)
                want_idx = ref_arg(a, axis=dim, keepdims=keepdim)
                npt.assert_array_equal(indices.numpy(), want_idx)
                # The value is the element at that index, bit for bit (the sign of a zero too).
                npt.assert_array_equal(bits(values.numpy()), bits(np.take_along_axis(a, want_idx if keepdim else
                                                                                     np.expand_dims(want_idx, dim), dim)
                                                                     .reshape(values.shape)))
                npt.assert_array_equal(getattr(t, "arg" + name)(dim, keepdim=keepdim).numpy(), want_idx)
                a_val = getattr(t, "a" + name)(dim, keepdim=keepdim).numpy()
                npt.assert_array_equal(a_val, ref_val(a, axis=dim, keepdims=keepdim))
    for name, ref_val, ref_arg in [("max", np.max, np.argmax), ("min", np.min, np.argmin)]:
        npt.assert_array_equal(getattr(t, name)().numpy(), ref_val(a))
        npt.assert_array_equal(getattr(t, "a" + name)().numpy(), ref_val(a))
        assert getattr(t, "arg" + name)().item() == ref_arg(a)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_max_min_float_match_numpy(nthreads, shape, dtype):
    for a, t in views(rand(shape, dtype)):
        check_minmax(a, t)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.int16, np.uint8])
def test_max_min_ties_keep_the_first_index(nthreads, shape, dtype):
    base = with_ties(shape, dtype) if dtype != np.uint8 else with_ties(shape, np.int16).clip(0).astype(np.uint8)
    for a, t in views(base):
        check_minmax(a, t)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_max_min_nan_propagates_from_the_first_nan(nthreads, shape, dtype):
    for seed in range(2):
        for a, t in views(with_nans(rand(shape, dtype, seed), seed)):
            check_minmax(a, t)


@pytest.mark.parametrize("n", [31, 32, 33, 63, 64, 65, 127, 1000, 4099])
def test_nan_at_every_position_of_a_row(n):
    # Rows long enough for the vector loops: a NaN in any lane, block or tail wins, and the
    # reported index is the first NaN's.
    for pos in sorted({0, 1, 7, 8, 15, 16, 31, n // 2, n - 2, n - 1}):
        if pos >= n:
            continue
        a = rand((3, n), seed=pos)
        a[1, pos] = np.nan
        a[2, pos] = np.nan
        a[2, n - 1] = np.nan
        t = torch.from_numpy(a)
        for name in ("max", "min"):
            values, indices = getattr(t, name)(1)
            assert indices.tolist()[1:] == [pos, pos]
            assert torch.isnan(values[1:]).all() and not torch.isnan(values[0])
            assert torch.isnan(getattr(t, "a" + name)(1)[1:]).all()
            # The same rows as columns.
            values, indices = getattr(t.t().contiguous(), name)(0)
            assert indices.tolist()[1:] == [pos, pos]
            assert torch.isnan(getattr(t.t().contiguous(), "a" + name)(0)[1:]).all()


def test_signed_zeros_keep_the_first():
    # 0.0 and -0.0 are equal: max(dim) returns the first one (as a sequential loop finds it),
    # wherever the other zeros fall among the vector lanes. (amax promises only a zero.)
    for n in (5, 40, 1000):
        p = n // 3
        for first in (0.0, -0.0):
            a = np.full((2, n), -1.0, dtype=np.float32)
            a[:, p] = first
            a[:, p + 1::2] = -np.float32(first)
            t = torch.from_numpy(a)
            sign = [bool(np.signbit(first))] * 2
            for x, dim in [(t, 1), (t.t().contiguous(), 0)]:
                values, indices = x.max(dim)
                assert indices.tolist() == [p] * 2
                assert np.signbit(values.numpy()).tolist() == sign
                assert x.amax(dim).tolist() == [0.0] * 2
            assert t[0].amax().item() == 0.0
            assert t[0].argmax().item() == p


def test_infinities():
    a = np.full((4, 100), -np.inf, dtype=np.float32)
    a[1, 50] = np.inf
    a[2, 10:] = 3.0
    a[3, 99] = np.nan
    t = torch.from_numpy(a)
    values, indices = t.max(1)
    assert indices.tolist() == [0, 50, 10, 99]
    assert values[:3].tolist() == [-np.inf, np.inf, 3.0] and values[3].isnan()
    assert t.min(1).indices.tolist() == [0, 0, 0, 99]
    values, indices = t.t().contiguous().max(0)
    assert indices.tolist() == [0, 50, 10, 99]


def test_full_reductions_split_across_threads(nthreads):
    # 2 * GRAIN_SIZE elements and more: the range is split between threads and the partial
    # results combined in order.
    for n in (65536, 65537, 200003):
        a = with_ties(n, np.float32, seed=n)
        t = torch.from_numpy(a)
        assert t.argmax().item() == np.argmax(a) and t.argmin().item() == np.argmin(a)
        assert t.amax().item() == a.max() and t.amin().item() == a.min()
        a = with_nans(rand(n, seed=n), n, frac=1e-4)
        t = torch.from_numpy(a)
        assert t.argmax().item() == np.argmax(a) and t.argmin().item() == np.argmin(a)
        assert t.amax().isnan() and t.max().isnan()


def test_large_shapes_of_both_orientations(nthreads):
    for shape in [(64, 5003), (5003, 64), (3, 40000)]:
        a = with_ties(shape, np.float32, seed=7)
        t = torch.from_numpy(a)
        for dim in (0, 1):
            values, indices = t.max(dim)
            npt.assert_array_equal(indices.numpy(), np.argmax(a, dim))
            npt.assert_array_equal(values.numpy(), np.max(a, dim))
            npt.assert_array_equal(t.min(dim).indices.numpy(), np.argmin(a, dim))
            npt.assert_array_equal(t.amax(dim).numpy(), np.max(a, dim))


def test_amax_amin_over_several_dims_and_other_dtypes(nthreads):
    a = with_nans(rand((6, 35, 17)), 1)
    t = torch.from_numpy(a)
    for dims in [(0, 2), (0, 1), (1, 2)]:
        npt.assert_array_equal(t.amax(dims).numpy(), np.max(a, dims))
        npt.assert_array_equal(t.amin(dims).numpy(), np.min(a, dims))
    b = np.random.default_rng(2).random((33, 70)) > 0.9
    tb = torch.from_numpy(b)
    npt.assert_array_equal(tb.amax(1).numpy(), b.max(1))
    npt.assert_array_equal(tb.amin(0).numpy(), b.min(0))
    h = torch.from_numpy(rand((19, 77))).half()
    npt.assert_array_equal(h.amax(0).float().numpy(), h.float().numpy().max(0))
    npt.assert_array_equal(h.max(1).indices.numpy(), np.argmax(h.float().numpy(), 1))


def test_max_out_arguments():
    t = torch.from_numpy(rand((9, 70)))
    values, indices = torch.empty(0), torch.empty(0, dtype=torch.long)
    torch.max(t, 0, out=(values, indices))
    npt.assert_array_equal(indices.numpy(), np.argmax(t.numpy(), 0))
    # A strided out= tensor: the column loop writes each output through its own stride.
    big = torch.zeros(70, 2)
    torch.amax(t, 0, out=big[:, 0])
    npt.assert_array_equal(big[:, 0].numpy(), t.numpy().max(0))
    assert big[:, 1].eq(0).all()


def test_empty_dimension_errors():
    x = torch.empty(0, 3)
    with pytest.raises(IndexError):
        x.max(0)
    with pytest.raises(IndexError):
        x.argmax(0)
    with pytest.raises(IndexError):
        x.amax(0)
    with pytest.raises(RuntimeError):
        x.max()
    assert x.max(1).values.shape == (0,)
    assert x.amax(1).shape == (0,)
