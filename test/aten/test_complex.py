# test/aten/test_complex.py - complex64/complex128 through the CPU kernels (c10::complex
# arithmetic): elementwise ops, reductions and matmul against numpy, result dtypes, and
# PyTorch's errors for what complex does not support. Mirrors PyTorch's test/test_complex.py
# (+ the complex cases of test_binary_ufuncs/test_unary_ufuncs/test_reductions).
# Guide: docs/source/internals/tensor_iterator.rst.
import math
import operator

import numpy as np
import pytest
import torch

CDTYPES = [(torch.complex64, np.complex64), (torch.complex128, np.complex128)]
TOL = {np.complex64: 2e-5, np.complex128: 1e-12}


def crandn(rng, shape, ndtype):
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(ndtype)


def check(result, expected, ndtype=None, rtol=None):
    expected = np.asarray(expected)
    assert tuple(result.shape) == expected.shape
    if rtol is None:
        rtol = TOL.get(ndtype or expected.dtype.type, 1e-6)
    np.testing.assert_allclose(result.numpy(), expected, rtol=rtol, atol=rtol, equal_nan=True)


def layouts(a):
    """The array as a contiguous tensor and as a transposed (non-contiguous) view of the same values."""
    contiguous = torch.from_numpy(a.copy())
    transposed = torch.from_numpy(np.ascontiguousarray(a.T)).t()
    assert not transposed.is_contiguous()
    return [contiguous, transposed]


# ---- binary arithmetic ---------------------------------------------------------------------

@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
@pytest.mark.parametrize("op, npop", [("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
                                      ("div", np.divide)])
def test_binary_ops_match_numpy(tdtype, ndtype, op, npop):
    rng = np.random.default_rng(0)
    a = crandn(rng, (5, 7), ndtype)
    b = crandn(rng, (5, 7), ndtype)
    for ta in layouts(a):
        for tb in layouts(b):
            result = getattr(torch, op)(ta, tb)
            assert result.dtype == tdtype
            check(result, npop(a, b), ndtype)


@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_add_sub_alpha(tdtype, ndtype):
    rng = np.random.default_rng(1)
    a, b = crandn(rng, (4, 3), ndtype), crandn(rng, (4, 3), ndtype)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    check(torch.add(ta, tb, alpha=2), a + 2 * b, ndtype)
    check(torch.sub(ta, tb, alpha=3), a - 3 * b, ndtype)
    check(torch.add(ta, tb, alpha=1 - 2j), a + (1 - 2j) * b, ndtype)
    check(torch.sub(ta, tb, alpha=0.5j), a - 0.5j * b, ndtype)
    expected = a + 2j * b  # before add_ writes into ta, which shares a's memory
    ta.add_(tb, alpha=2j)
    check(ta, expected, ndtype)


@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_broadcast_with_real_tensors_and_python_numbers(tdtype, ndtype):
    rng = np.random.default_rng(2)
    a = crandn(rng, (3, 4), ndtype)
    real_dtype = np.float32 if ndtype == np.complex64 else np.float64
    r = rng.standard_normal((4,)).astype(real_dtype)
    ta, tr = torch.from_numpy(a), torch.from_numpy(r)
    for op in (operator.add, operator.sub, operator.mul, operator.truediv):
        check(op(ta, tr), op(a, r), ndtype)
        check(op(tr, ta), op(r, a), ndtype)
        assert op(tr, ta).dtype == tdtype
        check(op(ta, 2 - 3j), op(a, ndtype(2 - 3j)), ndtype)
        check(op(1.5j, ta), op(ndtype(1.5j), a), ndtype)
        check(op(ta, 2), op(a, 2), ndtype)
    ints = torch.tensor([1, 2, 3, 4])
    check(ta * ints, a * np.array([1, 2, 3, 4]).astype(real_dtype), ndtype)


def test_result_dtypes():
    assert (torch.ones(2) + 1j).dtype == torch.complex64
    assert (torch.ones(2, dtype=torch.int64) + 1j).dtype == torch.complex64
    assert (torch.ones(2, dtype=torch.float64) + 1j).dtype == torch.complex128
    assert (torch.ones(2, dtype=torch.complex64) + torch.ones(2, dtype=torch.float64)).dtype == torch.complex128
    assert (torch.ones(2, dtype=torch.complex64) * 2.5).dtype == torch.complex64
    assert torch.abs(torch.ones(2, dtype=torch.complex64)).dtype == torch.float32
    assert torch.abs(torch.ones(2, dtype=torch.complex128)).dtype == torch.float64
    assert torch.tensor([1, 2]).sum().dtype == torch.int64
    assert torch.ones(3, dtype=torch.complex64).sum().dtype == torch.complex64
    assert torch.ones(3, dtype=torch.complex128).mean().dtype == torch.complex128
    assert torch.eq(torch.ones(2, dtype=torch.complex64), 1).dtype == torch.bool


def test_values_of_worked_examples():
    # (1+2j)(3-1j) = 5+5j; (1+2j)/(3-1j) = 0.1+0.7j; int tensor + 1j keeps the integers
    z = torch.tensor([1 + 2j]) * torch.tensor([3 - 1j])
    assert z.tolist() == [5 + 5j]
    q = (torch.tensor([1 + 2j], dtype=torch.complex128) / torch.tensor([3 - 1j], dtype=torch.complex128)).item()
    assert abs(q - (0.1 + 0.7j)) < 1e-15
    assert (torch.tensor([1, 2]) + 1j).tolist() == [1 + 1j, 2 + 1j]
    assert (torch.tensor([3 + 4j]).abs()).tolist() == [5.0]


def test_printing_matches_pytorch():
    assert str(torch.tensor([1 + 2j, 3 - 1j]) * 2) == "tensor([2.+4.j, 6.-2.j])"
    assert str(torch.tensor([3 + 4j, 1 - 1j]).abs()) == "tensor([5.0000, 1.4142])"
    assert str(torch.tensor([1 + 1j], dtype=torch.complex128) / 2) == "tensor([0.5000+0.5000j], dtype=torch.complex128)"


def test_division_by_large_complex_does_not_overflow():
    big = torch.tensor([1e300 + 1e300j], dtype=torch.complex128)
    assert (big / big).tolist() == [1 + 0j]


# ---- unary --------------------------------------------------------------------------------------

UNARY = [
    ("neg", np.negative), ("reciprocal", np.reciprocal), ("exp", np.exp), ("log", np.log), ("sqrt", np.sqrt),
    ("sin", np.sin), ("cos", np.cos), ("tan", np.tan), ("tanh", np.tanh),
    ("sigmoid", lambda z: 1 / (1 + np.exp(-z))), ("rsqrt", lambda z: 1 / np.sqrt(z)),
]


@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
@pytest.mark.parametrize("op, npop", UNARY, ids=[u[0] for u in UNARY])
def test_unary_ops_match_numpy(tdtype, ndtype, op, npop):
    rng = np.random.default_rng(3)
    a = crandn(rng, (4, 6), ndtype)
    for ta in layouts(a):
        result = getattr(torch, op)(ta)
        assert result.dtype == tdtype
        check(result, npop(a).astype(ndtype), ndtype)
    # the method and in-place forms
    t = torch.from_numpy(a.copy())
    check(getattr(t, op)(), npop(a).astype(ndtype), ndtype)
    getattr(t, op + "_")()
    check(t, npop(a).astype(ndtype), ndtype)


def test_branch_cuts_and_special_values():
    z = torch.tensor([-1 + 0j, -4 + 0j, 1j], dtype=torch.complex128)
    np.testing.assert_allclose(torch.log(z).numpy(), [math.pi * 1j, math.log(4) + math.pi * 1j, math.pi / 2 * 1j])
    np.testing.assert_allclose(torch.sqrt(z).numpy(), [1j, 2j, (1 + 1j) / math.sqrt(2)])
    np.testing.assert_allclose(torch.exp(torch.tensor([math.pi * 1j], dtype=torch.complex128)).numpy(), [-1 + 0j],
                               atol=1e-15)


@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_abs_returns_real_dtype(tdtype, ndtype):
    rng = np.random.default_rng(4)
    a = crandn(rng, (3, 5), ndtype)
    real = torch.float32 if tdtype == torch.complex64 else torch.float64
    for ta in layouts(a):
        result = torch.abs(ta)
        assert result.dtype == real
        check(result, np.abs(a), ndtype)
        assert ta.abs().dtype == real
    out = torch.empty(0, dtype=real)
    torch.abs(torch.from_numpy(a), out=out)
    check(out, np.abs(a), ndtype)
    # an out= of the complex dtype holds |z| + 0j, as in PyTorch
    cout = torch.empty(3, 5, dtype=tdtype)
    torch.abs(torch.from_numpy(a), out=cout)
    check(cout, np.abs(a).astype(ndtype), ndtype)


def test_abs_in_place_on_complex_is_refused():
    with pytest.raises(RuntimeError, match="In-place abs is not supported for complex tensors."):
        torch.tensor([3 + 4j]).abs_()


@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_isnan_isinf_isfinite(tdtype, ndtype):
    inf, nan = float("inf"), float("nan")
    vals = [1 + 1j, complex(nan, 0), complex(0, nan), complex(inf, 0), complex(0, -inf), complex(inf, nan), 0j]
    t = torch.tensor(vals, dtype=tdtype)
    a = np.array(vals, dtype=ndtype)
    assert torch.isnan(t).tolist() == np.isnan(a).tolist()
    assert torch.isinf(t).tolist() == np.isinf(a).tolist()
    assert torch.isfinite(t).tolist() == np.isfinite(a).tolist()
    assert t.isfinite().dtype == torch.bool


def test_isfinite_on_real_tensors():
    assert torch.isfinite(torch.tensor([1.0, float("inf"), float("nan"), -float("inf")])).tolist() == [
        True, False, False, False]
    assert torch.isfinite(torch.tensor([1, 2])).tolist() == [True, True]


# ---- pow ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_pow(tdtype, ndtype):
    rng = np.random.default_rng(5)
    a, b = crandn(rng, (3, 4), ndtype), crandn(rng, (3, 4), ndtype)
    rtol = 1e-4 if ndtype == np.complex64 else 1e-12
    for ta in layouts(a):
        check(torch.pow(ta, torch.from_numpy(b)), a ** b, rtol=rtol)
        for e in (2, 0.5, -1, 3, 1.5 - 0.5j, 2j):
            check(torch.pow(ta, e), a ** ndtype(e), rtol=rtol)
    r = np.abs(rng.standard_normal((4,))) + 0.5
    check(torch.pow(torch.from_numpy(r), torch.tensor(1j)), (r ** 1j).astype(np.complex128), rtol=1e-12)
    assert (torch.tensor([1, 2]) ** 1j).dtype == torch.complex64
    check(torch.pow(torch.tensor([1, 2]), 1j), np.array([1, 2]) ** np.complex64(1j), rtol=1e-5)


# ---- comparisons ----------------------------------------------------------------------------------

@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_eq_ne(tdtype, ndtype):
    a = np.array([1 + 2j, 3 - 1j, 0j, 2 + 0j], dtype=ndtype)
    b = np.array([1 + 2j, 3 + 1j, 0j, 2 + 1j], dtype=ndtype)
    ta, tb = torch.from_numpy(a), torch.from_numpy(b)
    assert torch.eq(ta, tb).tolist() == [True, False, True, False]
    assert torch.ne(ta, tb).tolist() == [False, True, False, True]
    assert (ta == 2).tolist() == [False, False, False, True]
    assert (ta != 3 - 1j).tolist() == [True, False, True, True]
    assert torch.eq(ta, torch.tensor([1.0, 3.0, 0.0, 2.0])).tolist() == [False, False, True, True]


def test_where_and_masked_fill_keep_complex():
    z = torch.tensor([1 + 1j, 2 - 2j, 3j])
    mask = torch.tensor([True, False, True])
    assert torch.where(mask, z, torch.zeros(3, dtype=torch.complex64)).tolist() == [1 + 1j, 0j, 3j]
    assert z.masked_fill(mask, 5j).tolist() == [5j, 2 - 2j, 5j]


@pytest.mark.parametrize("op", ["lt", "le", "gt", "ge"])
def test_ordering_comparisons_refuse_complex(op):
    z = torch.tensor([1 + 1j, 2 - 2j])
    with pytest.raises(NotImplementedError, match=f'"{op}_cpu" not implemented for \'ComplexFloat\''):
        getattr(torch, op)(z, z)
    with pytest.raises(NotImplementedError, match=f'"{op}_cpu" not implemented for \'ComplexDouble\''):
        getattr(torch, op)(z.to(torch.complex128), 1)


@pytest.mark.parametrize("mode", ["floor", "trunc"])
def test_rounding_division_refuses_complex(mode):
    with pytest.raises(NotImplementedError, match=f'"div_{mode}_cpu" not implemented for \'ComplexFloat\''):
        torch.tensor([1 + 1j, 2 - 2j]).div(2, rounding_mode=mode)


def test_other_unsupported_complex_errors():
    z = torch.tensor([3 + 4j, 1 - 1j])
    with pytest.raises(NotImplementedError, match="\"remainder_cpu\" not implemented for 'ComplexFloat'"):
        z % 2
    with pytest.raises(NotImplementedError, match="\"fmod_cpu\" not implemented for 'ComplexFloat'"):
        z.fmod(2)
    with pytest.raises(NotImplementedError, match="\"atan2_cpu\" not implemented for 'ComplexFloat'"):
        torch.atan2(z, z)
    with pytest.raises(RuntimeError, match="maximum not implemented for complex tensors."):
        torch.maximum(z, z)
    with pytest.raises(RuntimeError, match="minimum not implemented for complex tensors."):
        torch.minimum(z, z)
    with pytest.raises(NotImplementedError, match="\"max_all\" not implemented for 'ComplexFloat'"):
        z.max()
    with pytest.raises(NotImplementedError, match="clamp is not supported for complex types"):
        z.clamp(0, 1)
    with pytest.raises(NotImplementedError, match="\"bitwise_not_cpu\" not implemented for 'ComplexFloat'"):
        z.bitwise_not()
    with pytest.raises(RuntimeError, match="For non-complex input tensors, argument alpha must not be a complex number."):
        torch.ones(2).add(torch.ones(2), alpha=1j)


# ---- reductions -----------------------------------------------------------------------------------

@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_sum_mean_prod(tdtype, ndtype):
    rng = np.random.default_rng(6)
    a = crandn(rng, (6, 300), ndtype)
    rtol = 1e-4 if ndtype == np.complex64 else 1e-12
    for ta in layouts(a):
        check(ta.sum(), a.sum(), rtol=rtol)
        check(ta.sum(1), a.sum(1), rtol=rtol)
        check(ta.sum(0, keepdim=True), a.sum(0, keepdims=True), rtol=rtol)
        check(ta.mean(), a.mean(), rtol=rtol)
        check(ta.mean(0), a.mean(0), rtol=rtol)
        assert ta.sum().dtype == tdtype and ta.mean(1).dtype == tdtype
    small = crandn(rng, (3, 5), ndtype)
    for ts in layouts(small):
        check(ts.prod(), small.prod(), rtol=rtol)
        check(ts.prod(1), small.prod(1), rtol=rtol)
        assert ts.prod().dtype == tdtype


def test_sum_of_worked_values():
    assert torch.tensor([1 + 2j, 3 - 1j, -4j]).sum().item() == 4 - 3j
    assert torch.tensor([1j, 1j, 1j, 1j]).prod().item() == 1 + 0j
    assert torch.tensor([1 + 1j, 3 + 3j]).mean().item() == 2 + 2j


@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_cumsum_cumprod(tdtype, ndtype):
    rng = np.random.default_rng(7)
    a = crandn(rng, (4, 5), ndtype)
    for ta in layouts(a):
        for dim in (0, 1):
            check(torch.cumsum(ta, dim), np.cumsum(a, dim), ndtype)
            check(torch.cumprod(ta, dim), np.cumprod(a, dim), ndtype)
            assert torch.cumsum(ta, dim).dtype == tdtype


# ---- matmul ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
@pytest.mark.parametrize("m, k, n", [(3, 4, 5), (70, 300, 65)])
def test_mm_matches_numpy(tdtype, ndtype, m, k, n):
    rng = np.random.default_rng(8)
    a, b = crandn(rng, (m, k), ndtype), crandn(rng, (k, n), ndtype)
    rtol = 1e-4 if ndtype == np.complex64 else 1e-12
    for ta in layouts(a):
        for tb in layouts(b):
            result = torch.mm(ta, tb)
            assert result.dtype == tdtype
            check(result, a @ b, rtol=rtol)
            check(ta @ tb, a @ b, rtol=rtol)
    # a strided operand no BLAS can read in place (every other column): the blocked loop
    wide = crandn(rng, (k, 2 * n), ndtype)
    strided = torch.from_numpy(wide)[:, ::2]
    assert strided.stride() == (2 * n, 2)
    check(torch.mm(torch.from_numpy(a), strided), a @ wide[:, ::2], rtol=rtol)


@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_bmm_mv_dot_matmul(tdtype, ndtype):
    rng = np.random.default_rng(9)
    rtol = 1e-4 if ndtype == np.complex64 else 1e-12
    a, b = crandn(rng, (2, 3, 4), ndtype), crandn(rng, (2, 4, 5), ndtype)
    check(torch.bmm(torch.from_numpy(a), torch.from_numpy(b)), a @ b, rtol=rtol)
    check(torch.matmul(torch.from_numpy(a), torch.from_numpy(b)), a @ b, rtol=rtol)
    m, v, w = crandn(rng, (3, 4), ndtype), crandn(rng, (4,), ndtype), crandn(rng, (4,), ndtype)
    for tm in layouts(m):
        check(torch.mv(tm, torch.from_numpy(v)), m @ v, rtol=rtol)
        check(torch.matmul(tm, torch.from_numpy(v)), m @ v, rtol=rtol)
    # dot does not conjugate (numpy's dot, not vdot)
    d = torch.dot(torch.from_numpy(v), torch.from_numpy(w))
    assert d.dtype == tdtype and d.dim() == 0
    check(d, np.dot(v, w), rtol=rtol)
    check(torch.matmul(torch.from_numpy(v), torch.from_numpy(w)), np.dot(v, w), rtol=rtol)


def test_mm_worked_value():
    a = torch.tensor([[1 + 1j, 2j], [0j, 1 + 0j]])
    b = torch.tensor([[1 - 1j], [1j]])
    # row 0: (1+1j)(1-1j) + 2j*1j = 2 - 2 = 0; row 1: 0 + 1j
    assert torch.mm(a, b).tolist() == [[0j], [1j]]
