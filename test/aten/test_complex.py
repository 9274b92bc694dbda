# test/aten/test_complex.py - complex64/complex128 through the CPU kernels (c10::complex
# arithmetic): elementwise ops, reductions and matmul against numpy, result dtypes, and
# PyTorch's errors for what complex does not support. Mirrors PyTorch's test/test_complex.py
# (+ the complex cases of test_binary_ufuncs/test_unary_ufuncs/test_reductions).
# Guide: docs/source/internals/tensor_iterator.rst.
import math
import operator
import warnings

import numpy as np
import pytest
import torch

CDTYPES = [(torch.complex64, np.complex64), (torch.complex128, np.complex128)]
TOL = {np.complex64: 2e-5, np.complex128: 1e-12}
REAL = {torch.complex64: torch.float32, torch.complex128: torch.float64}


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


# ---- log1p, std/var, norm, scatter, index_put, sgn, angle -----------------------------------------

@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_log1p_matches_numpy_and_keeps_precision_near_zero(tdtype, ndtype):
    rng = np.random.default_rng(7)
    a = crandn(rng, (4, 5), ndtype)
    for t in layouts(a):
        check(torch.log1p(t), np.log1p(a), ndtype)
    tiny = torch.tensor([1e-10 + 1e-10j], dtype=tdtype)
    # log1p(z) ~ z for small z; log(1 + z) would round 1 + 1e-10 away in complex64
    check(torch.log1p(tiny), np.array([1e-10 + 1e-10j]), ndtype, rtol=1e-5)
    check(torch.log1p(torch.tensor([1 + 2j], dtype=tdtype)), np.array([1.0397208 + 0.7853982j]), ndtype, rtol=1e-6)


@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_std_var_of_complex_are_real(tdtype, ndtype):
    rng = np.random.default_rng(8)
    a = crandn(rng, (6, 5), ndtype)
    real = np.float32 if ndtype == np.complex64 else np.float64
    for t in layouts(a):
        assert t.var().dtype == REAL[tdtype]
        check(t.var(), np.var(a, ddof=1), real, rtol=TOL[ndtype] * 10)
        check(t.std(1), np.std(a, axis=1, ddof=1), real, rtol=TOL[ndtype] * 10)
        check(t.var(0, correction=0, keepdim=True), np.var(a, axis=0, keepdims=True), real, rtol=TOL[ndtype] * 10)
    var, mean = torch.var_mean(torch.from_numpy(a), 0)
    assert var.dtype == REAL[tdtype] and mean.dtype == tdtype
    check(mean, a.mean(0), ndtype, rtol=TOL[ndtype] * 10)


def test_std_var_of_worked_complex_values():
    z = torch.tensor([1 + 2j, -3 + 0.5j, 0j])
    assert z.var().item() == pytest.approx(5.4167, abs=1e-4)
    assert z.std().item() == pytest.approx(2.3274, abs=1e-4)
    assert z.var(unbiased=False).dtype == torch.float32


@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_norm_of_complex_is_real(tdtype, ndtype):
    rng = np.random.default_rng(9)
    a = crandn(rng, (3, 4), ndtype)
    t = torch.from_numpy(a)
    assert t.norm().dtype == REAL[tdtype]
    check(t.norm(), np.linalg.norm(a), ndtype, rtol=1e-5)
    check(t.norm(dim=0), np.linalg.norm(a, axis=0), ndtype, rtol=1e-5)
    check(t.norm(p=1), np.abs(a).sum(), ndtype, rtol=1e-5)
    check(t.norm(p=float("inf")), np.abs(a).max(), ndtype, rtol=1e-5)
    z = torch.tensor([1 + 2j, -3 + 0.5j, 0j])
    assert z.norm().item() == pytest.approx(3.7749, abs=1e-4)


@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_scatter_and_scatter_add_take_complex(tdtype, ndtype):
    src = torch.tensor([1 + 2j, -3 + 0.5j, 0j], dtype=tdtype)
    out = torch.zeros(3, dtype=tdtype).scatter_(0, torch.tensor([2, 0, 1]), src)
    check(out, np.array([-3 + 0.5j, 0j, 1 + 2j]), ndtype)
    out = torch.zeros(3, dtype=tdtype).scatter_add_(0, torch.tensor([0, 0, 1]), src)
    check(out, np.array([-2 + 2.5j, 0j, 0j]), ndtype)
    out = torch.ones(3, dtype=tdtype).scatter_(0, torch.tensor([1]), 2 - 1j)
    check(out, np.array([1, 2 - 1j, 1]), ndtype)


@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_index_put_accumulate_takes_complex(tdtype, ndtype):
    values = torch.tensor([1 + 2j, -3 + 0.5j, 1j], dtype=tdtype)
    out = torch.zeros(3, dtype=tdtype).index_put_((torch.tensor([0, 0, 2]),), values, accumulate=True)
    check(out, np.array([-2 + 2.5j, 0j, 1j]), ndtype)


@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_sgn_is_z_over_abs_z(tdtype, ndtype):
    rng = np.random.default_rng(10)
    a = crandn(rng, (3, 4), ndtype)
    a[0, 0] = 0
    for t in layouts(a):
        expected = np.where(a == 0, 0, a / np.where(a == 0, 1, np.abs(a)))
        check(torch.sgn(t), expected, ndtype)
    z = torch.tensor([3 + 4j, 0j], dtype=tdtype)
    assert z.sgn_() is z
    check(z, np.array([0.6 + 0.8j, 0j]), ndtype)


def test_sgn_of_real_tensors_is_sign():
    assert torch.sgn(torch.tensor([-2.0, 0.0, 3.0])).tolist() == [-1.0, 0.0, 1.0]
    assert torch.sgn(torch.tensor([-2, 0, 3])).tolist() == [-1, 0, 1]
    assert torch.sgn(torch.tensor([True, False])).tolist() == [True, False]


def test_sign_refuses_complex():
    with pytest.raises(NotImplementedError, match="Unlike NumPy, torch.sign is not intended to support complex "
                                                  "numbers. Please use torch.sgn instead."):
        torch.tensor([1 + 1j]).sign()


@pytest.mark.parametrize("tdtype, ndtype", CDTYPES)
def test_angle_matches_numpy(tdtype, ndtype):
    rng = np.random.default_rng(11)
    a = crandn(rng, (3, 4), ndtype)
    for t in layouts(a):
        r = torch.angle(t)
        assert r.dtype == REAL[tdtype]
        check(r, np.angle(a), ndtype)
    out = torch.empty(2, dtype=tdtype)
    torch.angle(torch.tensor([1j, -1], dtype=tdtype), out=out)
    check(out, np.array([np.pi / 2, np.pi]), ndtype)


def test_angle_of_real_tensors():
    r = torch.tensor([-1.0, 2.0, 0.0, -0.0, float("nan")]).angle()
    assert r.dtype == torch.float32
    np.testing.assert_allclose(r.numpy(), [math.pi, 0, 0, 0, float("nan")], rtol=1e-6)
    assert torch.tensor([-1, 2], dtype=torch.int8).angle().dtype == torch.float32
    assert torch.tensor([-1.0], dtype=torch.float64).angle().item() == math.pi
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.angle(torch.tensor([-1.0]), out=torch.empty(1, dtype=torch.long))
    assert not hasattr(torch.Tensor, "angle_")


# ---- complex32 (torch.chalf): what PyTorch's CPU kernels take, and their errors for the rest -------

def chalf(values):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "ComplexHalf support is experimental ..."
        return torch.tensor(values, dtype=torch.chalf)


def test_chalf_add_sub_mul_neg_in_complex_float_rounded_once():
    a = chalf([1 + 2j, 3 - 1j])
    assert a.dtype == torch.complex32 and a.element_size() == 4
    assert (a + a).tolist() == [2 + 4j, 6 - 2j]
    assert (a - chalf([1j, 1j])).tolist() == [1 + 1j, 3 - 2j]
    assert (a * a).tolist() == [-3 + 4j, 8 - 6j]
    assert torch.add(a, a, alpha=2).tolist() == [3 + 6j, 9 - 3j]
    assert (-a).tolist() == [-1 - 2j, -3 + 1j]
    assert (a + 1).dtype == torch.complex32
    assert repr(a) == "tensor([1.+2.j, 3.-1.j], dtype=torch.complex32)"


def test_chalf_promotes_with_other_dtypes_to_complex64():
    a = chalf([1 + 2j, 3 - 1j])
    assert (a + torch.tensor([1 + 1j])).tolist() == [2 + 3j, 4 + 0j]
    assert (a + torch.ones(2)).dtype == torch.complex64
    assert a.to(torch.complex64).tolist() == [1 + 2j, 3 - 1j]


def test_chalf_abs_is_half_and_sgn_eq_ne_work():
    a = chalf([3 + 4j, 0j])
    assert a.abs().dtype == torch.float16 and a.abs().tolist() == [5.0, 0.0]
    assert np.allclose(a.sgn().tolist(), [0.6 + 0.8j, 0j], atol=1e-3)
    assert (a == a).tolist() == [True, True] and (a != a).tolist() == [False, False]
    assert a.isnan().tolist() == [False, False]
    assert a[0].item() == 3 + 4j


@pytest.mark.parametrize("fn, name", [
    (lambda a: a / a, "div_cpu"),
    (torch.exp, "exp_vml_cpu"),
    (torch.log, "log_vml_cpu"),
    (torch.sqrt, "sqrt_vml_cpu"),
    (torch.sin, "sin_vml_cpu"),
    (torch.rsqrt, "rsqrt_cpu"),
    (torch.reciprocal, "reciprocal_cpu"),
    (torch.angle, "angle_cpu"),
    (torch.sum, "sum_cpu"),
    (torch.prod, "prod_out_cpu"),
    (lambda a: a.view(2, 1) @ a.view(1, 2), "addmm_impl_cpu_"),
])
def test_chalf_refuses_what_pytorch_cpu_refuses(fn, name):
    a = chalf([1 + 2j, 3 - 1j])
    with pytest.raises(NotImplementedError, match=f"^\"{name}\" not implemented for 'ComplexHalf'$"):
        fn(a)
