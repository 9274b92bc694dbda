"""The CUDA elementwise operators, each checked against its CPU twin.

Mirrors PyTorch's test/test_unary_ufuncs.py, test/test_binary_ufuncs.py and the pointwise parts of
test/test_torch.py (where, clamp, lerp, addcmul, addcdiv) and test/test_nn.py (gelu, silu, relu),
run on ``device="cuda"``. The kernels are aten/src/ATen/native/cuda/Unary*.cu, AbsKernel.cu,
Binary*.cu, MaxMinElementwiseKernel.cu, CompareKernels.cu, PowKernel.cu, TensorCompare.cu,
Activation*.cu, PointwiseOpsKernel.cu and Lerp.cu, all over gpu_kernel (Loops.cuh).
Guide: docs/source/internals/cuda_simulated_device.rst.

Every result is computed on the CPU and on "cuda" and compared through ``.cpu()`` (dtype, shape,
values, NaN == NaN): exactly where the kernels do the CPU's IEEE operations (rounding,
comparisons, selection, integer arithmetic, division, fmod, sqrt, fused multiply-adds), within
a tolerance of a few units in the last place where they call exp, log, sin, erf, pow ...,
whose GPU implementations are not glibc's. Without a GPU:

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_cuda_elementwise.py
"""

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from cuda_testing import _id, as_numpy, assert_same

DEVICE = "cuda"

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")

FLOATS = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
INTS = [torch.int32, torch.int64]
# A few ulps of each dtype, for the functions the GPU computes with its own approximations. A
# Half or BFloat16 result is rounded from float, so one float ulp may move it by one of its own.
TOL = {torch.float32: dict(rtol=1e-5, atol=1e-6), torch.float64: dict(rtol=1e-12, atol=1e-14),
       torch.float16: dict(rtol=2e-3, atol=1e-3), torch.bfloat16: dict(rtol=1.6e-2, atol=1e-2),
       torch.complex64: dict(rtol=1e-5, atol=1e-6), torch.complex128: dict(rtol=1e-12, atol=1e-14)}


# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------

def tol_for(dtype, exact):
    """No tolerance for exact operators and for integer/bool/complex-exact results."""
    if exact or not (dtype.is_floating_point or dtype.is_complex):
        return {}
    return TOL[dtype]


class Host:
    """An argument that stays on the CPU in the device run too: a 0-d CPU tensor next to CUDA
    tensors (TensorIterator lets it through; the kernel reads it on the host)."""

    def __init__(self, tensor):
        self.tensor = tensor


def _host(a):
    return a.tensor if isinstance(a, Host) else a


def _dev(a):
    if isinstance(a, Host):
        return a.tensor
    return a.to(DEVICE) if isinstance(a, torch.Tensor) else a


def compare(fn, *args, exact=True, **kwargs):
    """fn on the CPU arguments and on their device copies: the results agree."""
    want = fn(*[_host(a) for a in args], **{k: _host(v) for k, v in kwargs.items()})
    got = fn(*[_dev(a) for a in args], **{k: _dev(v) for k, v in kwargs.items()})
    assert_same(got, want, **tol_for(want.dtype, exact))
    return got, want


def compare_out(fn, *args, dtype, exact=True, **kwargs):
    """fn(..., out=view) where the view is a stepped slice or a transpose of a bigger buffer: the
    results agree, fn returns the view, and the buffer's other elements keep their value."""
    shape = tuple(fn(*[_host(a) for a in args], **{k: _host(v) for k, v in kwargs.items()}).shape)
    assert len(shape) == 2
    r, c = shape
    makers = [lambda dev: (lambda base: (base, base[:, ::2]))(torch.full((r, 2 * c), 7, dtype=dtype, device=dev)),
              lambda dev: (lambda base: (base, base.t()))(torch.full((c, r), 7, dtype=dtype, device=dev))]
    for make in makers:
        cpu_base, cpu_out = make("cpu")
        dev_base, dev_out = make(DEVICE)
        fn(*[_host(a) for a in args], out=cpu_out, **{k: _host(v) for k, v in kwargs.items()})
        ret = fn(*[_dev(a) for a in args], out=dev_out, **{k: _dev(v) for k, v in kwargs.items()})
        assert ret.data_ptr() == dev_out.data_ptr() and ret.stride() == dev_out.stride()
        assert_same(dev_base, cpu_base, **tol_for(dtype, exact))


def compare_inplace(method, x, *args, exact=True, **kwargs):
    """x.method(...) (or method(x, ...) for a function) on a transposed, non-contiguous view: the
    results agree in the base, and the call returns the view."""
    call = (lambda v, *a, **k: getattr(v, method)(*a, **k)) if isinstance(method, str) else method
    cpu_base = x.t().contiguous()
    dev_base = cpu_base.clone().to(DEVICE)
    want = call(cpu_base.t(), *[_host(a) for a in args], **kwargs)
    dev_view = dev_base.t()
    got = call(dev_view, *[_dev(a) for a in args], **kwargs)
    assert got.data_ptr() == dev_base.data_ptr() and got.stride() == dev_view.stride()
    assert want.dtype == got.dtype
    assert_same(dev_base, cpu_base, **tol_for(cpu_base.dtype, exact))


def sample(shape, dtype, seed=0, low=-5, high=5):
    """A CPU tensor of `dtype` with reproducible values (numpy's RNG: independent of torch's)."""
    rng = np.random.default_rng(seed)
    if dtype == torch.bool:
        return torch.from_numpy(rng.integers(0, 2, size=shape).astype(np.bool_))
    if not (dtype.is_floating_point or dtype.is_complex):
        lo = max(low, 0) if dtype == torch.uint8 else low
        return torch.from_numpy(rng.integers(lo, high, size=shape).astype(np.int64)).to(dtype)
    if dtype.is_complex:
        re, im = rng.uniform(low, high, size=shape), rng.uniform(low, high, size=shape)
        return torch.from_numpy(np.asarray(re + 1j * im, dtype=np.complex128)).to(dtype)
    return torch.from_numpy(rng.uniform(low, high, size=shape)).to(dtype)


def nonzero_sample(shape, dtype, seed=1):
    """Like sample(), with no element near zero (divisors): +-[0.5, 4), or +-[1, 4] for integers."""
    rng = np.random.default_rng(seed)
    signs = np.where(rng.integers(0, 2, size=shape) == 1, 1, -1)
    if dtype.is_floating_point:
        return torch.from_numpy(np.asarray(rng.uniform(0.5, 4.0, size=shape) * signs)).to(dtype)
    if dtype == torch.uint8:
        return torch.from_numpy(np.asarray(rng.integers(1, 5, size=shape))).to(dtype)
    return torch.from_numpy(np.asarray(rng.integers(1, 5, size=shape) * signs)).to(dtype)


def special_values(dtype):
    """Zeros of both signs, infinities, NaN, halves (rounding ties) and small numbers."""
    return torch.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 0.5, -0.5, 1.5, 2.5, -2.5,
                         1e-3, -1e-3, 3.75, -7.25], dtype=dtype)


def expect_same_error(fn, *args, **kwargs):
    """fn raises on the device what it raises on the CPU, the kernel's "_cpu" name read "_cuda"."""
    with pytest.raises((RuntimeError, NotImplementedError)) as cpu_err:
        fn(*[_host(a) for a in args], **kwargs)
    with pytest.raises(cpu_err.type) as dev_err:
        fn(*[_dev(a) for a in args], **kwargs)
    assert str(dev_err.value) == str(cpu_err.value).replace('_cpu"', '_cuda"')


# ---------------------------------------------------------------------------------------
# Operator tables: what each test below runs
# ---------------------------------------------------------------------------------------

class Op:
    """One operator: fn(*inputs), the dtypes it takes, how its inputs are drawn ("any" in [-5, 5),
    "nonzero" divisors, "positive" in [0.5, 4), "exponent" small integers in [0, 4)), whether the
    device must agree exactly, its in-place form (a method name or a function; None: none) and
    its out= form (fn itself unless out=False)."""

    def __init__(self, name, fn, dtypes, inputs=("any",), exact=True, method=None, out=True, out_fn=None):
        self.name, self.fn, self.dtypes, self.inputs, self.exact = name, fn, dtypes, inputs, exact
        self.method = method
        self.out_fn = out_fn if out_fn is not None else (fn if out else None)

    def make_inputs(self, shape, dtype, seed=0):
        made = []
        for i, kind in enumerate(self.inputs):
            if kind == "nonzero":
                made.append(nonzero_sample(shape, dtype, seed=seed + i))
            elif kind == "positive":
                made.append(sample(shape, dtype, seed=seed + i, low=0.5, high=4.0) if dtype.is_floating_point
                            else sample(shape, dtype, seed=seed + i, low=1, high=5))
            elif kind == "exponent":
                made.append(sample(shape, dtype, seed=seed + i, low=0, high=4))
            else:
                made.append(sample(shape, dtype, seed=seed + i))
        return made

    def result_dtype(self, dtype):
        return self.fn(*self.make_inputs((1,), dtype)).dtype

    def __repr__(self):
        return self.name


def div_trunc(a, b, **kwargs):
    return torch.div(a, b, rounding_mode="trunc", **kwargs)


def div_floor(a, b, **kwargs):
    return torch.div(a, b, rounding_mode="floor", **kwargs)


def unary(name, dtypes, exact=False, fn=None, method=True, inputs=("any",)):
    fn = fn or getattr(torch, name)
    return Op(name, fn, dtypes, inputs=inputs, exact=exact, method=(name + "_") if method else None)


def binary(name, fn, dtypes, inputs=("any", "any"), **kwargs):
    return Op(name, fn, dtypes, inputs=inputs, **kwargs)


def ternary(name, fn, dtypes, inputs=("any", "any", "any"), **kwargs):
    return Op(name, fn, dtypes, inputs=inputs, **kwargs)


FLOAT_IN = FLOATS + INTS + [torch.bool]  # integer and bool inputs compute in the default float dtype
# Complex elements use c10::complex's functions: std::complex on the simulated device (the CPU's
# values), thrust::complex on a GPU (a few ulps apart).
COMPLEX = [torch.complex64, torch.complex128]
UNARY_OPS = [
    unary("exp", FLOAT_IN + COMPLEX), unary("log", FLOAT_IN + COMPLEX), unary("log1p", FLOAT_IN + COMPLEX),
    unary("sqrt", FLOAT_IN + COMPLEX), unary("rsqrt", FLOAT_IN + COMPLEX), unary("sin", FLOAT_IN + COMPLEX),
    unary("cos", FLOAT_IN + COMPLEX), unary("tan", FLOAT_IN + COMPLEX), unary("tanh", FLOAT_IN + COMPLEX),
    unary("sigmoid", FLOAT_IN + COMPLEX), unary("erf", FLOAT_IN),
    unary("sgn", FLOATS + INTS + COMPLEX), unary("angle", FLOATS + INTS + COMPLEX, method=False),
    # complex 1 / z is several multiply-adds, which nvcc may fuse where the CPU rounds twice
    unary("reciprocal", FLOAT_IN + [torch.complex64]),
    unary("abs", FLOATS + INTS + [torch.int8, torch.uint8], exact=True), unary("abs_complex", COMPLEX, fn=torch.abs, method=False),
    unary("neg", FLOATS + INTS + [torch.int8, torch.complex64], exact=True),
    unary("sign", FLOATS + INTS + [torch.uint8, torch.bool], exact=True),
    unary("floor", FLOATS + INTS, exact=True), unary("ceil", FLOATS + INTS, exact=True),
    unary("round", FLOATS + INTS, exact=True), unary("trunc", FLOATS + INTS, exact=True),
    Op("round_decimals_2", lambda x, **kw: torch.round(x, decimals=2, **kw), FLOATS),
    Op("round_decimals_-1", lambda x, **kw: torch.round(x, decimals=-1, **kw), FLOATS),
    unary("logical_not", FLOATS + INTS + [torch.uint8, torch.bool], exact=True),
    unary("bitwise_not", INTS + [torch.int8, torch.uint8, torch.bool], exact=True),
    unary("nan_to_num", FLOATS + INTS, exact=True),
    Op("gelu", torch._C._nn.gelu, FLOATS, exact=False, method=torch._C._nn.gelu_),
    Op("gelu_tanh", lambda x, **kw: torch._C._nn.gelu(x, approximate="tanh", **kw), FLOATS, exact=False,
       method=lambda x: torch._C._nn.gelu_(x, approximate="tanh")),
    Op("silu", torch._C._nn.silu, FLOATS, exact=False, method=torch._C._nn.silu_),
    Op("relu", torch.relu, FLOATS + INTS + [torch.int8], method="relu_", out=False),
]

BINARY_OPS = [
    binary("sub", torch.sub, FLOATS + INTS + [torch.complex64], method="sub_"),
    binary("div_trunc", div_trunc, FLOATS + INTS + [torch.int8], inputs=("any", "nonzero"),
           method=lambda x, y: x.div_(y, rounding_mode="trunc")),
    binary("div_floor", div_floor, FLOATS + INTS + [torch.int8], inputs=("any", "nonzero"),
           method=lambda x, y: x.div_(y, rounding_mode="floor")),
    binary("floor_divide", torch.floor_divide, FLOATS + INTS, inputs=("any", "nonzero"), method="floor_divide_"),
    binary("remainder", torch.remainder, FLOATS + INTS + [torch.int8, torch.uint8], inputs=("any", "nonzero"),
           method="remainder_"),
    binary("fmod", torch.fmod, FLOATS + INTS + [torch.uint8], inputs=("any", "nonzero"), method="fmod_"),
    binary("atan2", torch.atan2, FLOATS + INTS, exact=False, method="atan2_"),
    binary("maximum", torch.maximum, FLOATS + INTS + [torch.uint8, torch.bool]),
    binary("minimum", torch.minimum, FLOATS + INTS + [torch.uint8, torch.bool]),
    binary("bitwise_and", torch.bitwise_and, INTS + [torch.int8, torch.uint8, torch.bool], method="bitwise_and_"),
    binary("bitwise_or", torch.bitwise_or, INTS + [torch.int8, torch.uint8, torch.bool], method="bitwise_or_"),
    binary("bitwise_xor", torch.bitwise_xor, INTS + [torch.int8, torch.uint8, torch.bool], method="bitwise_xor_"),
    binary("logical_and", torch.logical_and, FLOATS + INTS + [torch.bool, torch.complex64], method="logical_and_"),
    binary("logical_or", torch.logical_or, FLOATS + INTS + [torch.bool, torch.complex64], method="logical_or_"),
    binary("logical_xor", torch.logical_xor, FLOATS + INTS + [torch.bool, torch.complex64], method="logical_xor_"),
    binary("lt", torch.lt, FLOATS + INTS + [torch.uint8, torch.bool], method="lt_"),
    binary("le", torch.le, FLOATS + INTS + [torch.uint8, torch.bool], method="le_"),
    binary("gt", torch.gt, FLOATS + INTS + [torch.uint8, torch.bool], method="gt_"),
    binary("ge", torch.ge, FLOATS + INTS + [torch.uint8, torch.bool], method="ge_"),
    binary("eq", torch.eq, FLOATS + INTS + [torch.uint8, torch.bool, torch.complex64], method="eq_"),
    binary("ne", torch.ne, FLOATS + INTS + [torch.uint8, torch.bool, torch.complex64], method="ne_"),
    binary("pow", torch.pow, FLOATS, inputs=("positive", "any"), exact=False, method="pow_"),
    binary("pow_int", torch.pow, INTS + [torch.int8], inputs=("any", "exponent"), method="pow_"),
]

TERNARY_OPS = [
    ternary("where", lambda c, a, b, **kw: torch.where(c > 0, a, b, **kw), FLOATS + INTS + [torch.bool]),
    ternary("clamp_tensor", lambda x, lo, hi, **kw: torch.clamp(x, lo - 2, hi + 2, **kw), FLOATS + INTS),
    ternary("addcmul", lambda s, a, b, **kw: torch.addcmul(s, a, b, value=2, **kw), FLOATS + INTS),
    ternary("addcdiv", lambda s, a, b, **kw: torch.addcdiv(s, a, b, value=-0.5, **kw), FLOATS,
            inputs=("any", "any", "nonzero")),
    ternary("lerp_tensor", torch.lerp, FLOATS, inputs=("any", "any", "positive"), method="lerp_"),
]

ALL_OPS = UNARY_OPS + BINARY_OPS + TERNARY_OPS
CASES = [pytest.param(op, dtype, id=f"{op.name}-{_id(dtype)}") for op in ALL_OPS for dtype in op.dtypes]
OPS = [pytest.param(op, id=op.name) for op in ALL_OPS]


def first_float(op):
    """The dtype the shape/stride tests use: float32 where the operator takes it."""
    return torch.float32 if torch.float32 in op.dtypes else op.dtypes[0]


# ---------------------------------------------------------------------------------------
# Every operator: dtypes, broadcasting, strides, out=, in place, sizes
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("op,dtype", CASES)
def test_matches_cpu(op, dtype):
    inputs = op.make_inputs((6, 7), dtype, seed=10)
    compare(op.fn, *inputs, exact=op.exact)


@pytest.mark.parametrize("op", OPS)
def test_noncontiguous_inputs(op):
    dtype = first_float(op)
    inputs = op.make_inputs((9, 8), dtype, seed=20)
    compare(op.fn, *[t.t() for t in inputs], exact=op.exact)                    # transposed
    compare(op.fn, *[t[::2, 1::3] for t in inputs], exact=op.exact)             # stepped slices
    if len(inputs) > 1:
        # the first operand transposed, the others contiguous rows cut out of a wider tensor
        mixed = [inputs[0].t()[:, :8]] + [t[:8, :8] for t in inputs[1:]]
        compare(op.fn, *mixed, exact=op.exact)


@pytest.mark.parametrize("op", [pytest.param(op, id=op.name) for op in BINARY_OPS + TERNARY_OPS])
def test_broadcasting(op):
    dtype = first_float(op)
    shapes = {2: [((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((5,), (2, 1, 5))],
              3: [((3, 1), (1, 4), (4,)), ((2, 1, 4), (3, 1), (1,)), ((4,), (2, 3, 1), (3, 4))]}[len(op.inputs)]
    for i, case in enumerate(shapes):
        inputs = [op.make_inputs(shape, dtype, seed=30 + 7 * i)[k] for k, shape in enumerate(case)]
        compare(op.fn, *inputs, exact=op.exact)


@pytest.mark.parametrize("op", [pytest.param(op, id=op.name) for op in ALL_OPS if op.out_fn is not None])
def test_out_into_strided_view(op):
    dtype = first_float(op)
    inputs = op.make_inputs((4, 6), dtype, seed=40)
    compare_out(op.out_fn, *inputs, dtype=op.result_dtype(dtype), exact=op.exact)


@pytest.mark.parametrize("op", [pytest.param(op, id=op.name) for op in ALL_OPS if op.method is not None])
def test_inplace_on_transposed_view(op):
    dtype = first_float(op)
    inputs = op.make_inputs((5, 7), dtype, seed=50)
    compare_inplace(op.method, inputs[0], *[t.t().contiguous().t() for t in inputs[1:]], exact=op.exact)


@pytest.mark.parametrize("op", OPS)
def test_empty_and_zero_dim(op):
    dtype = first_float(op)
    for shape in [(0,), (2, 0, 3), ()]:
        got, want = compare(op.fn, *op.make_inputs(shape, dtype, seed=60), exact=op.exact)
        assert tuple(got.shape) == shape
    if len(op.inputs) > 1:
        # a 0-d device tensor broadcast against empty tensors, and against matrices
        zero_dim = op.make_inputs((), dtype, seed=61)[0]
        compare(op.fn, zero_dim, *op.make_inputs((3, 0), dtype)[1:], exact=op.exact)
        compare(op.fn, zero_dim, *op.make_inputs((3, 4), dtype, seed=62)[1:], exact=op.exact)


@pytest.mark.parametrize("op", OPS)
def test_many_blocks(op):
    # 100_003 elements: 196 blocks of 512 and a partial one; and the same count read with a stride.
    dtype = first_float(op)
    inputs = op.make_inputs((100_003,), dtype, seed=70)
    compare(op.fn, *inputs, exact=op.exact)
    strided = op.make_inputs((200_006,), dtype, seed=71)
    compare(op.fn, *[t[::2] for t in strided], exact=op.exact)


# ---------------------------------------------------------------------------------------
# Unary operators
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("op,dtype", [pytest.param(op, dtype, id=f"{op.name}-{_id(dtype)}")
                                      for op in UNARY_OPS for dtype in FLOATS if dtype in op.dtypes])
def test_unary_special_values(op, dtype):
    compare(op.fn, special_values(dtype), exact=op.exact)


def test_round_half_to_even():
    x = torch.tensor([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 4.5000005, 0.49999997, 1e20, -1e-30])
    got, _ = compare(torch.round, x)
    assert got.cpu().tolist()[:7] == [0.0, 2.0, 2.0, 4.0, -0.0, -2.0, -2.0]
    for decimals in (1, 3, -1, -2):
        compare(lambda t: torch.round(t, decimals=decimals), x)
        compare(lambda t: torch.round(t, decimals=decimals), sample((40,), torch.float64, seed=80, low=-500, high=500))


def test_round_decimals_inplace_and_out():
    x = sample((5, 6), torch.float32, seed=81, low=-100, high=100)
    compare_inplace("round_", x, decimals=1)
    compare_out(lambda t, **kw: torch.round(t, decimals=-1, **kw), x, dtype=torch.float32)


@pytest.mark.parametrize("dtype", FLOATS, ids=_id)
def test_nan_to_num(dtype):
    x = special_values(dtype)
    compare(torch.nan_to_num, x)
    compare(lambda t: torch.nan_to_num(t, nan=-1.0, posinf=100.0, neginf=-200.0), x)
    compare(lambda t: torch.nan_to_num(t, posinf=2.0), x)
    got, _ = compare(torch.nan_to_num, torch.tensor([float("inf"), float("-inf")], dtype=dtype))
    largest = {torch.float32: 3.4028234663852886e38, torch.float64: 1.7976931348623157e308,
               torch.float16: 65504.0, torch.bfloat16: 3.3895313892515355e38}[dtype]
    assert got.cpu().tolist() == [largest, -largest]
    compare_inplace("nan_to_num_", x.reshape(2, 7), nan=3.0)


def test_nan_to_num_keeps_a_finite_double_beyond_float_range():
    x = torch.tensor([1e300, -1e300, float("inf"), float("nan")], dtype=torch.float64)
    got, want = compare(torch.nan_to_num, x)
    assert want.tolist()[:2] == [1e300, -1e300]


def test_nan_to_num_integer_tensor_is_a_copy():
    x = sample((4, 5), torch.int32, seed=82)
    got, _ = compare(torch.nan_to_num, x)
    with pytest.raises(RuntimeError, match="nan_to_num: dtype of out: Float should be same as input: Int"):
        torch.nan_to_num(x.to(DEVICE), out=torch.empty(4, 5, device=DEVICE))


def test_unary_float_ops_write_a_float_out_of_another_dtype():
    x = sample((3, 4), torch.float32, seed=83)
    for fn in (torch.exp, torch.sin, torch.sqrt):
        compare_out(fn, x, dtype=torch.float64, exact=False)
        compare_out(fn, sample((3, 4), torch.int32, seed=84), dtype=torch.float16, exact=False)


def test_unary_float_op_inplace_on_integer_tensor_raises_as_on_cpu():
    x = torch.tensor([1, 2, 3])
    expect_same_error(lambda t: t.exp_(), x)
    expect_same_error(lambda t: torch.sqrt(t, out=torch.empty(3, dtype=torch.int64, device=t.device)), x)


def test_logical_not_output_dtypes():
    x = sample((3, 5), torch.float32, seed=85)
    x[0, 0] = 0.0
    got, _ = compare(torch.logical_not, x)
    assert got.dtype == torch.bool
    compare_out(torch.logical_not, x, dtype=torch.float32)
    compare_out(torch.logical_not, sample((3, 5), torch.int32, seed=86, low=-1, high=2), dtype=torch.int64)
    compare_inplace("logical_not_", sample((3, 5), torch.int64, seed=87, low=-1, high=2))


def test_sign_and_abs_of_extremes():
    ints = torch.tensor([-128, -1, 0, 1, 127], dtype=torch.int8)
    compare(torch.abs, ints)                   # abs(-128) wraps to -128, as on the CPU
    compare(torch.sign, ints)
    compare(torch.sign, torch.tensor([0, 1, 255], dtype=torch.uint8))
    compare(torch.abs, torch.tensor([-2**63, -5, 2**63 - 1]))


@pytest.mark.parametrize("expr", [
    pytest.param(lambda t: torch.bitwise_not(t), id="bitwise_not-float"),
    pytest.param(lambda t: torch.round(t.long(), decimals=1), id="round_decimals-int"),
    pytest.param(lambda t: torch.abs(t > 0), id="abs-bool"),
    pytest.param(lambda t: torch.floor(t > 0), id="floor-bool"),
])
def test_unary_unsupported_dtype_message(expr):
    expect_same_error(expr, sample((3,), torch.float32))


# ---------------------------------------------------------------------------------------
# Binary operators
# ---------------------------------------------------------------------------------------

def POW(a, b):
    return a ** b


BINARY_WITH_SCALARS = [
    pytest.param(lambda a, b: a - b, id="sub"),
    pytest.param(lambda a, b: torch.sub(a, b, alpha=2), id="sub_alpha"),
    pytest.param(div_trunc, id="div_trunc"),
    pytest.param(div_floor, id="div_floor"),
    pytest.param(lambda a, b: a // b, id="floordiv"),
    pytest.param(lambda a, b: a % b, id="remainder"),
    pytest.param(torch.fmod, id="fmod"),
    pytest.param(torch.remainder, id="remainder_fn"),
    pytest.param(lambda a, b: a < b, id="lt"),
    pytest.param(lambda a, b: a <= b, id="le"),
    pytest.param(lambda a, b: a > b, id="gt"),
    pytest.param(lambda a, b: a >= b, id="ge"),
    pytest.param(lambda a, b: a == b, id="eq"),
    pytest.param(lambda a, b: a != b, id="ne"),
    pytest.param(POW, id="pow"),
]


@pytest.mark.parametrize("fn", BINARY_WITH_SCALARS)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64, torch.int32], ids=_id)
def test_python_scalar_on_either_side(fn, dtype):
    x = nonzero_sample((3, 4), dtype, seed=90).abs()
    for scalar in (3, -2, 2.5):
        if fn is POW and scalar == -2 and not dtype.is_floating_point:
            expect_same_error(lambda t: fn(t, scalar), x)    # integers to negative integer powers
            continue
        compare(lambda t: fn(t, scalar), x, exact=False)
        if fn is not torch.fmod:
            compare(lambda t: fn(scalar, t), x, exact=False)


@pytest.mark.parametrize("fn", BINARY_WITH_SCALARS + [
    pytest.param(torch.atan2, id="atan2"), pytest.param(torch.maximum, id="maximum"),
    pytest.param(torch.minimum, id="minimum"), pytest.param(torch.logical_and, id="logical_and"),
    pytest.param(torch.logical_xor, id="logical_xor"), pytest.param(torch.bitwise_and, id="bitwise_and"),
    pytest.param(torch.bitwise_xor, id="bitwise_xor"),
])
def test_zero_dim_cpu_tensor_on_either_side(fn):
    for dtype, scalar in ((torch.float32, torch.tensor(2.5)), (torch.int64, torch.tensor(3)),
                          (torch.int32, torch.tensor(-2)), (torch.float16, torch.tensor(1.5, dtype=torch.float64))):
        x = nonzero_sample((3, 4), dtype, seed=91).abs()
        if fn in (torch.bitwise_and, torch.bitwise_xor) and (dtype.is_floating_point or scalar.is_floating_point()):
            continue
        compare(fn, x, Host(scalar), exact=False)
        compare(fn, Host(scalar), x, exact=False)


MIXED_PAIRS = [(torch.int32, torch.float32), (torch.float16, torch.float32), (torch.int64, torch.int32),
               (torch.bool, torch.int64), (torch.uint8, torch.int64), (torch.bfloat16, torch.float16)]


@pytest.mark.parametrize("op,a_dtype,b_dtype", [
    pytest.param(op, a, b, id=f"{op.name}-{_id(a)}-{_id(b)}") for op in BINARY_OPS for a, b in MIXED_PAIRS
    if torch.promote_types(a, b) in op.dtypes and not (op.name == "sub" and a == torch.bool)])
def test_mixed_dtype_promotion(op, a_dtype, b_dtype):
    # On the device the operands keep their dtypes; the kernel converts each element as it loads it.
    a = op.make_inputs((3, 5), a_dtype, seed=92)[0]
    b = op.make_inputs((3, 5), b_dtype, seed=93)[1]
    compare(op.fn, a, b, exact=op.exact)
    if op.inputs[0] == op.inputs[1]:
        compare(op.fn, b, a, exact=op.exact)


@pytest.mark.parametrize("dtype,bits", [(torch.int8, 8), (torch.int32, 32), (torch.int64, 64)], ids=_id)
def test_integer_division_extremes(dtype, bits):
    lowest, highest = -2**(bits - 1), 2**(bits - 1) - 1
    a = torch.tensor([lowest, lowest, highest, -7, 7, -7, 7, 0], dtype=dtype)
    b = torch.tensor([-1, 1, -1, 2, -2, -2, 2, -3], dtype=dtype)
    for fn in (div_trunc, div_floor, torch.remainder, torch.fmod, torch.floor_divide):
        compare(fn, a, b)      # INT_MIN / -1 wraps to INT_MIN, INT_MIN % -1 is 0, as on the CPU


def test_integer_division_by_zero_gives_zero_on_cuda():
    # The CPU raises ZeroDivisionError; a kernel cannot raise, and PyTorch's CUDA answer is the
    # hardware's (different per dtype). This tree's kernels guard the division and give 0.
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        torch.tensor([1, 2]) // torch.tensor([0, 1])
    a = torch.tensor([5, -5, 0, 7], device=DEVICE)
    zero = torch.zeros(4, dtype=torch.int64, device=DEVICE)
    for fn in (div_trunc, div_floor, torch.floor_divide, torch.remainder, torch.fmod):
        assert fn(a, zero).cpu().tolist() == [0, 0, 0, 0]
        assert fn(a.int(), 0).cpu().tolist() == [0, 0, 0, 0]


def test_float_division_modes_special_values():
    a = torch.tensor([1.0, -1.0, 0.0, -0.0, float("inf"), float("nan"), 5.5, -5.5, 7.0, 1e30])
    b = torch.tensor([0.0, 0.0, -2.0, 3.0, 2.0, 1.0, float("inf"), float("-inf"), -0.0, 1e-30])
    for dtype in FLOATS:
        for fn in (div_trunc, div_floor, torch.remainder, torch.fmod, torch.atan2, torch.maximum, torch.minimum):
            compare(fn, a.to(dtype), b.to(dtype), exact=fn is not torch.atan2)


def test_maximum_minimum_propagate_nan_and_max_alias():
    a = torch.tensor([1.0, float("nan"), 3.0, -0.0, float("inf")])
    b = torch.tensor([float("nan"), 2.0, 1.0, 0.0, float("-inf")])
    for fn in (torch.maximum, torch.minimum, torch.max, torch.min):
        got, _ = compare(fn, a, b)
        assert np.isnan(as_numpy(got)[:2]).all()


def test_comparison_results_and_outputs():
    a = sample((4, 5), torch.float32, seed=94)
    b = a.clone()
    b[::2] += 1.0
    for fn in (torch.lt, torch.le, torch.gt, torch.ge, torch.eq, torch.ne):
        got, _ = compare(fn, a, b)
        assert got.dtype == torch.bool
        compare_out(fn, a, b, dtype=torch.int32)      # out= of another dtype: 0/1 in that dtype
        compare_out(fn, a, b, dtype=torch.float16)
        compare(fn, sample((4, 5), torch.int64, seed=95), 2.5)   # int tensor vs float number: in float
    compare_inplace("lt_", a, b)                      # in place keeps a's dtype: 0.0 / 1.0
    compare(torch.eq, sample((3,), torch.complex64, seed=96), sample((3,), torch.complex64, seed=96))


def test_logical_ops_outputs():
    a = sample((4, 5), torch.int32, seed=97, low=-1, high=2)
    b = sample((4, 5), torch.float32, seed=98).round()
    for fn in (torch.logical_and, torch.logical_or, torch.logical_xor):
        compare(fn, a, b)
        compare_out(fn, a, b, dtype=torch.float32)
        compare_inplace(fn.__name__ + "_", b, a)


def test_bitwise_scalar_forms():
    x = sample((3, 4), torch.int64, seed=99, low=-50, high=50)
    compare(lambda t: t & 6, x)
    compare(lambda t: t | 9, x)
    compare(lambda t: t ^ -3, x)
    compare(lambda t: torch.bitwise_or(5, t), x)
    compare(lambda t: torch.bitwise_and(t > 0, True), x)
    compare_inplace("bitwise_xor_", x, 12)


@pytest.mark.parametrize("fn", [torch.bitwise_and, torch.bitwise_or, torch.bitwise_xor])
def test_bitwise_float_message(fn):
    expect_same_error(fn, sample((3,), torch.float32), sample((3,), torch.float32))


@pytest.mark.parametrize("fn", [torch.lt, torch.le, torch.gt, torch.ge])
def test_ordering_complex_message(fn):
    expect_same_error(fn, sample((3,), torch.complex64), sample((3,), torch.complex64))


def test_sub_bool_refused_as_on_cpu():
    expect_same_error(torch.sub, torch.tensor([True]), torch.tensor([False]))


# ---------------------------------------------------------------------------------------
# pow
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("exponent", [2, 0.5, -1, 3, 2.5, -0.5, 0, 1])
@pytest.mark.parametrize("dtype", FLOATS + INTS, ids=_id)
def test_pow_tensor_scalar(dtype, exponent):
    if not dtype.is_floating_point and isinstance(exponent, int) and exponent < 0:
        expect_same_error(lambda t: t ** exponent, sample((3,), dtype))
        return
    # fractional powers of negative numbers are NaN: positive bases for those
    low = 0 if exponent in (0.5, -0.5, 2.5) else -5
    x = sample((4, 5), dtype, seed=100, low=low, high=4)
    # 2, 0.5 and -1 take the exact forms (x * x, sqrt, 1 / x) on both devices; other exponents
    # go through the device's pow.
    exact = not (x ** exponent).dtype.is_floating_point or exponent in (2, 0.5, -1)
    compare(lambda t: t ** exponent, x, exact=exact)
    compare(lambda t: torch.pow(t, exponent), x.t(), exact=exact)
    if dtype.is_floating_point or isinstance(exponent, int):
        compare_inplace("pow_", x, exponent, exact=exact)
        compare_out(torch.pow, x, exponent, dtype=(x ** exponent).dtype, exact=exact)


def test_pow_integer_tensors_negative_exponents_and_scalar_base():
    base = torch.tensor([-3, -2, -1, 0, 1, 2, 3, 1, -1])
    exps = torch.tensor([2, 3, 5, 0, -4, -1, 0, -7, -3])
    compare(torch.pow, base, exps)                                  # 0 or +-1 for negative exponents
    compare(lambda e: torch.pow(2, e), torch.tensor([0, 1, 5, 10]))  # pow.Scalar: a CPU base
    compare(lambda e: 2.5 ** e, sample((3, 3), torch.float32, seed=101), exact=False)
    compare(lambda e: torch.pow(3, e), torch.tensor([0.5, 2.0, -1.0]), exact=False)
    compare(lambda b: b ** 2.5, torch.tensor([1, 4, 9]), exact=False)  # int ** float -> float


# ---------------------------------------------------------------------------------------
# where, clamp, relu
# ---------------------------------------------------------------------------------------

def test_where_scalar_forms_and_promotion():
    cond = sample((4, 5), torch.bool, seed=110)
    x = sample((4, 5), torch.float32, seed=111)
    i = sample((4, 5), torch.int64, seed=112)
    compare(lambda c, a: torch.where(c, a, 0), cond, x)
    compare(lambda c, a: torch.where(c, 1.5, a), cond, i)            # int tensor with a float number
    compare(lambda c: torch.where(c, 1, 0), cond)
    compare(lambda c, a, b: torch.where(c, a, b), cond, x, i)        # float32 with int64: float32
    compare(lambda c, a, b: torch.where(c, a, b), cond[:, :1], x.half(), i[:1])
    compare(lambda c, a, b: torch.where(c, a, b), cond.to(torch.uint8), x, -x)   # uint8 condition
    compare_out(lambda c, a, b, **kw: torch.where(c, a, b, **kw), cond, x, -x, dtype=torch.float32)
    z = sample((4, 5), torch.complex64, seed=113)
    compare(lambda c, a, b: torch.where(c, a, b), cond, z, z * 2)                 # complex: bytes moved


def test_where_float_condition_raises_as_on_cpu():
    x = sample((3,), torch.float32)
    expect_same_error(torch.where, x, x, x)


@pytest.mark.parametrize("dtype", FLOATS + INTS + [torch.int8], ids=_id)
def test_clamp_scalars(dtype):
    x = sample((5, 6), dtype, seed=120)
    if dtype.is_floating_point:
        x[0, :3] = torch.tensor([float("nan"), float("inf"), float("-inf")])
    for kwargs in (dict(min=-2, max=3), dict(min=-1), dict(max=2), dict(min=3, max=-1)):
        compare(lambda t: torch.clamp(t, **kwargs), x)
        compare(lambda t: t.clamp(**kwargs), x)
        compare_inplace("clamp_", x, **kwargs)
        compare_out(lambda t, **kw: torch.clamp(t, **kwargs, **kw), x, dtype=dtype)
    compare(lambda t: torch.clamp_min(t, -1), x)
    compare(lambda t: torch.clamp_max(t, 1), x)
    compare_inplace("clamp_min_", x, 0)
    compare_inplace("clamp_max_", x, 0)
    if dtype.is_floating_point:
        compare(lambda t: torch.clamp(t, min=-1.5, max=float("nan")), x)   # a NaN bound: all NaN
    else:
        compare(lambda t: torch.clamp(t, min=-1.5, max=2.5), x)            # float bounds: float result


def test_clamp_bound_out_of_range_raises_as_on_cpu():
    expect_same_error(lambda t: torch.clamp(t, max=70000.0), sample((3,), torch.float16))
    expect_same_error(lambda t: torch.clamp(t, max=300), sample((3,), torch.int8))
    expect_same_error(lambda t: torch.clamp(t), sample((3,), torch.float32))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64], ids=_id)
def test_clamp_tensor_bounds(dtype):
    x = sample((4, 5), dtype, seed=121)
    lo = sample((4, 1), dtype, seed=122, low=-3, high=0)
    hi = sample((5,), dtype, seed=123, low=0, high=3)
    compare(lambda t, a: torch.clamp(t, min=a), x, lo)                 # maximum's kernel
    compare(lambda t, b: torch.clamp(t, max=b), x, hi)                 # minimum's kernel
    compare(lambda t, a, b: torch.clamp(t, a, b), x, lo, hi)
    compare(lambda t, a, b: torch.clamp(t, a, b), x, lo.double(), hi)  # bounds of another dtype
    compare_inplace("clamp_", x, lo.expand(4, 5).contiguous(), hi.expand(4, 5).contiguous())
    compare_out(lambda t, a, b, **kw: torch.clamp(t, a, b, **kw), x, lo, hi, dtype=dtype)
    if dtype.is_floating_point:
        nan_hi = hi.clone()
        nan_hi[1] = float("nan")
        compare(lambda t, a, b: torch.clamp(t, a, b), x, lo, nan_hi)


def test_relu_and_functional_forms():
    x = sample((6, 7), torch.float32, seed=124)
    compare(F.relu, x)
    compare(torch.relu, sample((6, 7), torch.int32, seed=125))
    compare_inplace("relu_", x)
    expect_same_error(torch.relu, torch.tensor([True, False]))


# ---------------------------------------------------------------------------------------
# gelu, silu, addcmul, addcdiv, lerp
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("dtype", FLOATS, ids=_id)
def test_gelu_forms(dtype, approximate):
    x = sample((5, 6), dtype, seed=130)
    compare(lambda t: F.gelu(t, approximate=approximate), x, exact=False)
    compare(lambda t: F.gelu(t, approximate=approximate), special_values(dtype), exact=False)
    compare_inplace(torch._C._nn.gelu_, x, exact=False, approximate=approximate)
    compare_out(lambda t, **kw: torch._C._nn.gelu(t, approximate=approximate, **kw), x, dtype=dtype, exact=False)


def test_gelu_bad_approximate_raises_as_on_cpu():
    expect_same_error(lambda t: F.gelu(t, approximate="fast"), sample((3,), torch.float32))


@pytest.mark.parametrize("dtype", FLOATS, ids=_id)
def test_silu_forms(dtype):
    x = sample((5, 6), dtype, seed=131)
    compare(F.silu, x, exact=False)
    compare(F.silu, special_values(dtype), exact=False)
    compare(lambda t: F.silu(t.clone(), inplace=True), x, exact=False)
    compare_out(torch._C._nn.silu, x, dtype=dtype, exact=False)


@pytest.mark.parametrize("dtype", FLOATS + INTS, ids=_id)
def test_addcmul_addcdiv_value_and_inplace(dtype):
    s, a = sample((4, 5), dtype, seed=132), sample((4, 5), dtype, seed=133)
    b = nonzero_sample((4, 5), dtype, seed=134)
    for value in (1, -3, 0.5) if dtype.is_floating_point else (1, -3):
        compare(lambda x, y, z: torch.addcmul(x, y, z, value=value), s, a, b)
        compare_inplace("addcmul_", s, a, b, value=value)
        if dtype.is_floating_point:
            compare(lambda x, y, z: torch.addcdiv(x, y, z, value=value), s, a, b)
            compare_inplace("addcdiv_", s, a, b, value=value)
    compare_out(lambda x, y, z, **kw: torch.addcmul(x, y, z, **kw), s, a, b, dtype=dtype)
    if dtype.is_floating_point:
        compare_out(lambda x, y, z, **kw: torch.addcdiv(x, y, z, **kw), s, a, b, dtype=dtype)


def test_addcmul_mixed_dtypes_and_integer_addcdiv_message():
    s = sample((3, 4), torch.float32, seed=135)
    a = sample((3, 4), torch.int32, seed=136)
    b = sample((4,), torch.float16, seed=137)
    compare(lambda x, y, z: torch.addcmul(x, y, z, value=2), s, a, b)
    compare(lambda x, y, z: torch.addcdiv(x, y, z), s, a, nonzero_sample((4,), torch.float64, seed=138))
    expect_same_error(torch.addcdiv, s, a, nonzero_sample((3, 4), torch.int32, seed=139))


@pytest.mark.parametrize("dtype", FLOATS, ids=_id)
def test_lerp_forms(dtype):
    start, end = sample((4, 5), dtype, seed=140), sample((4, 5), dtype, seed=141)
    weight = sample((5,), dtype, seed=142, low=-0.5, high=1.5)
    for w in (0.0, 0.25, 0.5, 1.0, 1.75, -0.3):
        compare(lambda a, b: torch.lerp(a, b, w), start, end)          # lerp.Scalar
    compare(torch.lerp, start, end, weight)                             # lerp.Tensor, broadcast weight
    compare(torch.lerp, start, end, Host(torch.tensor(0.3, dtype=dtype)))   # a 0-d CPU weight
    compare_inplace("lerp_", start, end, 0.75)
    compare_inplace("lerp_", start, end, weight.expand(4, 5).contiguous())
    compare_out(lambda a, b, **kw: torch.lerp(a, b, 0.4, **kw), start, end, dtype=dtype)
    compare_out(lambda a, b, c, **kw: torch.lerp(a, b, c, **kw), start, end, weight, dtype=dtype)
    got, _ = compare(lambda a, b: torch.lerp(a, b, 1.0), start, end)
    assert_same(got, end)                                              # weight 1 gives exactly `end`


def test_lerp_dtype_mismatch_raises_as_on_cpu():
    expect_same_error(torch.lerp, sample((3,), torch.float32), sample((3,), torch.float64), 0.5)


# ---------------------------------------------------------------------------------------
# Composites built on the kernels above, and autograd through them
# ---------------------------------------------------------------------------------------

def test_isnan_isinf_isfinite():
    x = special_values(torch.float32)
    for fn in (torch.isnan, torch.isinf, torch.isfinite):
        compare(fn, x)
        compare(fn, x.half())
        compare(fn, sample((4,), torch.int32))


@pytest.mark.parametrize("fn", [
    pytest.param(lambda x: torch.relu(x), id="relu"),
    pytest.param(lambda x: torch.exp(x), id="exp"),
    pytest.param(lambda x: torch.sigmoid(x), id="sigmoid"),
    pytest.param(lambda x: torch.tanh(x), id="tanh"),
    pytest.param(lambda x: F.gelu(x), id="gelu"),
    pytest.param(lambda x: F.gelu(x, approximate="tanh"), id="gelu_tanh"),
    pytest.param(lambda x: F.silu(x), id="silu"),
    pytest.param(lambda x: torch.clamp(x, -1, 1), id="clamp"),
    pytest.param(lambda x: torch.clamp_min(x, 0.5), id="clamp_min"),
    pytest.param(lambda x: torch.where(x > 0, x * x, -x), id="where"),
    pytest.param(lambda x: x.abs() ** 1.5, id="abs_pow"),
    pytest.param(lambda x: torch.lerp(x, x * 3, 0.25), id="lerp"),
    pytest.param(lambda x: torch.addcmul(x, x, x, value=0.5), id="addcmul"),
])
def test_autograd_matches_cpu(fn):
    base = sample((4, 6), torch.float32, seed=150, low=-2, high=2)
    x_cpu = base.clone().requires_grad_()
    x_dev = base.to(DEVICE).requires_grad_()
    fn(x_cpu).sum().backward()
    fn(x_dev).sum().backward()
    assert x_dev.grad.device.type == DEVICE
    assert_same(x_dev.grad, x_cpu.grad, rtol=1e-5, atol=1e-6)
