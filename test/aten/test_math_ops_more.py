# test/aten/test_math_ops_more.py - copysign, frac, gcd, lcm, heaviside, hypot, logaddexp(2), logit,
# signbit, square, true_divide, expm1, exp2, fmax, fmin: values against numpy, dtype promotion,
# out= and in-place forms, errors whose type and text were taken from PyTorch 2.13, gradients
# (gradcheck in float64) and Hypothesis properties. Mirrors parts of PyTorch's
# test/test_binary_ufuncs.py and test/test_unary_ufuncs.py.
# Guide: docs/source/internals/programs/native_ops.rst.
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torch

F = torch.tensor([1.5, -2.0, 0.0, -0.0, 3.25, -7.5])
G = torch.tensor([-1.0, 4.0, -3.0, 2.0, 0.5, -0.25])
I = torch.tensor([4, 6, -9])


def np_of(t):
    return t.detach().numpy()


# ---- values against numpy ----

@pytest.mark.parametrize("name, ref", [
    ("copysign", np.copysign), ("hypot", np.hypot), ("logaddexp", np.logaddexp),
    ("logaddexp2", np.logaddexp2), ("fmax", np.fmax), ("fmin", np.fmin), ("true_divide", np.true_divide),
])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_binary_float_values(name, ref, dtype):
    a, b = F.to(dtype), G.to(dtype)
    got = getattr(torch, name)(a, b)
    assert got.dtype == dtype
    np.testing.assert_allclose(np_of(got), ref(np_of(a), np_of(b)), rtol=1e-6 if dtype == torch.float32 else 1e-13)
    # the method form and broadcasting (a column against a row)
    got2 = getattr(a.reshape(6, 1), name)(b.reshape(1, 6))
    np.testing.assert_allclose(np_of(got2), ref(np_of(a).reshape(6, 1), np_of(b).reshape(1, 6)), rtol=1e-6)


def test_copysign_signed_zero_and_nan():
    got = torch.copysign(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([-0.0, 0.0, float("-nan")]))
    assert got.tolist() == [-1.0, 2.0, -3.0]
    assert torch.copysign(torch.tensor([1.5, -2.0]), -1).tolist() == [-1.5, -2.0]


@pytest.mark.parametrize("name, ref", [("gcd", np.gcd), ("lcm", np.lcm)])
@pytest.mark.parametrize("dtype", [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8])
def test_gcd_lcm_values(name, ref, dtype):
    a = torch.tensor([0, 4, 12, 7, 0, 9, 10], dtype=dtype)
    b = torch.tensor([0, 6, 18, 5, 3, 0, 10], dtype=dtype)
    if dtype.is_signed:
        a = a * torch.tensor([1, -1, 1, 1, -1, 1, -1], dtype=dtype)
    got = getattr(torch, name)(a, b)
    assert got.dtype == dtype
    np.testing.assert_array_equal(np_of(got), ref(np_of(a), np_of(b)))


def test_heaviside_values():
    x = torch.tensor([-1.5, 0.0, 2.0, -0.0])
    np.testing.assert_array_equal(np_of(torch.heaviside(x, torch.tensor([7.0]))),
                                  np.heaviside(np_of(x), 7.0))
    assert torch.heaviside(torch.tensor([0, 1, -2]), torch.tensor(7)).tolist() == [7, 1, 0]
    assert torch.heaviside(torch.tensor([True, False]), torch.tensor([False, True])).tolist() == [True, True]


def test_logaddexp_extremes():
    inf = float("inf")
    got = torch.logaddexp(torch.tensor([inf, -inf, 1000.0, -1000.0]), torch.tensor([inf, -inf, 1000.0, -1000.0]))
    np.testing.assert_allclose(np_of(got), [inf, -inf, 1000.0 + math.log(2), -1000.0 + math.log(2)], rtol=1e-6)
    assert torch.logaddexp2(torch.tensor([3.0]), torch.tensor([3.0])).item() == 4.0


@pytest.mark.parametrize("name, ref", [
    ("frac", lambda x: x - np.trunc(x)), ("expm1", np.expm1), ("exp2", np.exp2), ("square", np.square),
])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_unary_values(name, ref, dtype):
    x = torch.tensor([-2.75, -1e-9, 0.0, 0.5, 1.25, 9.5], dtype=dtype)
    got = getattr(torch, name)(x)
    assert got.dtype == dtype
    np.testing.assert_allclose(np_of(got), ref(np_of(x)), rtol=1e-6)
    np.testing.assert_allclose(np_of(getattr(x, name)()), ref(np_of(x)), rtol=1e-6)


def test_expm1_exp2_complex():
    z = torch.tensor([1 + 1j, -0.5 + 2j, 1e-8 - 1e-8j], dtype=torch.complex128)
    np.testing.assert_allclose(np_of(torch.expm1(z)), np.expm1(np_of(z)), rtol=1e-12)
    np.testing.assert_allclose(np_of(torch.exp2(z)), np.exp2(np_of(z)), rtol=1e-12)


def test_frac_inf_is_nan():
    got = torch.frac(torch.tensor([-1.5, 2.25, float("inf")]))
    assert got[:2].tolist() == [-0.5, 0.25] and math.isnan(got[2].item())


def test_logit_values():
    p = torch.tensor([0.0, 0.1, 0.5, 0.9, 1.0, 1.5], dtype=torch.float64)
    got = np_of(torch.logit(p))
    with np.errstate(divide="ignore", invalid="ignore"):
        want = np.log(np_of(p) / (1 - np_of(p)))
    np.testing.assert_allclose(got, want)
    # eps clamps into [eps, 1 - eps] (values recorded from PyTorch 2.13)
    got = torch.logit(torch.tensor([0.0, 0.1, 0.5, 1.0]), eps=0.2)
    np.testing.assert_allclose(np_of(got), [-1.3862943649291992, -1.3862943649291992, 0.0, 1.3862944841384888],
                               rtol=1e-7)
    assert torch.logit(torch.tensor([True, False])).tolist() == [math.inf, -math.inf]


def test_signbit_values():
    x = torch.tensor([-0.0, 0.0, -1.0, float("nan"), -float("nan"), float("-inf")])
    assert torch.signbit(x).tolist() == [True, False, True, False, True, True]
    assert torch.signbit(I).tolist() == [False, False, True]
    assert torch.signbit(torch.tensor([True, False])).tolist() == [False, False]
    assert torch.signbit(torch.tensor([0, 200], dtype=torch.uint8)).tolist() == [False, False]
    assert torch.signbit(x).dtype == torch.bool


# ---- dtype promotion (PyTorch 2.13's results) ----

@pytest.mark.parametrize("call, dtype, values", [
    (lambda: torch.copysign(I, I), torch.float32, [4.0, 6.0, -9.0]),
    (lambda: torch.copysign(torch.tensor([True, False]), torch.tensor([True, False])), torch.float32, [1.0, 0.0]),
    (lambda: torch.copysign(I, 2), torch.float32, [4.0, 6.0, 9.0]),
    (lambda: torch.hypot(I, F[:3]), torch.float32, [4.27200174331665, 6.324555397033691, 9.0]),
    (lambda: torch.fmax(I, I), torch.int64, [4, 6, -9]),
    (lambda: torch.fmax(I, torch.tensor(2)), torch.int64, [4, 6, 2]),
    (lambda: torch.fmin(torch.tensor([True, False]), torch.tensor([False, False])), torch.bool, [False, False]),
    (lambda: torch.heaviside(I, torch.tensor(2)), torch.int64, [1, 1, 0]),
    (lambda: torch.gcd(I, torch.tensor(2)), torch.int64, [2, 2, 1]),
    (lambda: torch.true_divide(I, 2), torch.float32, [2.0, 3.0, -4.5]),
    (lambda: torch.square(I), torch.int64, [16, 36, 81]),
    (lambda: torch.square(torch.tensor([True, False])), torch.int64, [1, 0]),
    (lambda: torch.square(torch.tensor([1, 2], dtype=torch.int8)), torch.int8, [1, 4]),
    (lambda: torch.expm1(torch.tensor([True, False])), torch.float32, [1.718281865119934, 0.0]),
    (lambda: torch.exp2(I), torch.float32, [16.0, 64.0, 0.001953125]),
    (lambda: torch.logit(torch.tensor([0])), torch.float32, [-math.inf]),
    (lambda: torch.logaddexp(F[:2], F[:2].double()), torch.float64, [2.1931471805599454, -1.3068528194400546]),
])
def test_promotion(call, dtype, values):
    got = call()
    assert got.dtype == dtype
    np.testing.assert_allclose(np.asarray(got.tolist(), dtype=np.float64), values, rtol=1e-6)


# ---- errors (type and text of PyTorch 2.13) ----

@pytest.mark.parametrize("call, exc, msg", [
    (lambda: torch.gcd(F, F), NotImplementedError, "\"gcd_cpu\" not implemented for 'Float'"),
    (lambda: torch.lcm(I, F[:3]), NotImplementedError, "\"lcm_cpu\" not implemented for 'Float'"),
    (lambda: torch.gcd(torch.tensor([True]), torch.tensor([True])), NotImplementedError,
     "\"gcd_cpu\" not implemented for 'Bool'"),
    (lambda: torch.hypot(I, I), NotImplementedError, "\"hypot_cpu\" not implemented for 'Long'"),
    (lambda: torch.logaddexp(I, I), NotImplementedError, "\"logaddexp_cpu\" not implemented for 'Long'"),
    (lambda: torch.logaddexp2(I, I), NotImplementedError, "\"logaddexp2_cpu\" not implemented for 'Long'"),
    (lambda: torch.frac(I), NotImplementedError, "\"frac_cpu\" not implemented for 'Long'"),
    (lambda: torch.heaviside(I, F[:3]), RuntimeError, "heaviside is not yet implemented for tensors with different dtypes."),
    (lambda: torch.heaviside(F, F.double()), RuntimeError,
     "heaviside is not yet implemented for tensors with different dtypes."),
    (lambda: torch.fmax(torch.tensor([1j]), torch.tensor([1j])), RuntimeError, "fmax not implemented for complex tensors."),
    (lambda: torch.fmin(torch.tensor([1j]), torch.tensor([1j])), RuntimeError, "fmin not implemented for complex tensors."),
    (lambda: torch.signbit(torch.tensor([1 + 1j])), RuntimeError, "signbit is not implemented for complex tensors."),
    (lambda: torch.signbit(F, out=torch.empty(6)), RuntimeError, "signbit does not support non-boolean outputs."),
    (lambda: I.clone().copysign_(F[:3]), RuntimeError, "result type Float can't be cast to the desired output type Long"),
    (lambda: I.clone().logit_(), RuntimeError, "result type Float can't be cast to the desired output type Long"),
    (lambda: I.clone().true_divide_(2), RuntimeError, "result type Float can't be cast to the desired output type Long"),
    (lambda: torch.tensor([True]).square_(), RuntimeError, "result type Long can't be cast to the desired output type Bool"),
    (lambda: torch.hypot(F, G[:2]), RuntimeError, "The size of tensor a (6) must match the size of tensor b (2)"),
])
def test_errors(call, exc, msg):
    with pytest.raises(exc) as info:
        call()
    assert msg in str(info.value)


# ---- out= and in-place forms ----

@pytest.mark.parametrize("name", ["copysign", "hypot", "logaddexp", "logaddexp2", "fmax", "fmin", "true_divide"])
def test_binary_out(name):
    out = torch.empty(0)
    r = getattr(torch, name)(F, G, out=out)
    assert r is out
    np.testing.assert_array_equal(np_of(out), np_of(getattr(torch, name)(F, G)))


@pytest.mark.parametrize("name", ["copysign", "hypot", "heaviside", "true_divide"])
def test_binary_inplace(name):
    x = F.clone()
    v = x._version
    r = getattr(x, name + "_")(G)
    assert r is x and x._version == v + 1
    np.testing.assert_array_equal(np_of(x), np_of(getattr(torch, name)(F, G)))


def test_gcd_lcm_inplace_and_function_forms():
    a = torch.tensor([12, 18])
    torch.gcd_(a, torch.tensor([8, 12]))
    assert a.tolist() == [4, 6]
    a.lcm_(torch.tensor([6, 4]))
    assert a.tolist() == [12, 12]
    out = torch.empty(2, dtype=torch.long)
    torch.gcd(torch.tensor([9, 10]), torch.tensor([6, 4]), out=out)
    assert out.tolist() == [3, 2]


@pytest.mark.parametrize("name", ["frac", "expm1", "exp2", "logit", "square"])
def test_unary_out_and_inplace(name):
    x = torch.tensor([0.25, 0.5, 0.75])
    want = getattr(torch, name)(x)
    out = torch.empty(3)
    assert getattr(torch, name)(x, out=out) is out
    np.testing.assert_array_equal(np_of(out), np_of(want))
    y = x.clone()
    assert getattr(y, name + "_")() is y
    np.testing.assert_array_equal(np_of(y), np_of(want))
    z = x.clone()
    getattr(torch, name + "_")(z)
    np.testing.assert_array_equal(np_of(z), np_of(want))


def test_logit_inplace_eps_and_out_eps():
    x = torch.tensor([0.0, 0.5, 1.0])
    out = torch.empty(3)
    torch.logit(x, 0.25, out=out)
    np.testing.assert_array_equal(np_of(out), np_of(torch.logit(x, eps=0.25)))
    x.logit_(eps=0.25)
    np.testing.assert_array_equal(np_of(x), np_of(out))


def test_copysign_scalar_out_and_signbit_out():
    out = torch.empty(2)
    torch.copysign(torch.tensor([1.0, -2.0]), -3, out=out)
    assert out.tolist() == [-1.0, -2.0]
    bout = torch.empty(0, dtype=torch.bool)
    torch.signbit(torch.tensor([-1.0, 2.0]), out=bout)
    assert bout.tolist() == [True, False]


# ---- gradients ----

def d(*values):
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)


@pytest.mark.parametrize("fn, inputs", [
    (torch.copysign, lambda: (d(1.5, -2.0, 0.7), d(-1.0, 3.0, -0.2))),
    (lambda a: torch.copysign(a, -2.0), lambda: (d(1.5, -2.0, 0.7),)),
    (torch.frac, lambda: (d(1.25, -2.6, 0.3),)),
    (torch.hypot, lambda: (d(1.5, -2.0, 0.7), d(-1.0, 3.0, -0.2))),
    (torch.logaddexp, lambda: (d(1.5, -2.0, 0.7), d(-1.0, 3.0, -0.2))),
    (torch.logaddexp2, lambda: (d(1.5, -2.0, 0.7), d(-1.0, 3.0, -0.2))),
    (torch.fmax, lambda: (d(1.5, -2.0, 0.7), d(-1.0, 3.0, -0.2))),
    (torch.fmin, lambda: (d(1.5, -2.0, 0.7), d(-1.0, 3.0, -0.2))),
    (torch.true_divide, lambda: (d(1.5, -2.0, 0.7), d(-1.0, 3.0, -0.2))),
    (torch.square, lambda: (d(1.5, -2.0, 0.7),)),
    (torch.expm1, lambda: (d(1.5, -2.0, 0.7),)),
    (torch.exp2, lambda: (d(1.5, -2.0, 0.7),)),
    (torch.logit, lambda: (d(0.2, 0.5, 0.9),)),
    (lambda x: torch.logit(x, eps=0.1), lambda: (d(0.05, 0.5, 0.97),)),
    # broadcasting: the engine sums the gradient down to each input's shape
    (torch.hypot, lambda: (d(1.5, -2.0, 0.7).reshape(3, 1), d(-1.0, 3.0).reshape(1, 2))),
])
def test_gradcheck(fn, inputs):
    assert torch.autograd.gradcheck(fn, inputs(), eps=1e-6, atol=1e-5)


def test_fmax_gradient_goes_to_the_non_nan_operand():
    a, b = d(1.0, float("nan"), 3.0), d(2.0, 5.0, float("nan"))
    torch.fmax(a, b).sum().backward()
    assert a.grad.tolist() == [0.0, 0.0, 1.0]
    assert b.grad.tolist() == [1.0, 1.0, 0.0]


def test_logit_gradient_outside_eps_is_zero():
    x = d(0.05, 0.5, 0.97)
    torch.logit(x, eps=0.1).sum().backward()
    assert x.grad[0].item() == 0.0 and x.grad[2].item() == 0.0
    assert x.grad[1].item() == pytest.approx(4.0)


def test_signbit_has_no_history_and_grad_fn_names():
    x = d(1.0, -2.0)
    assert not torch.signbit(x).requires_grad
    assert type(torch.hypot(x, x).grad_fn).__name__ == "HypotBackward0"
    assert type(torch.logaddexp(x, x).grad_fn).__name__ == "LogaddexpBackward0"
    assert type(torch.true_divide(x, x).grad_fn).__name__ == "DivBackward0"  # composite: div's node
    assert type(torch.square(x).grad_fn).__name__ == "PowBackward0"


# ---- properties ----

finite = st.floats(-50, 50, allow_nan=False, width=64)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(finite, finite), min_size=1, max_size=8))
def test_logaddexp_matches_numpy_and_bounds(pairs):
    a = torch.tensor([p[0] for p in pairs], dtype=torch.float64)
    b = torch.tensor([p[1] for p in pairs], dtype=torch.float64)
    np.testing.assert_allclose(np_of(torch.logaddexp(a, b)), np.logaddexp(np_of(a), np_of(b)), rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(np_of(torch.logaddexp2(a, b)), np.logaddexp2(np_of(a), np_of(b)), rtol=1e-12,
                               atol=1e-300)
    # symmetric, and never below the larger operand
    assert torch.equal(torch.logaddexp(a, b), torch.logaddexp(b, a))
    assert bool((torch.logaddexp(a, b) >= torch.maximum(a, b)).all())


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-10**6, 10**6), st.integers(-10**6, 10**6)), min_size=1, max_size=8))
def test_gcd_lcm_match_python(pairs):
    a = torch.tensor([p[0] for p in pairs])
    b = torch.tensor([p[1] for p in pairs])
    assert torch.gcd(a, b).tolist() == [math.gcd(x, y) for x, y in pairs]
    assert torch.lcm(a, b).tolist() == [abs(x * y) // math.gcd(x, y) if x and y else 0 for x, y in pairs]


# ---- edge cases found by the differential fuzzer (values and errors of PyTorch 2.13) ----

def test_lcm_narrow_dtype_wraps_after_the_absolute_value():
    got = torch.lcm(torch.tensor([-111, 12], dtype=torch.int8), torch.tensor([-2, -2], dtype=torch.int8))
    assert got.tolist() == [-34, 12]


def test_logit_eps_bounds_are_rounded_to_the_dtype():
    got = torch.logit(torch.tensor([-3.0, 3.0], dtype=torch.float16), eps=1e-6)
    assert got.tolist() == [-13.8046875, math.inf]


def test_exp2_complex_infinite_real_part():
    got = torch.exp2(torch.tensor([complex(float("inf"), 65520.0)], dtype=torch.complex64))
    value = got.tolist()[0]
    assert math.isinf(value.real) and math.isinf(value.imag)


def test_heaviside_out_dtype_must_match():
    with pytest.raises(RuntimeError, match="heaviside is not yet implemented for tensors with different dtypes."):
        torch.heaviside(torch.tensor(-1), torch.tensor(1), out=torch.tensor(0, dtype=torch.int8))
    with pytest.raises(NotImplementedError, match="signbit is not implemented for complex tensors."):
        torch.signbit(torch.tensor([1j]))
