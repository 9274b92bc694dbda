// aten/src/ATen/native/UnaryOps.cpp - neg, abs, exp, log, sqrt, sin, ..., floor, round, sign,
// logical_not, bitwise_not, isnan, isinf, nan_to_num: checks and iterators; loops in
// cpu/UnaryOpsKernel.cpp. Mirrors PyTorch's aten/src/ATen/native/UnaryOps.cpp.
// Guide: docs/source/internals/tensor_iterator.rst.
//
// Two iterator configurations: unary_op keeps the dtype (neg, abs, floor), unary_float_op
// computes integer inputs in the default float dtype (exp(int tensor) is float32; in-place
// int_tensor.exp_() is refused because the float result cannot be written back).
#include <ATen/native/UnaryOps.h>

#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/TensorIterator.h>
#include <ATen/native/Resize.h>

#include <limits>

namespace at::native {

#define DEFINE_UNARY_STUB(name) DEFINE_DISPATCH(name##_stub);
AT_FORALL_UNARY_STUBS(DEFINE_UNARY_STUB)
#undef DEFINE_UNARY_STUB
DEFINE_DISPATCH(round_decimals_stub);
DEFINE_DISPATCH(nan_to_num_stub);
DEFINE_DISPATCH(logit_stub);

#define CREATE_UNARY_FUNCS(name, build)                          \
  Tensor& name##_out(const Tensor& self, Tensor& out) {          \
    auto iter = TensorIterator::build(out, self);                \
    name##_stub(iter.device_type(), iter);                       \
    return out;                                                  \
  }                                                              \
  Tensor name(const Tensor& self) {                              \
    auto iter = TensorIterator::build(Tensor(), self);           \
    name##_stub(iter.device_type(), iter);                       \
    return iter.output();                                        \
  }                                                              \
  Tensor& name##_(Tensor& self) {                                \
    return at::native::name##_out(self, self);                   \
  }

CREATE_UNARY_FUNCS(exp, unary_float_op)
CREATE_UNARY_FUNCS(log, unary_float_op)
CREATE_UNARY_FUNCS(log1p, unary_float_op)
CREATE_UNARY_FUNCS(sqrt, unary_float_op)
CREATE_UNARY_FUNCS(rsqrt, unary_float_op)
CREATE_UNARY_FUNCS(sin, unary_float_op)
CREATE_UNARY_FUNCS(cos, unary_float_op)
CREATE_UNARY_FUNCS(tan, unary_float_op)
CREATE_UNARY_FUNCS(tanh, unary_float_op)
CREATE_UNARY_FUNCS(sigmoid, unary_float_op)
CREATE_UNARY_FUNCS(erf, unary_float_op)
CREATE_UNARY_FUNCS(reciprocal, unary_float_op)
CREATE_UNARY_FUNCS(floor, unary_op)
CREATE_UNARY_FUNCS(ceil, unary_op)
CREATE_UNARY_FUNCS(round, unary_op)
CREATE_UNARY_FUNCS(trunc, unary_op)
CREATE_UNARY_FUNCS(bitwise_not, unary_op)

namespace {
void neg_check(const Tensor& self) {
  TORCH_CHECK(self.scalar_type() != kBool,
              "Negation, the `-` operator, on a bool tensor is not supported. "
              "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}
}  // namespace

Tensor& neg_out(const Tensor& self, Tensor& out) {
  neg_check(self);
  auto iter = TensorIterator::unary_op(out, self);
  neg_stub(iter.device_type(), iter);
  return out;
}
Tensor neg(const Tensor& self) {
  neg_check(self);
  auto iter = TensorIterator::unary_op(Tensor(), self);
  neg_stub(iter.device_type(), iter);
  return iter.output();
}
Tensor& neg_(Tensor& self) {
  return at::native::neg_out(self, self);
}

// round(decimals): round(x * 10^d) / 10^d, half to even; decimals == 0 is plain round.
Tensor& round_out(const Tensor& self, int64_t decimals, Tensor& out) {
  auto iter = TensorIterator::unary_op(out, self);
  if (decimals != 0) {
    round_decimals_stub(iter.device_type(), iter, decimals);
  } else {
    round_stub(iter.device_type(), iter);
  }
  return out;
}
Tensor round(const Tensor& self, int64_t decimals) {
  auto iter = TensorIterator::unary_op(Tensor(), self);
  if (decimals != 0) {
    round_decimals_stub(iter.device_type(), iter, decimals);
  } else {
    round_stub(iter.device_type(), iter);
  }
  return iter.output();
}
Tensor& round_(Tensor& self, int64_t decimals) {
  return at::native::round_out(self, decimals, self);
}

// The output dtype is whatever out is (bool for the functional form); the input keeps its
// own dtype - the iterator checks neither, the kernel converts both ways.
Tensor& logical_not_out(const Tensor& self, Tensor& out) {
  auto iter = TensorIteratorConfig().check_all_same_dtype(false).add_output(out).add_const_input(self).build();
  logical_not_stub(iter.device_type(), iter);
  return out;
}
Tensor logical_not(const Tensor& self) {
  Tensor result = at::empty({0}, kBool, std::nullopt, self.device(), std::nullopt, std::nullopt);
  return at::native::logical_not_out(self, result);
}
Tensor& logical_not_(Tensor& self) {
  return at::native::logical_not_out(self, self);
}

// abs of a complex tensor is real-valued: torch.abs(complex64) is float32 (PyTorch's
// unary_op_impl_with_complex_to_float). The iterator reads complex and writes the real
// dtype; an out= of any other dtype gets the real result copied in.
Tensor& abs_out(const Tensor& self, Tensor& out) {
  const ScalarType self_dtype = self.scalar_type();
  if (isComplexType(self_dtype) && out.scalar_type() != self_dtype) {
    const ScalarType real_dtype = toRealValueType(self_dtype);
    TORCH_CHECK(canCast(real_dtype, out.scalar_type()), "result type ", real_dtype,
                " can't be cast to the desired output type ", out.scalar_type());
    if (out.scalar_type() != real_dtype) {
      Tensor real_result = at::native::abs(self);
      at::native::resize_output(out, real_result.sizes());
      out.copy_(real_result);
      return out;
    }
    auto iter = TensorIteratorConfig().check_all_same_dtype(false).add_output(out).add_const_input(self).build();
    abs_stub(iter.device_type(), iter);
    return out;
  }
  auto iter = TensorIterator::unary_op(out, self);
  abs_stub(iter.device_type(), iter);
  return out;
}
Tensor abs(const Tensor& self) {
  if (isComplexType(self.scalar_type())) {
    Tensor result = at::empty({0}, toRealValueType(self.scalar_type()), std::nullopt, self.device(), std::nullopt,
                              std::nullopt);
    return at::native::abs_out(self, result);
  }
  auto iter = TensorIterator::unary_op(Tensor(), self);
  abs_stub(iter.device_type(), iter);
  return iter.output();
}
Tensor& abs_(Tensor& self) {
  TORCH_CHECK(!isComplexType(self.scalar_type()), "In-place abs is not supported for complex tensors.");
  return at::native::abs_out(self, self);
}

// ---- sign, sgn, angle ----

namespace {
void sign_check(const Tensor& self) {
  TORCH_CHECK_NOT_IMPLEMENTED(!isComplexType(self.scalar_type()),
                              "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
                              "torch.sgn instead.");
}
}  // namespace

Tensor& sign_out(const Tensor& self, Tensor& out) {
  sign_check(self);
  auto iter = TensorIterator::unary_op(out, self);
  sign_stub(iter.device_type(), iter);
  return out;
}
Tensor sign(const Tensor& self) {
  sign_check(self);
  auto iter = TensorIterator::unary_op(Tensor(), self);
  sign_stub(iter.device_type(), iter);
  return iter.output();
}
Tensor& sign_(Tensor& self) {
  return at::native::sign_out(self, self);
}

// sgn is sign extended to complex numbers (z / |z|); for real dtypes it is sign.
Tensor& sgn_out(const Tensor& self, Tensor& out) {
  auto iter = TensorIterator::unary_op(out, self);
  if (isComplexType(iter.common_dtype())) {
    sgn_stub(iter.device_type(), iter);
  } else {
    sign_stub(iter.device_type(), iter);
  }
  return out;
}
Tensor sgn(const Tensor& self) {
  auto iter = TensorIterator::unary_op(Tensor(), self);
  if (isComplexType(iter.common_dtype())) {
    sgn_stub(iter.device_type(), iter);
  } else {
    sign_stub(iter.device_type(), iter);
  }
  return iter.output();
}
Tensor& sgn_(Tensor& self) {
  return at::native::sgn_out(self, self);
}

// angle of a complex tensor is real (like abs); of a real one, pi for negatives, 0 otherwise,
// in the default float dtype for integers (PyTorch has no in-place angle_).
Tensor& angle_out(const Tensor& self, Tensor& out) {
  const ScalarType self_dtype = self.scalar_type();
  if (isComplexType(self_dtype)) {
    const ScalarType real_dtype = toRealValueType(self_dtype);
    TORCH_CHECK(canCast(real_dtype, out.scalar_type()), "result type ", real_dtype,
                " can't be cast to the desired output type ", out.scalar_type());
    if (out.scalar_type() != real_dtype) {
      Tensor real_result = at::native::angle(self);
      at::native::resize_output(out, real_result.sizes());
      out.copy_(real_result);
      return out;
    }
    auto iter = TensorIteratorConfig().check_all_same_dtype(false).add_output(out).add_const_input(self).build();
    angle_stub(iter.device_type(), iter);
    return out;
  }
  auto iter = TensorIterator::unary_float_op(out, self);
  angle_stub(iter.device_type(), iter);
  return out;
}
Tensor angle(const Tensor& self) {
  if (isComplexType(self.scalar_type())) {
    Tensor result = at::empty({0}, toRealValueType(self.scalar_type()), std::nullopt, self.device(), std::nullopt,
                              std::nullopt);
    return at::native::angle_out(self, result);
  }
  auto iter = TensorIterator::unary_float_op(Tensor(), self);
  angle_stub(iter.device_type(), iter);
  return iter.output();
}

// NaN is the only value not equal to itself (for complex: NaN in either part).
Tensor isnan(const Tensor& self) {
  return self.ne(self);
}

Tensor isinf(const Tensor& self) {
  if (isIntegralType(self.scalar_type(), /*includeBool=*/true)) {
    return at::empty_like(self, kBool, std::nullopt, std::nullopt, std::nullopt, std::nullopt).zero_();
  }
  return self.abs().eq(std::numeric_limits<double>::infinity());
}

// Finite: not NaN (equal to itself) and not infinite (|x| < inf; for complex, both parts).
Tensor isfinite(const Tensor& self) {
  if (isIntegralType(self.scalar_type(), /*includeBool=*/true)) {
    return at::empty_like(self, kBool, std::nullopt, std::nullopt, std::nullopt, std::nullopt).fill_(true);
  }
  return self.eq(self).logical_and(self.abs().ne(std::numeric_limits<double>::infinity()));
}

Tensor& nan_to_num_out(const Tensor& self, std::optional<double> nan, std::optional<double> pos_inf,
                       std::optional<double> neg_inf, Tensor& result) {
  TORCH_CHECK(self.scalar_type() == result.scalar_type(), "nan_to_num: dtype of out: ", result.scalar_type(),
              " should be same as input: ", self.scalar_type());
  if (isIntegralType(self.scalar_type(), /*includeBool=*/true)) {
    at::native::resize_output(result, self.sizes());
    result.copy_(self);
    return result;
  }
  auto iter = TensorIterator::unary_op(result, self);
  nan_to_num_stub(iter.device_type(), iter, nan, pos_inf, neg_inf);
  return result;
}
Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> pos_inf,
                  std::optional<double> neg_inf) {
  auto result = at::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt);
  return at::native::nan_to_num_out(self, nan, pos_inf, neg_inf, result);
}
Tensor& nan_to_num_(Tensor& self, std::optional<double> nan, std::optional<double> pos_inf,
                    std::optional<double> neg_inf) {
  return at::native::nan_to_num_out(self, nan, pos_inf, neg_inf, self);
}

// ---- frac, expm1, exp2, logit, signbit, square ----

// frac(x) = x - trunc(x): the dtype is kept, so integer inputs reach the kernel and are
// refused there ("frac_cpu" not implemented for 'Long'), as in PyTorch.
CREATE_UNARY_FUNCS(frac, unary_op)
// e^x - 1 and 2^x: integer inputs compute in the default float dtype.
CREATE_UNARY_FUNCS(expm1, unary_float_op)
CREATE_UNARY_FUNCS(exp2, unary_float_op)

// logit(x) = log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given.
Tensor& logit_out(const Tensor& self, std::optional<double> eps, Tensor& out) {
  auto iter = TensorIterator::unary_float_op(out, self);
  logit_stub(iter.device_type(), iter, Scalar(eps ? *eps : -1.0));
  return out;
}
Tensor logit(const Tensor& self, std::optional<double> eps) {
  auto iter = TensorIterator::unary_float_op(Tensor(), self);
  logit_stub(iter.device_type(), iter, Scalar(eps ? *eps : -1.0));
  return iter.output();
}
Tensor& logit_(Tensor& self, std::optional<double> eps) {
  return at::native::logit_out(self, eps, self);
}

// d logit(x) / dx = 1 / (x (1 - x)). Without eps it is NaN outside [0, 1]; with eps the
// clamp makes it 0 outside [eps, 1 - eps]. Written with operators, so one body serves
// every device.
Tensor logit_backward(const Tensor& grad_output, const Tensor& self, std::optional<double> eps) {
  auto grad_input = grad_output.div(self.mul(self.neg().add(1)));
  if (!eps || *eps < 0) {
    return grad_input.masked_fill(self.lt(0).logical_or_(self.gt(1)), std::numeric_limits<double>::quiet_NaN());
  }
  return grad_input.masked_fill(self.lt(*eps).logical_or_(self.gt(1 - *eps)), 0);
}

// signbit: true where the sign bit is set (-0.0 and -NaN included); bool results whatever the
// input dtype, so the iterator keeps the input's dtype and the output's.
Tensor& signbit_out(const Tensor& self, Tensor& out) {
  TORCH_CHECK_NOT_IMPLEMENTED(!isComplexType(self.scalar_type()), "signbit is not implemented for complex tensors.");
  TORCH_CHECK(out.scalar_type() == kBool, "signbit does not support non-boolean outputs.");
  if (self.scalar_type() == kBool) {
    // no bool is negative
    at::native::resize_output(out, self.sizes());
    return out.fill_(false);
  }
  auto iter = TensorIteratorConfig().check_all_same_dtype(false).add_output(out).add_const_input(self).build();
  signbit_stub(iter.device_type(), iter);
  return out;
}
Tensor signbit(const Tensor& self) {
  Tensor out = at::empty({0}, kBool, std::nullopt, self.device(), std::nullopt, std::nullopt);
  return at::native::signbit_out(self, out);
}

// square is pow(x, 2) (CompositeImplicitAutograd: bool and integer inputs follow pow's
// promotion, x.square() of a bool tensor is int64).
Tensor square(const Tensor& self) {
  return at::pow(self, 2);
}
Tensor& square_(Tensor& self) {
  return self.pow_(2);
}
Tensor& square(const Tensor& self, Tensor& out) {
  return at::pow_out(out, self, 2);
}

}  // namespace at::native
