# test/aten/test_reductions.py - reductions, scans, softmax, sorting and unique against numpy:
# values, result dtypes and shapes over the dtypes each supports; dim as int, list, negative;
# keepdim; non-contiguous inputs (transposed, sliced, expanded); Hypothesis over random shapes
# and layouts; PyTorch's error types and texts.
# Mirrors PyTorch's test/test_reductions.py, test/test_sort_and_select.py.
# Guide: docs/source/internals/tensor_iterator.rst ("Reductions").
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import torch

FLOATS = [torch.float32, torch.float64]
INTS = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
NP = {torch.float32: np.float32, torch.float64: np.float64, torch.uint8: np.uint8, torch.int8: np.int8,
      torch.int16: np.int16, torch.int32: np.int32, torch.int64: np.int64, torch.bool: np.bool_}


def make(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == torch.bool:
        a = rng.integers(0, 2, shape).astype(np.bool_)
    elif dtype in INTS:
        a = rng.integers(0, 5, shape).astype(NP[dtype])
    else:
        a = rng.standard_normal(shape).astype(NP[dtype])
    return torch.from_numpy(a), a


def layouts(t):
    """The same values in several layouts: contiguous, transposed (a permuted copy), sliced
    (every other element of a bigger tensor), and an expanded input (stride 0)."""
    yield "contiguous", t
    if t.dim() >= 2:
        yield "transposed", t.transpose(0, -1).contiguous().transpose(0, -1)
    a = t.numpy()
    big = torch.from_numpy(np.ascontiguousarray(np.repeat(a, 2, axis=-1)))
    yield "sliced", big.slice(-1, 0, None, 2)


def check(got, want, dtype=None, rtol=1e-5, atol=1e-5):
    want = np.asarray(want)
    assert tuple(got.shape) == want.shape, (got.shape, want.shape)
    if dtype is not None:
        assert got.dtype == dtype
    np.testing.assert_allclose(got.numpy().astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol)


# ---- sum, mean, prod ------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + INTS + [torch.bool])
@pytest.mark.parametrize("dim", [None, 0, 1, -1, (0, 1), [0, 2]])
@pytest.mark.parametrize("keepdim", [False, True])
def test_sum_matches_numpy(dtype, dim, keepdim):
    t, a = make((3, 4, 5), dtype)
    want_dtype = torch.int64 if dtype in INTS + [torch.bool] else dtype
    for name, x in layouts(t):
        if dim is None:
            got, want = x.sum(), a.sum(dtype=NP[want_dtype])
        else:
            got = torch.sum(x, dim, keepdim=keepdim)
            want = a.sum(axis=tuple(dim) if isinstance(dim, (tuple, list)) else dim, keepdims=keepdim,
                         dtype=NP[want_dtype])
        check(got, want, want_dtype, rtol=1e-4)


def test_sum_dtype_and_out():
    t = torch.ones(2, 3)
    assert t.sum(dtype=torch.int32).dtype == torch.int32
    out = torch.empty(0, dtype=torch.float64)
    r = torch.sum(t, 0, out=out)
    assert r is out and out.dtype == torch.float64 and out.tolist() == [2.0, 2.0, 2.0]
    assert torch.sum(torch.empty(0)).item() == 0
    assert torch.sum(torch.empty(2, 0), 1).tolist() == [0.0, 0.0]


def test_sum_is_accurate_for_large_float32():
    a = np.full(10**7, 0.1, np.float32)
    got = torch.from_numpy(a).sum().item()
    assert abs(got - 1e6) / 1e6 < 1e-5


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("dim", [None, 0, -1, [0, 1]])
def test_mean_matches_numpy(dtype, dim):
    t, a = make((3, 4, 2), dtype)
    got = t.mean() if dim is None else t.mean(dim)
    want = a.mean() if dim is None else a.mean(axis=tuple(dim) if isinstance(dim, list) else dim)
    check(got, want, dtype)


def test_mean_errors_match_pytorch():
    with pytest.raises(RuntimeError, match=r"mean\(\): could not infer output dtype. Input dtype must be either a "
                                           r"floating point or complex dtype. Got: Long"):
        torch.arange(3).mean() if hasattr(torch, "arange") else torch.tensor([0, 1, 2]).mean()
    with pytest.raises(RuntimeError, match="Optional dtype must be either a floating point or complex dtype. Got: Long"):
        torch.ones(2, 3).mean(dtype=torch.int64)
    assert math.isnan(torch.empty(0).mean().item())


@pytest.mark.parametrize("dtype", FLOATS + [torch.int32, torch.int64, torch.bool])
def test_prod_matches_numpy(dtype):
    t, a = make((3, 4), dtype)
    want_dtype = torch.int64 if not dtype.is_floating_point else dtype
    check(t.prod(), a.prod(dtype=NP[want_dtype]), want_dtype, rtol=1e-4)
    check(t.prod(1), a.prod(axis=1, dtype=NP[want_dtype]), want_dtype, rtol=1e-4)
    check(t.prod(-2, keepdim=True), a.prod(axis=0, keepdims=True, dtype=NP[want_dtype]), want_dtype, rtol=1e-4)
    assert torch.empty(0).prod().item() == 1


# ---- max, min, amax, amin, argmax, argmin -----------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + INTS + [torch.bool])
def test_max_min_amax_amin_match_numpy(dtype):
    t, a = make((3, 4, 5), dtype, seed=1)
    for name, x in layouts(t):
        check(x.max(), a.max(), dtype)
        check(x.min(), a.min(), dtype)
        check(x.amax((0, 2)), a.max(axis=(0, 2)), dtype)
        check(x.amin(-1, keepdim=True), a.min(axis=-1, keepdims=True), dtype)
        if dtype != torch.bool:
            v, i = x.max(1)
            check(v, a.max(axis=1), dtype)
            check(i, a.argmax(axis=1), torch.int64)
            v, i = torch.min(x, -1, keepdim=True)
            check(i, np.expand_dims(a.argmin(axis=-1), -1), torch.int64)
            check(x.argmax(), a.argmax(), torch.int64)
            check(x.argmin(2), a.argmin(axis=2), torch.int64)
            check(torch.argmax(x, 0, keepdim=True), np.expand_dims(a.argmax(axis=0), 0), torch.int64)


def test_max_dim_is_a_named_tuple_printed_like_pytorch():
    r = torch.tensor([[1.0, 3.0], [4.0, 2.0]]).max(1)
    assert isinstance(r, torch.return_types.max) and isinstance(r, tuple)
    assert r.values.tolist() == [3.0, 4.0] and r.indices.tolist() == [1, 0]
    v, i = r
    assert v is r.values or v.tolist() == [3.0, 4.0]
    assert repr(torch.tensor([1.0, 2.0]).max(0)) == (
        "torch.return_types.max(\nvalues=tensor(2.),\nindices=tensor(1))")
    assert type(torch.tensor([2.0, 1.0]).sort()).__name__ == "sort"
    assert isinstance(torch.tensor([2.0, 1.0]).topk(1), torch.return_types.topk)


def test_max_propagates_nan():
    t = torch.tensor([1.0, float("nan"), 3.0])
    assert math.isnan(t.max().item()) and math.isnan(t.amin().item())
    v, i = t.max(0)
    assert math.isnan(v.item()) and i.item() == 1
    assert t.argmax().item() == 1 and t.argmin().item() == 1


def test_argmax_ties_return_first():
    t = torch.tensor([1.0, 3.0, 3.0, 0.0])
    assert t.argmax().item() == 1
    assert torch.ones(2, 3).argmax(keepdim=True).shape == (1, 1)


def test_max_min_errors_match_pytorch():
    with pytest.raises(RuntimeError, match=r"max\(\): Expected reduction dim to be specified for input.numel\(\) == 0. "
                                           r"Specify the reduction dim with the 'dim' argument."):
        torch.empty(0).max()
    with pytest.raises(IndexError, match=r"max\(\): Expected reduction dim 0 to have non-zero size."):
        torch.empty(0, 3).max(0)
    with pytest.raises(IndexError, match=r"amax\(\): Expected reduction dim 1 to have non-zero size."):
        torch.empty(2, 0).amax(1)
    with pytest.raises(IndexError, match=r"argmax\(\): Expected reduction dim to be specified for input.numel\(\) == 0."):
        torch.empty(0).argmax()
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 5\)"):
        torch.ones(2, 3).sum(5)
    with pytest.raises(RuntimeError, match="dim 0 appears multiple times in the list of dims"):
        torch.ones(2, 3).sum((0, 0))


# ---- var, std, norm, all, any, logsumexp, count_nonzero -----------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("dim", [None, 0, -1, [0, 1]])
def test_var_std_match_numpy(dtype, dim):
    t, a = make((4, 5, 3), dtype)
    ax = tuple(dim) if isinstance(dim, list) else dim
    check(t.var(dim), a.var(axis=ax, ddof=1), dtype, rtol=1e-4)
    check(t.std(dim, unbiased=False), a.std(axis=ax, ddof=0), dtype, rtol=1e-4)
    check(torch.var(t, dim, correction=2, keepdim=True), a.var(axis=ax, ddof=2, keepdims=True), dtype, rtol=1e-4)
    v, m = torch.var_mean(t, dim)
    check(v, a.var(axis=ax, ddof=1), dtype, rtol=1e-4)
    check(m, a.mean(axis=ax), dtype, rtol=1e-4)
    s, m = torch.std_mean(t, dim)
    check(s, a.std(axis=ax, ddof=1), dtype, rtol=1e-4)


def test_var_errors_and_edges():
    with pytest.raises(RuntimeError, match="std and var only support floating point and complex dtypes"):
        torch.tensor([1, 2]).std()
    assert math.isnan(torch.ones(1).var().item())


@pytest.mark.parametrize("p", [2, 1, 3, 0.5, 0, float("inf"), -float("inf"), "fro"])
def test_norm_matches_numpy(p):
    t, a = make((3, 4), torch.float64)
    if p == "fro":
        want = np.linalg.norm(a)
    elif p == 0:
        want = np.count_nonzero(a)
    elif math.isinf(p):
        want = np.abs(a).max() if p > 0 else np.abs(a).min()
    else:
        want = (np.abs(a) ** p).sum() ** (1 / p)
    check(torch.norm(t, p), want, torch.float64)
    check(t.norm(p, dim=1), np.linalg.norm(a, ord=2, axis=1) if p in (2, "fro") else
          ((np.abs(a) ** p).sum(1) ** (1 / p) if p not in (0,) and not (isinstance(p, float) and math.isinf(p))
           else (np.count_nonzero(a, axis=1) if p == 0 else
                 (np.abs(a).max(1) if p > 0 else np.abs(a).min(1)))), torch.float64)
    with pytest.raises(RuntimeError, match="linalg.vector_norm: Expected a floating point or complex tensor as input. "
                                           "Got Long"):
        torch.tensor([1, 2]).norm()


@pytest.mark.parametrize("shape", [(3, 4), (4, 3), (5, 5), (1, 6), (2, 3, 4)])
def test_nuclear_norm_matches_numpy(shape):
    t, a = make(shape, torch.float64)
    if len(shape) == 2:
        check(torch.norm(t, p="nuc"), np.linalg.norm(a, ord="nuc"), torch.float64)
        check(t.norm(p="nuc", keepdim=True), np.linalg.norm(a, ord="nuc", keepdims=True), torch.float64)
        check(torch.norm(t.t(), p="nuc"), np.linalg.norm(a.T, ord="nuc"), torch.float64)
    else:
        check(torch.norm(t, p="nuc", dim=(1, 2)), np.linalg.norm(a, ord="nuc", axis=(1, 2)), torch.float64)
        check(torch.norm(t, p="nuc", dim=(0, 2), keepdim=True),
              np.linalg.norm(a, ord="nuc", axis=(0, 2), keepdims=True), torch.float64)
    t32 = t.to(torch.float32)
    assert torch.norm(t32.reshape(-1, shape[-1]), p="nuc").dtype == torch.float32


def test_nuclear_norm_worked_values_and_errors():
    assert torch.norm(torch.tensor([[1.0, 2], [3, 4]]), p="nuc").item() == pytest.approx(5.8310, abs=1e-4)
    assert torch.norm(torch.ones(2, 3, 3), p="nuc", dim=(1, 2)).tolist() == pytest.approx([3.0, 3.0])
    # singular values 22.409, 1.955 and ~0 (the rows are in arithmetic progression: rank 2)
    assert torch.nuclear_norm(torch.arange(12.0).view(3, 4)).item() == pytest.approx(22.409 + 1.9553, abs=1e-3)
    assert torch.nuclear_norm(torch.ones(2, 3, 3), dim=(1, 2), keepdim=True).shape == (2, 1, 1)
    assert torch.nuclear_norm(torch.ones(2, 0, 3), dim=(1, 2)).tolist() == [0.0, 0.0]
    with pytest.raises(RuntimeError, match="^linalg.matrix_norm: The input tensor A must have at least 2 dimensions.$"):
        torch.norm(torch.ones(3), p="nuc")
    with pytest.raises(RuntimeError, match="^linalg.matrix_norm: dim must be a 2-tuple. Got 0 1 2$"):
        torch.norm(torch.ones(3, 3, 3), p="nuc")
    with pytest.raises(RuntimeError, match="^linalg.matrix_norm: Expected a floating point or complex tensor as "
                                           "input. Got Long$"):
        torch.norm(torch.ones(2, 2, dtype=torch.long), p="nuc")
    with pytest.raises(RuntimeError, match="^linalg.matrix_norm: Low precision dtypes not supported. Got Half$"):
        torch.norm(torch.ones(2, 2, dtype=torch.half), p="nuc")


@pytest.mark.parametrize("dtype", FLOATS + INTS + [torch.bool])
def test_all_any_match_numpy(dtype):
    t, a = make((3, 4), dtype, seed=3)
    out_dtype = torch.uint8 if dtype == torch.uint8 else torch.bool
    check(t.all(), a.all(), out_dtype)
    check(t.any(1), a.any(axis=1), out_dtype)
    check(torch.all(t, 0, keepdim=True), a.all(axis=0, keepdims=True), out_dtype)
    check(t.any(dim=(0, 1)), a.any(), out_dtype)


@pytest.mark.parametrize("dim", [0, 1, [0, 1]])
def test_logsumexp_is_stable(dim):
    t, a = make((3, 4), torch.float64)
    t = t * 1000
    a = a * 1000
    ax = tuple(dim) if isinstance(dim, list) else dim
    m = a.max(axis=ax, keepdims=True)
    want = (np.log(np.exp(a - m).sum(axis=ax, keepdims=True)) + m)
    want = want.squeeze(axis=ax)
    check(torch.logsumexp(t, dim), want, torch.float64)
    assert torch.logsumexp(torch.tensor([1, 2]), 0).dtype == torch.float32
    assert torch.logsumexp(torch.empty(2, 0), 1).tolist() == [-math.inf, -math.inf]


def test_count_nonzero():
    t = torch.tensor([[0, 1, 2], [0, 0, 3]])
    assert t.count_nonzero().item() == 3 and t.count_nonzero().dtype == torch.int64
    assert torch.count_nonzero(t, 0).tolist() == [0, 1, 2]
    assert torch.count_nonzero(t, [0, 1]).item() == 3


# ---- cumsum, cumprod --------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + [torch.int32, torch.int64, torch.bool])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cumsum_cumprod_match_numpy(dtype, dim):
    t, a = make((3, 4), dtype)
    want_dtype = dtype if dtype.is_floating_point else torch.int64
    for name, x in layouts(t):
        check(x.cumsum(dim), np.cumsum(a, axis=dim, dtype=NP[want_dtype]), want_dtype)
        check(torch.cumprod(x, dim), np.cumprod(a, axis=dim, dtype=NP[want_dtype]), want_dtype, rtol=1e-4)
    assert torch.ones(3).cumsum(0, dtype=torch.int32).dtype == torch.int32
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"):
        torch.ones(2, 3).cumsum(2)


# ---- softmax, log_softmax ---------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_matches_numpy(dtype, dim):
    t, a = make((3, 4), dtype)
    t, a = t * 100, a * 100
    e = np.exp(a - a.max(axis=dim, keepdims=True))
    want = e / e.sum(axis=dim, keepdims=True)
    for name, x in layouts(t):
        check(x.softmax(dim), want, dtype, rtol=1e-4, atol=1e-6)
        shifted = a.astype(np.float64) - a.max(axis=dim, keepdims=True)
        want_log = shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))
        check(torch.log_softmax(x, dim), want_log, dtype, rtol=1e-4, atol=1e-3)
    assert torch.softmax(torch.tensor([1, 2]), 0, dtype=torch.float64).dtype == torch.float64


def test_softmax_errors_match_pytorch():
    with pytest.raises(NotImplementedError, match="\"softmax_lastdim_kernel_impl\" not implemented for 'Long'"):
        torch.tensor([1, 2]).softmax(0)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"):
        torch.ones(2, 3).softmax(2)
    assert torch.tensor(3.0).softmax(0).item() == 1.0


# ---- sort, argsort, topk, unique, split ---------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS + [torch.int32, torch.int64, torch.uint8])
@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_matches_numpy(dtype, dim, descending):
    t, a = make((4, 5), dtype)
    for name, x in layouts(t):
        v, i = torch.sort(x, dim, descending=descending)
        order = np.argsort(-a if descending and dtype.is_floating_point else a, axis=dim, kind="stable")
        if descending and not dtype.is_floating_point:
            order = np.argsort(-a.astype(np.int64), axis=dim, kind="stable")
        check(v, np.take_along_axis(a, order, axis=dim), dtype)
        check(i, order, torch.int64)
        check(x.argsort(dim, descending=descending), order, torch.int64)


def test_sort_puts_nan_last_and_is_stable():
    t = torch.tensor([2.0, float("nan"), 1.0, 2.0])
    v, i = t.sort()
    assert v.tolist()[:3] == [1.0, 2.0, 2.0] and math.isnan(v.tolist()[3]) and i.tolist() == [2, 0, 3, 1]
    v, i = t.sort(descending=True)
    assert math.isnan(v.tolist()[0]) and i.tolist() == [1, 0, 3, 2]
    assert t.sort(stable=True).indices.tolist() == [2, 0, 3, 1]


@pytest.mark.parametrize("largest", [True, False])
def test_topk_matches_numpy(largest):
    t, a = make((3, 6), torch.float32)
    v, i = t.topk(3, largest=largest)
    order = np.argsort(-a if largest else a, axis=1, kind="stable")[:, :3]
    check(v, np.take_along_axis(a, order, 1), torch.float32)
    check(i, order, torch.int64)
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        torch.ones(3).topk(5)


def test_unique_matches_numpy():
    t = torch.tensor([3, 1, 3, 2])
    assert torch.unique(t).tolist() == [1, 2, 3]
    u, inv, cnt = torch.unique(t, return_inverse=True, return_counts=True)
    assert inv.tolist() == [2, 0, 2, 1] and cnt.tolist() == [1, 1, 2]
    u, cnt = torch.unique(t, return_counts=True)
    assert cnt.tolist() == [1, 1, 2]
    a = np.random.default_rng(0).integers(0, 10, (5, 7))
    u, inv = torch.unique(torch.from_numpy(a), return_inverse=True)
    nu, ninv = np.unique(a, return_inverse=True)
    assert u.tolist() == nu.tolist() and inv.shape == (5, 7) and inv.numpy().ravel().tolist() == ninv.ravel().tolist()
    o, i2, c2 = torch._unique2(t)
    assert i2.tolist() == [] and c2.tolist() == []


def test_topk_sorted_false_leaves_pytorchs_order():
    # PyTorch's CPU topk: nth_element when k * 64 > n (the first k in the order it leaves),
    # partial_sort otherwise. Indices worked out with PyTorch 2.13 on the same values.
    x = torch.from_numpy(np.random.default_rng(0).standard_normal((4, 50)).astype(np.float32))
    assert x.topk(7, dim=1, sorted=False).indices.tolist() == [
        [48, 47, 21, 41, 39, 46, 42], [16, 12, 29, 24, 39, 41, 17], [36, 16, 39, 33, 19, 37, 49],
        [18, 14, 20, 42, 45, 37, 27]]
    assert x.topk(7, dim=1, largest=False, sorted=False).indices.tolist() == [
        [40, 9, 12, 30, 14, 27, 26], [25, 49, 48, 19, 34, 4, 1], [46, 8, 38, 5, 23, 26, 3],
        [5, 9, 40, 17, 28, 26, 41]]
    assert x.t().topk(5, dim=0, sorted=False).indices.t().tolist() == [
        [48, 47, 39, 41, 46], [12, 24, 29, 39, 16], [36, 16, 39, 33, 19], [18, 14, 37, 45, 42]]
    y = torch.tensor([3, 1, 2, 3, 1, 7, 0, 5, 2, 2])
    v, i = y.topk(4, sorted=False)
    assert i.tolist() == [3, 5, 7, 0] and v.tolist() == [3, 7, 5, 3]
    assert y.topk(4).indices.tolist() == [5, 7, 3, 0]
    assert y.topk(2, largest=False).indices.tolist() == [6, 1]
    v, i = torch.tensor([1.0, 5, 3, 4, 2, float("nan"), 0]).topk(3, sorted=False)
    assert math.isnan(v[0].item()) and v[1:].tolist() == [5.0, 4.0] and i.tolist() == [5, 1, 3]
    assert torch.arange(300.0).flip(0).topk(3, sorted=False).indices.tolist() == [0, 1, 2]  # partial_sort
    with pytest.raises(RuntimeError, match="topk does not support bool dtypes on CPU"):
        torch.tensor([True, False]).topk(1)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_unique_keeps_every_nan_apart_in_each_float_dtype(dtype):
    # PyTorch: tensor([0., 1., nan, nan]), inverse [1, 2, 1, 3, 0], counts [1, 2, 1, 1].
    x = torch.tensor([1.0, float("nan"), 1.0, float("nan"), 0.0]).to(dtype)
    u, inv, cnt = torch.unique(x, return_inverse=True, return_counts=True)
    assert u.dtype == dtype and u.float().tolist()[:2] == [0.0, 1.0] and u[2:].isnan().all().item()
    assert inv.tolist() == [1, 2, 1, 3, 0] and cnt.tolist() == [1, 2, 1, 1]


def test_unique_sorted_false_is_sorted_on_cpu():
    assert torch.unique(torch.tensor([3.0, 1, 2, 3, 1, 7, 0, 5]), sorted=False).tolist() == [0, 1, 2, 3, 5, 7]
    u, inv, cnt = torch.unique(torch.tensor([3, 1, 2, 3, 1]), sorted=False, return_inverse=True, return_counts=True)
    assert u.tolist() == [1, 2, 3] and inv.tolist() == [2, 0, 1, 2, 0] and cnt.tolist() == [2, 1, 2]


def test_unique_dim_gives_distinct_slices():
    x = torch.tensor([[1, 2], [1, 2], [0, 5]])
    u, inv, cnt = torch.unique(x, dim=0, return_inverse=True, return_counts=True)
    assert u.tolist() == [[0, 5], [1, 2]] and inv.tolist() == [1, 1, 0] and cnt.tolist() == [1, 2]
    assert torch.unique(x, dim=1).tolist() == [[1, 2], [1, 2], [0, 5]]
    x = torch.tensor([[[1, 0], [1, 0]], [[0, 1], [0, 1]]])
    u, inv, cnt = torch.unique(x, dim=2, return_inverse=True, return_counts=True)
    assert u.tolist() == [[[0, 1], [0, 1]], [[1, 0], [1, 0]]] and inv.tolist() == [1, 0] and cnt.tolist() == [1, 1]
    assert torch.unique(x, dim=-1, sorted=False).shape == (2, 2, 2)
    a = np.random.default_rng(3).integers(0, 3, (20, 3))
    u, inv = torch.unique(torch.from_numpy(a), dim=0, return_inverse=True)
    nu, ninv = np.unique(a, axis=0, return_inverse=True)
    assert u.tolist() == nu.tolist() and inv.tolist() == ninv.ravel().tolist()
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"):
        torch.unique(torch.ones(2, 2), dim=2)


def test_split_from_torch_functional():
    t = torch.tensor([0, 1, 2, 3, 4])
    assert [p.tolist() for p in torch.split(t, 2)] == [[0, 1], [2, 3], [4]]
    assert [p.tolist() for p in torch.split(t, [1, 4])] == [[0], [1, 2, 3, 4]]
    assert [p.tolist() for p in t.split([3, 2])] == [[0, 1, 2], [3, 4]]


# ---- property tests over random shapes and layouts --------------------------------------------

@st.composite
def tensors(draw):
    ndim = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 5), min_size=ndim, max_size=ndim)))
    seed = draw(st.integers(0, 1000))
    t, a = make(shape, torch.float64, seed)
    layout = draw(st.sampled_from(["contiguous", "permuted", "sliced", "expanded"]))
    if layout == "permuted" and ndim >= 2:
        rev = list(range(ndim))[::-1]
        t = torch.from_numpy(np.ascontiguousarray(a.transpose(rev))).permute(rev)
    elif layout == "sliced":
        t = torch.from_numpy(np.ascontiguousarray(np.repeat(a, 2, axis=0))).slice(0, 0, None, 2)
    elif layout == "expanded":
        t = t.unsqueeze(0).expand(3, *t.shape)
        a = np.broadcast_to(a, (3,) + a.shape)
    dims = draw(st.lists(st.integers(-len(a.shape), len(a.shape) - 1), unique_by=lambda d: d % len(a.shape),
                         max_size=len(a.shape)))
    return t, np.ascontiguousarray(a), dims


@settings(max_examples=60, deadline=None)
@given(tensors(), st.booleans())
def test_property_reductions_match_numpy(data, keepdim):
    t, a, dims = data
    assert np.allclose(t.numpy(), a)
    ax = tuple(d % a.ndim for d in dims) if dims else None
    check(t.sum(dims, keepdim=keepdim), a.sum(axis=ax, keepdims=keepdim), rtol=1e-9)
    check(t.mean(dims, keepdim=keepdim), a.mean(axis=ax, keepdims=keepdim), rtol=1e-9)
    check(t.amax(dims, keepdim=keepdim), a.max(axis=ax, keepdims=keepdim))
    check(t.amin(dims, keepdim=keepdim), a.min(axis=ax, keepdims=keepdim))
    d = dims[0] if dims else 0
    check(t.argmax(d), a.argmax(axis=d))
    check(t.cumsum(d), np.cumsum(a, axis=d))
    check(t.softmax(d), np.exp(a - a.max(axis=d, keepdims=True)) /
          np.exp(a - a.max(axis=d, keepdims=True)).sum(axis=d, keepdims=True))
    if a.size > 1:
        check(t.var(dims, keepdim=keepdim), a.var(axis=ax, ddof=1, keepdims=keepdim), rtol=1e-7)
