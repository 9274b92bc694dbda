// aten/src/ATen/native/BinaryOps.cpp - add, sub, mul, div, floor_divide, remainder, fmod, pow,
// maximum, minimum, atan2, comparisons, logical and bitwise operators: the checks and the
// TensorIterator of each; the loops are in cpu/BinaryOpsKernel.cpp.
// Mirrors PyTorch's aten/src/ATen/native/BinaryOps.cpp (and Pow.cpp). Guide: docs/source/internals/one_call.rst.
//
// Every operator comes in three forms that share one body: functional add(a, b) (the output
// is allocated by the iterator), in-place a.add_(b) (out is a), and add(a, b, out=c). PyTorch
// writes them as one "structured" kernel (meta + impl) and generates the three; here each
// form is a line calling the same helper. A Scalar argument (a + 2) becomes a wrapped-number
// 0-dim tensor and goes through the tensor form.
#include <ATen/native/BinaryOps.h>

#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/ScalarOps.h>
#include <ATen/TensorIterator.h>

namespace at::native {

DEFINE_DISPATCH(add_stub);
DEFINE_DISPATCH(mul_stub);
DEFINE_DISPATCH(div_true_stub);
DEFINE_DISPATCH(div_trunc_stub);
DEFINE_DISPATCH(div_floor_stub);
DEFINE_DISPATCH(remainder_stub);
DEFINE_DISPATCH(fmod_stub);
DEFINE_DISPATCH(atan2_stub);
DEFINE_DISPATCH(sigmoid_backward_stub);
DEFINE_DISPATCH(tanh_backward_stub);
DEFINE_DISPATCH(maximum_stub);
DEFINE_DISPATCH(minimum_stub);
DEFINE_DISPATCH(bitwise_and_stub);
DEFINE_DISPATCH(bitwise_or_stub);
DEFINE_DISPATCH(bitwise_xor_stub);
DEFINE_DISPATCH(logical_and_stub);
DEFINE_DISPATCH(logical_or_stub);
DEFINE_DISPATCH(logical_xor_stub);
DEFINE_DISPATCH(lt_stub);
DEFINE_DISPATCH(le_stub);
DEFINE_DISPATCH(gt_stub);
DEFINE_DISPATCH(ge_stub);
DEFINE_DISPATCH(eq_stub);
DEFINE_DISPATCH(ne_stub);
DEFINE_DISPATCH(copysign_stub);
DEFINE_DISPATCH(gcd_stub);
DEFINE_DISPATCH(lcm_stub);
DEFINE_DISPATCH(heaviside_stub);
DEFINE_DISPATCH(hypot_stub);
DEFINE_DISPATCH(logaddexp_stub);
DEFINE_DISPATCH(logaddexp2_stub);
DEFINE_DISPATCH(fmax_stub);
DEFINE_DISPATCH(fmin_stub);
DEFINE_DISPATCH(pow_tensor_tensor_stub);
DEFINE_DISPATCH(pow_tensor_scalar_stub);

namespace {

void alpha_check(ScalarType dtype, const Scalar& alpha) {
  TORCH_CHECK(!alpha.isBoolean() || dtype == ScalarType::Bool, "Boolean alpha only supported for Boolean results.");
  TORCH_CHECK(isFloatingType(dtype) || isComplexType(dtype) || alpha.isIntegral(true),
              "For integral input tensors, argument alpha must not be a floating point number.");
  TORCH_CHECK(isComplexType(dtype) || !alpha.isComplex(), "For non-complex input tensors, argument alpha must not be a complex number.");
}

void sub_check(const Tensor& self, const Tensor& other) {
  TORCH_CHECK(self.scalar_type() != kBool || other.scalar_type() != kBool,
              "Subtraction, the `-` operator, with two bool tensors is not supported. "
              "Use the `^` or `logical_xor()` operator instead.");
  TORCH_CHECK(self.scalar_type() != kBool && other.scalar_type() != kBool,
              "Subtraction, the `-` operator, with a bool tensor is not supported. "
              "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
}

// -alpha, for sub (c10::Scalar has no unary minus in this tree).
Scalar negate(const Scalar& s) {
  if (s.isComplex()) {
    const auto z = s.toComplexDouble();
    return Scalar(c10::complex<double>(-z.real(), -z.imag()));
  }
  if (s.isFloatingPoint()) {
    return Scalar(-s.toDouble());
  }
  TORCH_CHECK(!s.isBoolean(), "torch boolean negative is not supported.");
  return Scalar(-s.toLong());
}

using BuildFn = TensorIterator (*)(const Tensor&, const Tensor&, const Tensor&);

// Build the iterator for (out, self, other), run the stub, return the output (the caller's
// out, or the tensor the iterator allocated).
template <typename Stub>
Tensor run_binary(BuildFn build, Stub& stub, const Tensor& out, const Tensor& self, const Tensor& other) {
  auto iter = build(out, self, other);
  stub(iter.device_type(), iter);
  return iter.output();
}

}  // namespace

// ---- add / sub ----

// [marker: add_out]
Tensor& add_out(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  auto iter = TensorIterator::binary_op(out, self, other);
  alpha_check(iter.common_dtype(), alpha);
  add_stub(iter.device_type(), iter, alpha);
  return out;
}

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  auto iter = TensorIterator::binary_op(Tensor(), self, other);
  alpha_check(iter.common_dtype(), alpha);
  add_stub(iter.device_type(), iter, alpha);
  return iter.output();
}

Tensor& add_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  return at::native::add_out(self, other, alpha, self);
}
// [end marker: add_out]

Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return at::add(self, wrapped_scalar_tensor(other), alpha);
}

Tensor& add_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  return self.add_(wrapped_scalar_tensor(other), alpha);
}

Tensor& sub_out(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out) {
  sub_check(self, other);
  auto iter = TensorIterator::binary_op(out, self, other);
  alpha_check(iter.common_dtype(), alpha);
  // a - alpha * b is a + (-alpha) * b: one kernel for both.
  add_stub(iter.device_type(), iter, negate(alpha));
  return out;
}

Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  sub_check(self, other);
  auto iter = TensorIterator::binary_op(Tensor(), self, other);
  alpha_check(iter.common_dtype(), alpha);
  add_stub(iter.device_type(), iter, negate(alpha));
  return iter.output();
}

Tensor& sub_(Tensor& self, const Tensor& other, const Scalar& alpha) {
  return at::native::sub_out(self, other, alpha, self);
}

Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return at::sub(self, wrapped_scalar_tensor(other), alpha);
}

Tensor& sub_(Tensor& self, const Scalar& other, const Scalar& alpha) {
  return self.sub_(wrapped_scalar_tensor(other), alpha);
}

// ---- operators with one stub: functional, in-place, out= and Scalar forms ----

#define DEFINE_BINARY_OP(name, build, stub)                                        \
  Tensor& name##_out(const Tensor& self, const Tensor& other, Tensor& out) {       \
    run_binary(&TensorIterator::build, stub, out, self, other);                    \
    return out;                                                                    \
  }                                                                                \
  Tensor name(const Tensor& self, const Tensor& other) {                           \
    return run_binary(&TensorIterator::build, stub, Tensor(), self, other);        \
  }                                                                                \
  Tensor& name##_(Tensor& self, const Tensor& other) {                             \
    return at::native::name##_out(self, other, self);                              \
  }

#define DEFINE_SCALAR_FORMS(name)                                                  \
  Tensor name(const Tensor& self, const Scalar& other) {                           \
    return at::name(self, wrapped_scalar_tensor(other));                           \
  }                                                                                \
  Tensor& name##_(Tensor& self, const Scalar& other) {                             \
    return self.name##_(wrapped_scalar_tensor(other));                             \
  }

DEFINE_BINARY_OP(mul, binary_op, mul_stub)
DEFINE_SCALAR_FORMS(mul)
// True division: integer inputs divide as the default float dtype (1 / 2 == 0.5).
DEFINE_BINARY_OP(div, binary_float_op, div_true_stub)
DEFINE_SCALAR_FORMS(div)
DEFINE_BINARY_OP(floor_divide, binary_op, div_floor_stub)
DEFINE_SCALAR_FORMS(floor_divide)
DEFINE_BINARY_OP(remainder, binary_op, remainder_stub)
DEFINE_SCALAR_FORMS(remainder)
DEFINE_BINARY_OP(fmod, binary_op, fmod_stub)
DEFINE_SCALAR_FORMS(fmod)
DEFINE_BINARY_OP(atan2, binary_float_op, atan2_stub)

// autograd's SigmoidBackward0 and TanhBackward0 (tools/autograd/derivatives.yaml) call these
// with the saved output y: one pass over (grad, y) each, where grad * (1 - y) * y written with
// tensor operations would make three passes and two temporaries.
Tensor sigmoid_backward(const Tensor& grad_output, const Tensor& output) {
  auto iter = TensorIterator::binary_op(Tensor(), grad_output, output);
  sigmoid_backward_stub(iter.device_type(), iter);
  return iter.output();
}

Tensor tanh_backward(const Tensor& grad_output, const Tensor& output) {
  auto iter = TensorIterator::binary_op(Tensor(), grad_output, output);
  tanh_backward_stub(iter.device_type(), iter);
  return iter.output();
}
DEFINE_BINARY_OP(bitwise_and, binary_op, bitwise_and_stub)
DEFINE_SCALAR_FORMS(bitwise_and)
DEFINE_BINARY_OP(bitwise_or, binary_op, bitwise_or_stub)
DEFINE_SCALAR_FORMS(bitwise_or)
DEFINE_BINARY_OP(bitwise_xor, binary_op, bitwise_xor_stub)
DEFINE_SCALAR_FORMS(bitwise_xor)
// Comparisons and logical operators: bool results (comparison_op).
DEFINE_BINARY_OP(logical_and, comparison_op, logical_and_stub)
DEFINE_BINARY_OP(logical_or, comparison_op, logical_or_stub)
DEFINE_BINARY_OP(logical_xor, comparison_op, logical_xor_stub)
DEFINE_BINARY_OP(eq, comparison_op, eq_stub)
DEFINE_SCALAR_FORMS(eq)
DEFINE_BINARY_OP(ne, comparison_op, ne_stub)
DEFINE_SCALAR_FORMS(ne)
DEFINE_BINARY_OP(lt, comparison_op, lt_stub)
DEFINE_SCALAR_FORMS(lt)
DEFINE_BINARY_OP(le, comparison_op, le_stub)
DEFINE_SCALAR_FORMS(le)
DEFINE_BINARY_OP(gt, comparison_op, gt_stub)
DEFINE_SCALAR_FORMS(gt)
DEFINE_BINARY_OP(ge, comparison_op, ge_stub)
DEFINE_SCALAR_FORMS(ge)

// The Scalar out= forms of comparisons (eq.Scalar_out).
#define DEFINE_SCALAR_OUT(name)                                                    \
  Tensor& name##_out(const Tensor& self, const Scalar& other, Tensor& out) {       \
    return at::native::name##_out(self, wrapped_scalar_tensor(other), out);        \
  }
DEFINE_SCALAR_OUT(eq)
DEFINE_SCALAR_OUT(ne)
DEFINE_SCALAR_OUT(lt)
DEFINE_SCALAR_OUT(le)
DEFINE_SCALAR_OUT(gt)
DEFINE_SCALAR_OUT(ge)

// Scalar first: 2 % t, 5 & t.
Tensor remainder(const Scalar& self, const Tensor& other) {
  return at::remainder(wrapped_scalar_tensor(self), other);
}
Tensor bitwise_and(const Scalar& self, const Tensor& other) {
  return at::bitwise_and(wrapped_scalar_tensor(self), other);
}
Tensor bitwise_or(const Scalar& self, const Tensor& other) {
  return at::bitwise_or(wrapped_scalar_tensor(self), other);
}
Tensor bitwise_xor(const Scalar& self, const Tensor& other) {
  return at::bitwise_xor(wrapped_scalar_tensor(self), other);
}

// ---- div with rounding_mode ----

namespace {
// The stub and iterator for a rounding mode: none is true division (float results);
// "trunc" and "floor" keep integer dtypes.
Tensor div_mode_impl(const Tensor& out, const Tensor& self, const Tensor& other,
                     std::optional<c10::string_view> rounding_mode) {
  if (!rounding_mode.has_value()) {
    return run_binary(&TensorIterator::binary_float_op, div_true_stub, out, self, other);
  }
  if (*rounding_mode == "trunc") {
    return run_binary(&TensorIterator::binary_op, div_trunc_stub, out, self, other);
  }
  if (*rounding_mode == "floor") {
    return run_binary(&TensorIterator::binary_op, div_floor_stub, out, self, other);
  }
  TORCH_CHECK(false, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
              std::string(rounding_mode->data(), rounding_mode->size()), "'");
}
}  // namespace

Tensor div(const Tensor& self, const Tensor& other, std::optional<c10::string_view> rounding_mode) {
  return div_mode_impl(Tensor(), self, other, rounding_mode);
}
Tensor& div_out(const Tensor& self, const Tensor& other, std::optional<c10::string_view> rounding_mode, Tensor& out) {
  div_mode_impl(out, self, other, rounding_mode);
  return out;
}
Tensor& div_(Tensor& self, const Tensor& other, std::optional<c10::string_view> rounding_mode) {
  return at::native::div_out(self, other, rounding_mode, self);
}
Tensor div(const Tensor& self, const Scalar& other, std::optional<c10::string_view> rounding_mode) {
  return at::div(self, wrapped_scalar_tensor(other), rounding_mode);
}
Tensor& div_(Tensor& self, const Scalar& other, std::optional<c10::string_view> rounding_mode) {
  return self.div_(wrapped_scalar_tensor(other), rounding_mode);
}

// ---- maximum / minimum ----

Tensor& maximum_out(const Tensor& self, const Tensor& other, Tensor& out) {
  TORCH_CHECK(!isComplexType(self.scalar_type()) && !isComplexType(other.scalar_type()),
              "maximum not implemented for complex tensors.");
  run_binary(&TensorIterator::binary_op, maximum_stub, out, self, other);
  return out;
}
Tensor maximum(const Tensor& self, const Tensor& other) {
  TORCH_CHECK(!isComplexType(self.scalar_type()) && !isComplexType(other.scalar_type()),
              "maximum not implemented for complex tensors.");
  return run_binary(&TensorIterator::binary_op, maximum_stub, Tensor(), self, other);
}
Tensor& minimum_out(const Tensor& self, const Tensor& other, Tensor& out) {
  TORCH_CHECK(!isComplexType(self.scalar_type()) && !isComplexType(other.scalar_type()),
              "minimum not implemented for complex tensors.");
  run_binary(&TensorIterator::binary_op, minimum_stub, out, self, other);
  return out;
}
Tensor minimum(const Tensor& self, const Tensor& other) {
  TORCH_CHECK(!isComplexType(self.scalar_type()) && !isComplexType(other.scalar_type()),
              "minimum not implemented for complex tensors.");
  return run_binary(&TensorIterator::binary_op, minimum_stub, Tensor(), self, other);
}
// max(a, b) and min(a, b) with two tensors are maximum and minimum (TensorCompare.cpp in
// PyTorch): the overload is chosen by the argument, a tensor rather than a dim.
Tensor max_other(const Tensor& self, const Tensor& other) {
  return at::maximum(self, other);
}
Tensor min_other(const Tensor& self, const Tensor& other) {
  return at::minimum(self, other);
}

// ---- pow (PyTorch: Pow.cpp) ----

Tensor& pow_out(const Tensor& base, const Tensor& exp, Tensor& out) {
  run_binary(&TensorIterator::binary_op, pow_tensor_tensor_stub, out, base, exp);
  return out;
}
Tensor pow(const Tensor& base, const Tensor& exp) {
  return run_binary(&TensorIterator::binary_op, pow_tensor_tensor_stub, Tensor(), base, exp);
}
Tensor& pow_(Tensor& base, const Tensor& exp) {
  return at::native::pow_out(base, exp, base);
}

// The exponent is a number: the result dtype is result_type(base, exponent) (int tensor ** 2.5
// is float), the base is converted to it once, and the kernel sees a unary loop.
Tensor& pow_out(const Tensor& base, const Scalar& exp, Tensor& out) {
  TORCH_CHECK(!(isIntegralType(base.scalar_type(), true) && exp.isIntegral(true) && exp.toLong() < 0),
              "Integers to negative integer powers are not allowed.");
  const auto common_dtype = at::result_type(base, exp);
  auto iter = TensorIteratorConfig()
                  .add_output(out)
                  .add_const_input(base.to(common_dtype))
                  .promote_inputs_to_common_dtype(true)
                  .cast_common_dtype_to_outputs(true)
                  .enforce_safe_casting_to_output(true)
                  .build();
  pow_tensor_scalar_stub(iter.device_type(), iter, exp);
  return out;
}

Tensor pow(const Tensor& base, const Scalar& exp) {
  Tensor out;
  TORCH_CHECK(!(isIntegralType(base.scalar_type(), true) && exp.isIntegral(true) && exp.toLong() < 0),
              "Integers to negative integer powers are not allowed.");
  const auto common_dtype = at::result_type(base, exp);
  auto iter = TensorIteratorConfig().add_output(out).add_const_input(base.to(common_dtype)).build();
  pow_tensor_scalar_stub(iter.device_type(), iter, exp);
  return iter.output();
}
Tensor& pow_(Tensor& base, const Scalar& exp) {
  return at::native::pow_out(base, exp, base);
}
Tensor pow(const Scalar& base, const Tensor& exp) {
  return at::pow(wrapped_scalar_tensor(base), exp);
}

Tensor& pow_out(const Scalar& base, const Tensor& exp, Tensor& out) {
  return at::pow_out(out, wrapped_scalar_tensor(base), exp);
}

// ---- copysign, gcd, lcm, heaviside, hypot, logaddexp, logaddexp2, fmax, fmin, true_divide ----
//
// Which iterator says how dtypes promote: copysign is a float op (integers compute in the
// default float dtype, as atan2); the others keep the common dtype, and the kernel's
// AT_DISPATCH list refuses the dtypes it has no loop for ("gcd_cpu" not implemented for 'Float').

// copysign(a, b): |a| with the sign of b.
DEFINE_BINARY_OP(copysign, binary_float_op, copysign_stub)
Tensor copysign(const Tensor& self, const Scalar& other) {
  return at::copysign(self, wrapped_scalar_tensor(other));
}
Tensor& copysign_(Tensor& self, const Scalar& other) {
  return self.copysign_(wrapped_scalar_tensor(other));
}
Tensor& copysign_out(const Tensor& self, const Scalar& other, Tensor& out) {
  return at::copysign_out(out, self, wrapped_scalar_tensor(other));
}

DEFINE_BINARY_OP(gcd, binary_op, gcd_stub)
DEFINE_BINARY_OP(lcm, binary_op, lcm_stub)
DEFINE_BINARY_OP(hypot, binary_op, hypot_stub)

// [marker: logaddexp_out]
// log(exp(a) + exp(b)) without overflow; its loop is logaddexp_kernel in cpu/BinaryOpsKernel.cpp.
Tensor& logaddexp_out(const Tensor& self, const Tensor& other, Tensor& out) {
  run_binary(&TensorIterator::binary_op, logaddexp_stub, out, self, other);
  return out;
}
Tensor logaddexp(const Tensor& self, const Tensor& other) {
  return run_binary(&TensorIterator::binary_op, logaddexp_stub, Tensor(), self, other);
}
// [end marker: logaddexp_out]
Tensor& logaddexp2_out(const Tensor& self, const Tensor& other, Tensor& out) {
  run_binary(&TensorIterator::binary_op, logaddexp2_stub, out, self, other);
  return out;
}
Tensor logaddexp2(const Tensor& self, const Tensor& other) {
  return run_binary(&TensorIterator::binary_op, logaddexp2_stub, Tensor(), self, other);
}

// heaviside(x, values): 0 for x < 0, values where x == 0, 1 for x > 0. Both operands must
// already have one dtype (PyTorch does not promote them).
namespace {
void heaviside_check(const Tensor& self, const Tensor& values, const Tensor& out = Tensor()) {
  TORCH_CHECK(!isComplexType(self.scalar_type()) && !isComplexType(values.scalar_type()) &&
                  (!out.defined() || !isComplexType(out.scalar_type())),
              "heaviside is not yet implemented for complex tensors.");
  TORCH_CHECK(self.scalar_type() == values.scalar_type() && (!out.defined() || out.scalar_type() == self.scalar_type()),
              "heaviside is not yet implemented for tensors with different dtypes.");
}
}  // namespace
Tensor& heaviside_out(const Tensor& self, const Tensor& values, Tensor& out) {
  heaviside_check(self, values, out);
  run_binary(&TensorIterator::binary_op, heaviside_stub, out, self, values);
  return out;
}
Tensor heaviside(const Tensor& self, const Tensor& values) {
  heaviside_check(self, values);
  return run_binary(&TensorIterator::binary_op, heaviside_stub, Tensor(), self, values);
}
Tensor& heaviside_(Tensor& self, const Tensor& values) {
  return at::native::heaviside_out(self, values, self);
}

// fmax/fmin: NumPy's fmax/fmin, which ignore a NaN when the other operand is a number
// (maximum/minimum propagate it).
Tensor& fmax_out(const Tensor& self, const Tensor& other, Tensor& out) {
  TORCH_CHECK(!isComplexType(self.scalar_type()) && !isComplexType(other.scalar_type()), "fmax not implemented for complex tensors.");
  run_binary(&TensorIterator::binary_op, fmax_stub, out, self, other);
  return out;
}
Tensor fmax(const Tensor& self, const Tensor& other) {
  TORCH_CHECK(!isComplexType(self.scalar_type()) && !isComplexType(other.scalar_type()), "fmax not implemented for complex tensors.");
  return run_binary(&TensorIterator::binary_op, fmax_stub, Tensor(), self, other);
}
Tensor& fmin_out(const Tensor& self, const Tensor& other, Tensor& out) {
  TORCH_CHECK(!isComplexType(self.scalar_type()) && !isComplexType(other.scalar_type()), "fmin not implemented for complex tensors.");
  run_binary(&TensorIterator::binary_op, fmin_stub, out, self, other);
  return out;
}
Tensor fmin(const Tensor& self, const Tensor& other) {
  TORCH_CHECK(!isComplexType(self.scalar_type()) && !isComplexType(other.scalar_type()), "fmin not implemented for complex tensors.");
  return run_binary(&TensorIterator::binary_op, fmin_stub, Tensor(), self, other);
}

// true_divide is div's older name (CompositeImplicitAutograd: autograd records DivBackward0).
Tensor true_divide(const Tensor& self, const Tensor& divisor) {
  return self.div(divisor);
}
Tensor& true_divide_(Tensor& self, const Tensor& divisor) {
  return self.div_(divisor);
}
Tensor& true_divide(const Tensor& self, const Tensor& divisor, Tensor& out) {
  return at::div_out(out, self, divisor);
}
Tensor true_divide(const Tensor& self, const Scalar& divisor) {
  return self.div(divisor);
}
Tensor& true_divide_(Tensor& self, const Scalar& divisor) {
  return self.div_(divisor);
}

}  // namespace at::native
