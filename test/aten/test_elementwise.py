# test/aten/test_elementwise.py - elementwise operators against numpy: values, dtypes, shapes,
# broadcasting and type promotion, over contiguous and non-contiguous layouts.
# Mirrors PyTorch's test/test_binary_ufuncs.py and test/test_unary_ufuncs.py.
# Guide: docs/source/internals/one_call.rst.
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

FLOAT_DTYPES = [(torch.float32, np.float32), (torch.float64, np.float64)]
INT_DTYPES = [(torch.int8, np.int8), (torch.int16, np.int16), (torch.int32, np.int32), (torch.int64, np.int64),
              (torch.uint8, np.uint8)]


def as_tensor(a):
    return torch.tensor(a.tolist(), dtype=getattr(torch, str(a.dtype) if a.dtype != np.bool_ else "bool"))


def check(result, expected, rtol=1e-6, atol=1e-6):
    """Same shape, same dtype name, same values (NaN where numpy has NaN)."""
    assert tuple(result.shape) == expected.shape
    np.testing.assert_allclose(result.numpy(), expected, rtol=rtol, atol=atol, equal_nan=True)


# ---- binary arithmetic ----

@pytest.mark.parametrize("tdtype, ndtype", FLOAT_DTYPES + INT_DTYPES)
@pytest.mark.parametrize("op, npop", [("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
                                      ("maximum", np.maximum), ("minimum", np.minimum)])
def test_binary_ops_match_numpy(tdtype, ndtype, op, npop):
    rng = np.random.default_rng(0)
    a = rng.integers(0, 50, size=(3, 4)).astype(ndtype)
    b = rng.integers(0, 50, size=(4,)).astype(ndtype)
    result = getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(b))
    assert result.dtype == tdtype
    check(result, npop(a, b))


def test_add_with_alpha():
    a, b = torch.tensor([1.0, 2.0]), torch.tensor([10.0, 20.0])
    assert torch.add(a, b, alpha=3).tolist() == [31.0, 62.0]
    assert torch.sub(a, b, alpha=0.5).tolist() == [-4.0, -8.0]


def test_true_division_of_integers_gives_float():
    a, b = torch.tensor([7, -7]), torch.tensor([2, 2])
    q = torch.div(a, b)
    assert q.dtype == torch.float32
    assert q.tolist() == [3.5, -3.5]
    assert torch.div(a, b, rounding_mode="trunc").tolist() == [3, -3]
    assert torch.div(a, b, rounding_mode="floor").tolist() == [3, -4]
    assert torch.div(a, b, rounding_mode="floor").dtype == torch.int64


@pytest.mark.parametrize("op, npop", [("remainder", np.remainder), ("fmod", np.fmod)])
def test_remainder_and_fmod_signs_match_numpy(op, npop):
    a = np.array([-7.5, -3.0, 3.0, 7.5])
    b = np.array([2.0, -2.0, 2.0, -2.0])
    check(getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(b)), npop(a, b))


def test_pow_and_atan2():
    a = np.array([1.0, 2.0, 3.0])
    check(torch.pow(torch.from_numpy(a), 2), a ** 2)
    check(torch.atan2(torch.from_numpy(a), torch.from_numpy(a[::-1].copy())), np.arctan2(a, a[::-1]))
    with pytest.raises(RuntimeError, match="Integers to negative integer powers are not allowed."):
        torch.pow(torch.tensor([2, 3]), -1)


# ---- type promotion ----

@pytest.mark.parametrize("left, right, expected", [
    (torch.tensor([1, 2], dtype=torch.int32), 2.5, torch.float32),
    (torch.tensor([1, 2], dtype=torch.int32), 2, torch.int32),
    (torch.tensor([1.0], dtype=torch.float16), torch.tensor(1.0, dtype=torch.float64), torch.float16),
    (torch.tensor([1], dtype=torch.uint8), torch.tensor(1, dtype=torch.int64), torch.uint8),
    (torch.tensor([True]), 3, torch.int64),
    (torch.tensor([1], dtype=torch.uint8), torch.tensor([1], dtype=torch.int8), torch.int16),
    (torch.tensor([1.0], dtype=torch.float16), torch.tensor([1.0], dtype=torch.bfloat16), torch.float32),
])
def test_type_promotion_follows_pytorch(left, right, expected):
    assert (left + right).dtype == expected


def test_in_place_result_must_fit_the_output_dtype():
    t = torch.tensor([1, 2])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        t.add_(1.5)


def test_bool_subtraction_is_refused():
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors is not supported"):
        torch.tensor([True]) - torch.tensor([False])


# ---- broadcasting and in-place/out= checks ----

def test_broadcast_error_names_the_dimension():
    with pytest.raises(RuntimeError, match=r"^The size of tensor a \(3\) must match the size of tensor b \(4\) at "
                                           r"non-singleton dimension 1$"):
        torch.ones(2, 3) + torch.ones(4)


def test_in_place_output_cannot_grow():
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"):
        torch.ones(3).add_(torch.ones(2, 3))


def test_out_argument_is_resized_and_returned():
    out = torch.empty(0)
    result = torch.add(torch.ones(2, 3), torch.ones(3), out=out)
    assert result is out
    assert out.shape == (2, 3)
    assert out.tolist() == [[2.0] * 3] * 2


def test_in_place_returns_self_and_bumps_nothing_else():
    a = torch.ones(3)
    b = a.mul_(4)
    assert b is a
    assert a.tolist() == [4.0, 4.0, 4.0]


# ---- comparisons and logic ----

@pytest.mark.parametrize("op, npop", [("eq", np.equal), ("ne", np.not_equal), ("lt", np.less),
                                      ("le", np.less_equal), ("gt", np.greater), ("ge", np.greater_equal)])
def test_comparisons_give_bool(op, npop):
    a = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
    b = np.array([2.0, 2.0, 2.0])
    result = getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(b))
    assert result.dtype == torch.bool
    assert result.tolist() == npop(a, b).tolist()


def test_logical_and_bitwise():
    a = torch.tensor([0, 1, 2, 3])
    b = torch.tensor([1, 1, 0, 2])
    assert torch.logical_and(a, b).tolist() == [False, True, False, True]
    assert torch.logical_xor(a, b).tolist() == [True, False, True, False]
    assert torch.bitwise_and(a, b).tolist() == [0, 1, 0, 2]
    assert torch.bitwise_or(a, b).tolist() == [1, 1, 2, 3]
    with pytest.raises(RuntimeError, match="\"bitwise_and_cpu\" not implemented for 'Float'"):
        torch.bitwise_and(torch.ones(2), torch.ones(2))


def test_where_clamp_masked_fill_lerp():
    cond = torch.tensor([True, False, True])
    assert torch.where(cond, torch.tensor([1, 2, 3]), torch.tensor([10, 20, 30])).tolist() == [1, 20, 3]
    assert torch.clamp(torch.tensor([-2.0, 0.5, 9.0]), min=-1, max=1).tolist() == [-1.0, 0.5, 1.0]
    t = torch.zeros(3)
    t.masked_fill_(cond, 5.0)
    assert t.tolist() == [5.0, 0.0, 5.0]
    assert torch.lerp(torch.zeros(2), torch.tensor([10.0, 20.0]), 0.25).tolist() == [2.5, 5.0]


# ---- unary ----

UNARY = [("exp", np.exp), ("log", np.log), ("log1p", np.log1p), ("sqrt", np.sqrt), ("sin", np.sin),
         ("cos", np.cos), ("tan", np.tan), ("tanh", np.tanh), ("floor", np.floor), ("ceil", np.ceil),
         ("trunc", np.trunc), ("neg", np.negative), ("abs", np.abs), ("reciprocal", np.reciprocal),
         ("sign", np.sign)]


@pytest.mark.parametrize("tdtype, ndtype", FLOAT_DTYPES)
@pytest.mark.parametrize("op, npop", UNARY)
def test_unary_ops_match_numpy(tdtype, ndtype, op, npop):
    a = np.array([[0.5, 1.5, 2.5], [3.0, 0.25, 4.0]], dtype=ndtype)
    result = getattr(torch, op)(torch.from_numpy(a))
    assert result.dtype == tdtype
    check(result, npop(a), rtol=1e-5)


def test_unary_float_ops_promote_integers():
    r = torch.sqrt(torch.tensor([4, 9]))
    assert r.dtype == torch.float32
    assert r.tolist() == [2.0, 3.0]


def test_sigmoid_relu_nan_checks():
    x = torch.tensor([-1.0, 0.0, 2.0, float("nan"), float("inf")])
    np.testing.assert_allclose(torch.sigmoid(torch.tensor([-1.0, 0.0, 2.0])).numpy(),
                               1 / (1 + np.exp(-np.array([-1.0, 0.0, 2.0]))), rtol=1e-6)
    assert torch.relu(torch.tensor([-1.0, 2.0])).tolist() == [0.0, 2.0]
    assert torch.isnan(x).tolist() == [False, False, False, True, False]
    assert torch.isinf(x).tolist() == [False, False, False, False, True]
    assert torch.nan_to_num(x, nan=0.0, posinf=9.0).tolist() == [-1.0, 0.0, 2.0, 0.0, 9.0]


def test_nan_to_num_tests_a_double_as_a_double():
    # 1e300 is a finite float64 (it would be inf as a float32): it stays. The infinities become
    # the largest finite float64 values, as in PyTorch.
    x = torch.tensor([1e300, float("inf"), -float("inf"), float("nan")], dtype=torch.float64)
    big = np.finfo(np.float64).max
    assert torch.nan_to_num(x).tolist() == [1e300, big, -big, 0.0]
    half = torch.tensor([65504.0, float("inf"), float("nan")], dtype=torch.float16)
    assert torch.nan_to_num(half, nan=1.5).tolist() == [65504.0, 65504.0, 1.5]


# ---- property tests over layouts: permuted, sliced (narrowed), expanded ----

def layouts(base):
    """The same values through different strides: contiguous, transposed copy, narrowed, expanded."""
    yield base
    yield base.t().contiguous().t()                      # same values, transposed strides
    wide = torch.zeros(base.shape[0], base.shape[1] * 2, dtype=base.dtype)
    view = wide.as_strided(base.shape, (wide.stride(0), 2))  # every other column: strides (2n, 2)
    view.copy_(base)
    yield view
    if base.shape[0] == 1:
        yield base.expand(3, base.shape[1])


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=5),
                  elements=st.floats(-100, 100, allow_nan=False)),
       st.sampled_from(["add", "mul", "sub", "maximum"]))
def test_binary_ops_agree_with_numpy_for_every_layout(a, op):
    npop = {"add": np.add, "mul": np.multiply, "sub": np.subtract, "maximum": np.maximum}[op]
    base = torch.from_numpy(a)
    expected = npop(a, a[:, ::-1])
    other = torch.from_numpy(a[:, ::-1].copy())
    for t in layouts(base):
        if t.shape != base.shape:
            continue
        np.testing.assert_allclose(getattr(torch, op)(t, other).numpy(), expected)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=4),
                  elements=st.floats(-10, 10, allow_nan=False, width=32)))
def test_unary_ops_on_permuted_tensors(a):
    t = torch.from_numpy(a)
    perm = list(range(a.ndim))[::-1]
    permuted = t.permute(perm)
    np.testing.assert_allclose(torch.exp(permuted).numpy(), np.exp(np.transpose(a, perm)), rtol=1e-6)
    np.testing.assert_allclose(torch.abs(permuted).numpy(), np.abs(np.transpose(a, perm)))


# ---- a number on the left (Tensor.__rsub__ and friends) ----

@pytest.mark.parametrize("expr, values, dtype", [
    # (expression, PyTorch 2.13's values and dtype for t = torch.tensor([1, 2]))
    ("2.5 - t", [1.5, 0.5], torch.float32),
    ("2 - t", [1, 0], torch.int64),
    ("2.5 * t", [2.5, 5.0], torch.float32),
    ("3 / t", [3.0, 1.5], torch.float32),
    ("2 ** t", [2, 4], torch.int64),
    ("2.5 ** t", [2.5, 6.25], torch.float32),
    ("1 + t", [2, 3], torch.int64),
    ("7 // t", [7, 3], torch.int64),
    ("7 % t", [0, 1], torch.int64),
])
def test_number_on_the_left_promotes_like_pytorch(expr, values, dtype):
    t = torch.tensor([1, 2])  # noqa: F841 - used by eval
    r = eval(expr)
    assert r.tolist() == values
    assert r.dtype == dtype


def test_number_on_the_left_keeps_the_narrower_tensor_dtype():
    t = torch.tensor([1, 2], dtype=torch.int32)
    assert (2 - t).dtype == torch.int32
    assert (2.5 - t.to(torch.float16)).dtype == torch.float16


# ---- torch._C._nn (python_module: nn) and result_type ----

def test_gelu_and_silu_live_in_torch_c_nn():
    x = torch.tensor([-1.0, 0.0, 1.5], dtype=torch.float64)
    xs = x.numpy()
    from math import erf, sqrt, tanh, pi
    exact = [v * 0.5 * (1 + erf(v / sqrt(2))) for v in xs]
    approx = [0.5 * v * (1 + tanh(sqrt(2 / pi) * (v + 0.044715 * v ** 3))) for v in xs]
    np.testing.assert_allclose(torch._C._nn.gelu(x).numpy(), exact, rtol=1e-12)
    np.testing.assert_allclose(torch._C._nn.gelu(x, approximate="tanh").numpy(), approx, rtol=1e-12)
    np.testing.assert_allclose(torch._C._nn.silu(x).numpy(), xs / (1 + np.exp(-xs)), rtol=1e-12)
    with pytest.raises(TypeError, match="gelu\\(\\): argument 'approximate' must be str, not int"):
        torch._C._nn.gelu(x, approximate=1)


def test_result_type_returns_a_dtype():
    assert torch.result_type(torch.tensor([1]), 2.5) is torch.float32
    assert torch.result_type(torch.tensor([1], dtype=torch.int32), torch.tensor(2)) is torch.int32
    assert torch.result_type(2, 3.0) is torch.float32
    assert torch.result_type(torch.tensor([1], dtype=torch.uint8), torch.tensor([1], dtype=torch.int8)) is torch.int16
