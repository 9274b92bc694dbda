"""The CUDA sorting and selection operators, each checked against its CPU twin: sort and argsort
(stable, descending, every dtype, NaN, ties, short rows sorted in shared memory and long rows
taking the segmented global-memory path), topk (radix select), kthvalue (radix select) and
unique (sort, run starts, scan), with gradcheck in double precision for sort, topk and kthvalue.

Mirrors the CUDA parts of PyTorch's test/test_sort_and_select.py and test/test_unique.py. The
kernels are aten/src/ATen/native/cuda/Sort.cu, TensorTopK.cu, Sorting.cu and Unique.cu, over
SortUtils.cuh and SortingRadixSelect.cuh. Guide: docs/source/internals/cuda_training.rst.
Without a GPU:

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_cuda_sorting.py
"""

import numpy as np
import pytest

import torch
from cuda_testing import _id, as_numpy, assert_same

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")

# Every dtype the CPU sort takes.
SORT_DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8, torch.uint8, torch.int16,
               torch.int32, torch.int64, torch.bool]
# topk and kthvalue take all of them but bool.
SELECT_DTYPES = [d for d in SORT_DTYPES if d != torch.bool]
FLOATS = [torch.float32, torch.float64, torch.float16, torch.bfloat16]


def values(*shape, dtype=torch.float32, seed=0, high=None, nan=False):
    """Random values as dtype. Few distinct ones (ties) unless `high` is large; for floats,
    with nan=True, some NaNs, infinities and negative zeros too."""
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=g).bool()
    if dtype.is_floating_point:
        x = (torch.randint(-(high or 8), high or 8, shape, generator=g).double() / 2).to(dtype)
        if nan and x.numel() > 0:
            flat = x.view(-1)
            pick = torch.randint(0, flat.numel(), (max(1, flat.numel() // 7),), generator=g)
            specials = torch.tensor([float("nan"), float("inf"), -float("inf"), -0.0, float("nan")]).to(dtype)
            flat[pick] = specials[torch.arange(pick.numel()) % 5]
        return x
    h = high or 8
    if dtype == torch.uint8:
        low, hi = 0, min(2 * h, 256)
    elif dtype == torch.int8:
        low, hi = -min(h, 128), min(h, 128)
    else:
        low, hi = -h, h
    return torch.randint(low, hi, shape, generator=g).to(dtype)


def distinct(rows, n, dtype=torch.float32, seed=0):
    """Each row a random permutation of n consecutive integers (around 0; from 0 for uint8), as
    dtype: no ties within a row."""
    g = torch.Generator().manual_seed(seed)
    perm = torch.rand(rows, n, generator=g).argsort(1)
    return (perm if dtype == torch.uint8 else perm - n // 2).to(dtype)


def check_sort(x, dim=-1, descending=False, stable=True):
    got = torch.sort(x.cuda(), stable=stable, dim=dim, descending=descending)
    want = torch.sort(x, stable=True, dim=dim, descending=descending)
    assert type(got).__name__ == "sort"
    assert_same(got.values, want.values)
    assert_same(got.indices, want.indices)


# ---------------------------------------------------------------------------------------
# sort and argsort
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", SORT_DTYPES, ids=_id)
@pytest.mark.parametrize("descending", [False, True])
def test_sort_matches_cpu_with_ties_and_nans(dtype, descending):
    x = values(9, 37, dtype=dtype, nan=True)
    check_sort(x, -1, descending)
    check_sort(x, 0, descending)


@pytest.mark.parametrize("n", [1, 2, 3, 1000, 4096, 4097])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.float16, torch.bool], ids=_id)
def test_sort_row_lengths(n, dtype):
    # 4096 is the longest row sorted in shared memory; 4097 takes the global-memory path.
    x = values(3, n, dtype=dtype, nan=True, seed=n)
    check_sort(x)
    check_sort(x, descending=True)


@pytest.mark.parametrize("dtype", [torch.float64, torch.bfloat16, torch.int32, torch.uint8], ids=_id)
def test_sort_long_rows_take_the_segmented_path(dtype):
    x = values(2, 20000, dtype=dtype, nan=True, high=100, seed=5)
    check_sort(x)
    check_sort(x, descending=True)


def test_sort_many_rows_and_other_dims():
    x = values(300, 17, seed=2)
    check_sort(x)
    y = values(5, 7, 3, dtype=torch.float64, nan=True, seed=3)
    for dim in (0, 1, 2, -2):
        check_sort(y, dim)
        check_sort(y, dim, descending=True)


def test_sort_non_contiguous_input():
    x = values(12, 30, nan=True, seed=4)
    check_sort(x.t(), 0)
    check_sort(x.t(), 1, descending=True)
    check_sort(x[::2, 1::3])
    check_sort(x[:, 5].expand(4, 12), 1)


def test_sort_scalar_and_empty():
    check_sort(torch.tensor(3.5))
    check_sort(torch.tensor(3.5), 0, descending=True)
    check_sort(torch.empty(0))
    check_sort(torch.empty(3, 0), 1)
    check_sort(torch.empty(0, 4), 1)
    check_sort(torch.empty(0, 4, dtype=torch.int64), 0)


def test_sort_stable_false_and_plain_overload():
    x = values(4, 50, seed=6)
    got = torch.sort(x.cuda(), 1, True)
    want = torch.sort(x, 1, True)
    assert_same(got[0], want[0])
    assert_same(got[1], want[1])
    check_sort(x, stable=False)
    check_sort(x, stable=None)
    vals, idx = x.cuda().sort()
    assert_same(vals, x.sort(stable=True)[0])


def test_sort_keeps_the_bits_of_each_value():
    x = torch.tensor([0.0, -0.0, 1.0, -0.0, 0.0, float("nan"), -1.0])
    got = torch.sort(x.cuda(), stable=True)
    assert_same(got.indices, torch.tensor([6, 0, 1, 3, 4, 2, 5]))
    assert np.signbit(as_numpy(got.values)).tolist() == [True, False, True, True, False, False, False]


@pytest.mark.parametrize("dtype", [torch.float32, torch.int16, torch.bool], ids=_id)
def test_argsort_matches_cpu(dtype):
    x = values(6, 70, dtype=dtype, nan=True, seed=7)
    for descending in (False, True):
        assert_same(torch.argsort(x.cuda(), stable=True, descending=descending),
                    torch.argsort(x, stable=True, descending=descending))
        assert_same(x.cuda().argsort(0, descending), x.argsort(0, descending))


def test_sort_out_and_errors():
    x = values(3, 8, seed=8)
    values_out = torch.empty(0, device="cuda")
    indices_out = torch.empty(0, dtype=torch.int64, device="cuda")
    torch.sort(x.cuda(), 1, out=(values_out, indices_out))
    assert_same(values_out, x.sort(1)[0])
    assert_same(indices_out, x.sort(1)[1])
    with pytest.raises(IndexError, match="Dimension out of range"):
        x.cuda().sort(2)


# ---------------------------------------------------------------------------------------
# topk
# ---------------------------------------------------------------------------------------

def check_topk_with_ties(x, k, dim=-1, largest=True, sorted=True):
    """Values as on the CPU; each index points at its value (the order of equal values may
    differ, as it does between PyTorch's CUDA and CPU)."""
    got = torch.topk(x.cuda(), k, dim, largest, sorted)
    want = torch.topk(x, k, dim, largest, sorted)
    assert type(got).__name__ == "topk"
    assert got.values.shape == want.values.shape and got.indices.dtype == torch.int64
    if sorted:
        assert_same(got.values, want.values)
    else:
        assert_same(got.values.sort(dim=dim, stable=True)[0], want.values.sort(dim=dim, stable=True)[0])
    assert_same(x.cuda().gather(dim, got.indices), got.values.cpu())
    if k > 0:
        # No index chosen twice.
        idx = got.indices.cpu().movedim(dim, -1).reshape(-1, k)
        assert all(len(set(row.tolist())) == k for row in idx)


@pytest.mark.parametrize("dtype", SELECT_DTYPES, ids=_id)
@pytest.mark.parametrize("largest", [True, False])
def test_topk_distinct_values_match_cpu_exactly(dtype, largest):
    n = 100
    x = distinct(7, n, dtype=dtype, seed=1)
    for k in (1, 5, 17, n):
        got = torch.topk(x.cuda(), k, largest=largest)
        want = torch.topk(x, k, largest=largest)
        assert_same(got.values, want.values)
        assert_same(got.indices, want.indices)


@pytest.mark.parametrize("dtype", SELECT_DTYPES, ids=_id)
def test_topk_with_ties_and_nans(dtype):
    x = values(6, 45, dtype=dtype, nan=True, seed=2)
    for largest in (True, False):
        for k in (0, 1, 10, 45):
            check_topk_with_ties(x, k, -1, largest)
            check_topk_with_ties(x, k, -1, largest, sorted=False)
    check_topk_with_ties(x, 3, 0, True)


def test_topk_nan_counts_as_largest():
    x = torch.tensor([1.0, float("nan"), 3.0, float("nan"), 2.0])
    got = torch.topk(x.cuda(), 3)
    assert_same(got.values, torch.tensor([float("nan"), float("nan"), 3.0]))
    assert sorted(got.indices.tolist()[:2]) == [1, 3] and got.indices.tolist()[2] == 2
    assert_same(torch.topk(x.cuda(), 2, largest=False).values, torch.tensor([1.0, 2.0]))


def test_topk_long_rows_other_dims_and_layouts():
    x = values(3, 20000, dtype=torch.float32, high=3000, seed=3)
    check_topk_with_ties(x, 100)
    check_topk_with_ties(x, 7, largest=False)
    y = values(4, 9, 5, dtype=torch.float64, seed=4, high=100)
    for dim in (0, 1, 2):
        check_topk_with_ties(y, 3, dim)
    check_topk_with_ties(y.transpose(0, 2), 2, 1, largest=False)
    check_topk_with_ties(values(300, 6, seed=5, high=50), 2)


def test_topk_scalar_empty_and_sizes():
    got = torch.topk(torch.tensor(4.0, device="cuda"), 1)
    assert_same(got.values, torch.tensor(4.0))
    assert_same(got.indices, torch.tensor(0))
    assert_same(torch.topk(torch.tensor(4.0, device="cuda"), 0).values, torch.topk(torch.tensor(4.0), 0).values)
    assert_same(torch.topk(torch.empty(0, device="cuda"), 0).values, torch.empty(0))
    assert_same(torch.topk(torch.empty(3, 0, device="cuda"), 0).indices, torch.empty(3, 0, dtype=torch.int64))
    assert_same(torch.topk(torch.empty(0, 5, device="cuda"), 2).values, torch.empty(0, 2))


def test_topk_errors():
    x = torch.ones(3, device="cuda")
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        torch.topk(x, 4)
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        torch.topk(x, -1)
    with pytest.raises(NotImplementedError, match="\"topk_out_cuda\" not implemented for 'Bool'"):
        torch.topk(torch.ones(3, dtype=torch.bool, device="cuda"), 1)
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.topk(x, 1, 1)


# ---------------------------------------------------------------------------------------
# kthvalue
# ---------------------------------------------------------------------------------------

def check_kthvalue(x, k, dim=-1, keepdim=False):
    # Both kernels return the element a stable sort puts at position k - 1: indices agree too.
    got = torch.kthvalue(x.cuda(), k, dim, keepdim)
    want = torch.kthvalue(x, k, dim, keepdim)
    assert type(got).__name__ == "kthvalue"
    assert_same(got.values, want.values)
    assert_same(got.indices, want.indices)


@pytest.mark.parametrize("dtype", SELECT_DTYPES, ids=_id)
def test_kthvalue_matches_cpu(dtype):
    x = values(5, 33, dtype=dtype, nan=True, seed=1)
    for k in (1, 2, 17, 32, 33):
        check_kthvalue(x, k)
    for k in (1, 3, 5):
        check_kthvalue(x, k, 0, keepdim=True)
    # The value and the stable sort's index, independently of the CPU kernel.
    v, i = torch.sort(x, stable=True)
    got = x.cuda().kthvalue(9)
    assert_same(got.values, v[:, 8])
    assert_same(got.indices, i[:, 8])


def test_kthvalue_shapes_long_rows_and_layouts():
    y = values(3, 4, 6, dtype=torch.float32, seed=2, nan=True)
    for dim in (0, 1, 2, -1):
        for keepdim in (False, True):
            check_kthvalue(y, 2, dim, keepdim)
    check_kthvalue(y.transpose(0, 2), 3, 1)
    x = values(2, 20000, dtype=torch.float64, high=500, seed=3)
    for k in (1, 777, 10000, 20000):
        check_kthvalue(x, k)
    check_kthvalue(torch.tensor(2.5), 1)
    check_kthvalue(torch.tensor(2.5), 1, 0, True)
    check_kthvalue(torch.empty(2, 0), 1, 0)
    check_kthvalue(torch.empty(0, 3), 3, 1, True)


@pytest.mark.parametrize("call,error,message", [
    (lambda x: torch.kthvalue(x, 0), RuntimeError, "kthvalue(): selected number k out of range for dimension 1"),
    (lambda x: torch.kthvalue(x, 4, 0), RuntimeError, "kthvalue(): selected number k out of range for dimension 0"),
    (lambda x: torch.kthvalue(x, 1, 2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda x: torch.kthvalue(x[:, :0], 1, 1), IndexError,
     "kthvalue(): Expected reduction dim 1 to have non-zero size."),
    (lambda x: torch.kthvalue(x.bool(), 1), NotImplementedError, "\"kthvalue_cuda\" not implemented for 'Bool'"),
])
def test_kthvalue_errors(call, error, message):
    x = torch.ones(3, 4, device="cuda")
    with pytest.raises(error) as info:
        call(x)
    assert str(info.value).splitlines()[0] == message


# ---------------------------------------------------------------------------------------
# unique
# ---------------------------------------------------------------------------------------

def raw_unique(x, dim=None, **kwargs):
    """The operator's three outputs, before torch.unique trims them."""
    if dim is None:
        return torch._unique2(x, **kwargs)
    return torch._C._VariableFunctions.unique_dim(x, dim, **kwargs)


def check_unique(x, **kwargs):
    got = torch.unique(x.cuda(), **kwargs)
    want = torch.unique(x, **kwargs)
    got, want = (got, want) if isinstance(got, tuple) else ((got,), (want,))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w)
    # The shapes of what was not asked for too (empty, or filled for unique_dim).
    for g, w in zip(raw_unique(x.cuda(), **kwargs), raw_unique(x, **kwargs)):
        assert_same(g, w)


@pytest.mark.parametrize("dtype", SORT_DTYPES, ids=_id)
@pytest.mark.parametrize("return_inverse", [False, True])
@pytest.mark.parametrize("return_counts", [False, True])
def test_unique_matches_cpu(dtype, return_inverse, return_counts):
    x = values(6, 25, dtype=dtype, seed=1)
    for sorted_ in (True, False):
        check_unique(x, sorted=sorted_, return_inverse=return_inverse, return_counts=return_counts)


def test_unique_nans_are_distinct_and_zeros_are_one():
    x = torch.tensor([2.0, float("nan"), -0.0, 1.0, 0.0, float("nan"), 2.0, -0.0])
    check_unique(x, return_inverse=True, return_counts=True)
    check_unique(values(40, 30, dtype=torch.float64, nan=True, seed=2), return_inverse=True, return_counts=True)


def test_unique_long_scalar_empty():
    check_unique(values(5000, dtype=torch.int32, high=1000, seed=3), return_inverse=True, return_counts=True)
    check_unique(values(3, 4, 5, dtype=torch.int64, seed=4).transpose(0, 2), return_inverse=True)
    check_unique(torch.tensor(7), return_inverse=True, return_counts=True)
    check_unique(torch.empty(0), return_inverse=True, return_counts=True)
    check_unique(torch.empty(2, 0, dtype=torch.int64), return_inverse=True)


@pytest.mark.parametrize("dtype", [torch.int64, torch.float32, torch.uint8, torch.bool, torch.float16], ids=_id)
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_unique_dim_matches_cpu(dtype, dim):
    x = values(12, 3, dtype=dtype, seed=5, high=2)
    x = torch.cat([x, x[:4]], 0)  # repeated rows for sure
    check_unique(x, dim=dim, return_inverse=True, return_counts=True)
    check_unique(x, dim=dim)
    y = values(6, 2, 3, dtype=dtype, seed=6, high=2)
    check_unique(y, dim=dim, return_inverse=True, return_counts=True)


# ---------------------------------------------------------------------------------------
# gradcheck on CUDA, in double precision
# ---------------------------------------------------------------------------------------

GRADCHECK = {
    "sort": lambda x: torch.sort(x, 1)[0],
    "sort_descending_dim0": lambda x: torch.sort(x, 0, descending=True)[0],
    "topk": lambda x: torch.topk(x, 3, 1)[0],
    "topk_smallest_unsorted": lambda x: torch.topk(x, 2, 0, largest=False, sorted=False)[0],
    "kthvalue": lambda x: torch.kthvalue(x, 2, 1)[0],
    "kthvalue_keepdim": lambda x: torch.kthvalue(x, 3, 0, keepdim=True)[0],
}


@pytest.mark.parametrize("name", sorted(GRADCHECK))
def test_gradcheck_on_cuda(name):
    # Distinct values, far apart against eps: the selection does not change under the probe.
    g = torch.Generator().manual_seed(9)
    x = torch.randperm(20, generator=g).double().view(4, 5).div(3).cuda().requires_grad_()
    assert torch.autograd.gradcheck(GRADCHECK[name], (x,), eps=1e-6, atol=1e-5, rtol=1e-4)
