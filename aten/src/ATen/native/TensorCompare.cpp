// aten/src/ATen/native/TensorCompare.cpp - where, clamp, clamp_min, clamp_max.
// Mirrors PyTorch's aten/src/ATen/native/TensorCompare.cpp. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/native/TensorCompare.h>

#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/ScalarOps.h>
#include <ATen/TensorIterator.h>
#include <ATen/TensorOperators.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/TypeProperties.h>

#include <limits>

namespace at::native {

DEFINE_DISPATCH(where_kernel);
DEFINE_DISPATCH(clamp_stub);
DEFINE_DISPATCH(clamp_scalar_stub);
DEFINE_DISPATCH(clamp_min_scalar_stub);
DEFINE_DISPATCH(clamp_max_scalar_stub);

// ---- where ----

// condition ? self : other, elementwise, all three broadcast together. self and other are
// promoted to their result type first; the condition must be bool.
Tensor& where_self_out(const Tensor& condition, const Tensor& self, const Tensor& other, Tensor& out) {
  const auto result_type = at::native::result_type(self, other);
  TORCH_CHECK(out.scalar_type() == result_type, "Expected out type to be ", result_type, " but got ", out.scalar_type());
  auto self_ = self.scalar_type() != result_type ? self.to(result_type) : self;
  auto other_ = other.scalar_type() != result_type ? other.to(result_type) : other;
  auto condition_ = condition;
  if (condition.scalar_type() == ScalarType::Byte) {
    // Deprecated in PyTorch (with a warning): uint8 conditions are read as bool.
    condition_ = condition.to(kBool);
  }
  TORCH_CHECK(condition_.scalar_type() == kBool, "where expected condition to be a boolean tensor, but got a tensor with dtype ",
              condition_.scalar_type());
  auto iter = TensorIteratorConfig()
                  .check_all_same_dtype(false)
                  .add_output(out)
                  .add_const_input(condition_)
                  .add_const_input(self_)
                  .add_const_input(other_)
                  .build();
  where_kernel(iter.device_type(), iter);
  return out;
}

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  const auto result_type = at::native::result_type(self, other);
  Tensor ret = at::empty({0}, result_type, std::nullopt, self.device(), std::nullopt, std::nullopt);
  at::native::where_self_out(condition, self, other, ret);
  return ret;
}

Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other) {
  return at::where(condition, wrapped_scalar_tensor(self, other.device()), other);
}

Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other) {
  return at::where(condition, self, wrapped_scalar_tensor(other, self.device()));
}

Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other) {
  return at::where(condition, wrapped_scalar_tensor(self, condition.device()),
                   wrapped_scalar_tensor(other, condition.device()));
}

// ---- clamp with numbers ----

namespace {

// The dtype clamp computes in: self's, unless a bound of a higher category raises it (an int
// tensor clamped to 0.5 is float) - but never for an in-place clamp_.
ScalarType clamp_result_type(const Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max,
                             const Tensor& out) {
  TORCH_CHECK(min || max, "torch.clamp: At least one of 'min' or 'max' must not be None");
  ScalarType result_type = self.scalar_type();
  TORCH_CHECK_NOT_IMPLEMENTED(!isComplexType(result_type), "clamp is not supported for complex types");
  if (!isFloatingType(result_type)) {
    ResultTypeState state = {};
    state = update_result_type_state(self, state);
    if (min) {
      state = update_result_type_state(*min, state);
    }
    if (max) {
      state = update_result_type_state(*max, state);
    }
    result_type = at::native::result_type(state);
    TORCH_CHECK(result_type == self.scalar_type() || !out.defined() || !out.is_same(self), "result type ",
                result_type, " can't be cast to the desired output type ", self.dtype());
  }
  TORCH_CHECK_NOT_IMPLEMENTED(!isComplexType(result_type), "clamp is not supported for complex types");
  return result_type;
}

Tensor clamp_scalar_impl(const Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                         const std::optional<Scalar>& max) {
  const auto result_type = clamp_result_type(self, min, max, out);
  auto iter = TensorIterator::unary_op(out, self.to(result_type));
  if (min && max) {
    if (min->toDouble() != min->toDouble() || max->toDouble() != max->toDouble()) {
      // A NaN bound makes every element NaN.
      Tensor result = iter.output();
      result.fill_(std::numeric_limits<double>::quiet_NaN());
    } else {
      clamp_scalar_stub(iter.device_type(), iter, *min, *max);
    }
  } else if (max) {
    clamp_max_scalar_stub(iter.device_type(), iter, *max);
  } else {
    clamp_min_scalar_stub(iter.device_type(), iter, *min);
  }
  return iter.output();
}

}  // namespace

Tensor clamp(const Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max) {
  return clamp_scalar_impl(Tensor(), self, min, max);
}
Tensor& clamp_out(const Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max, Tensor& out) {
  clamp_scalar_impl(out, self, min, max);
  return out;
}
Tensor& clamp_(Tensor& self, std::optional<Scalar> min, std::optional<Scalar> max) {
  clamp_scalar_impl(self, self, min, max);
  return self;
}

Tensor clamp_min(const Tensor& self, const Scalar& min) {
  return clamp_scalar_impl(Tensor(), self, min, std::nullopt);
}
Tensor& clamp_min_out(const Tensor& self, const Scalar& min, Tensor& out) {
  clamp_scalar_impl(out, self, min, std::nullopt);
  return out;
}
Tensor& clamp_min_(Tensor& self, const Scalar& min) {
  clamp_scalar_impl(self, self, min, std::nullopt);
  return self;
}
Tensor clamp_max(const Tensor& self, const Scalar& max) {
  return clamp_scalar_impl(Tensor(), self, std::nullopt, max);
}
Tensor& clamp_max_out(const Tensor& self, const Scalar& max, Tensor& out) {
  clamp_scalar_impl(out, self, std::nullopt, max);
  return out;
}
Tensor& clamp_max_(Tensor& self, const Scalar& max) {
  clamp_scalar_impl(self, self, std::nullopt, max);
  return self;
}

// ---- clamp with tensors ----

namespace {

Tensor clamp_tensor_impl(const Tensor& out, const Tensor& self, const std::optional<Tensor>& min,
                         const std::optional<Tensor>& max) {
  const bool has_min = min.has_value() && min->defined();
  const bool has_max = max.has_value() && max->defined();
  TORCH_CHECK(has_min || has_max, "torch.clamp: At least one of 'min' or 'max' must not be None");
  TORCH_CHECK_NOT_IMPLEMENTED(!isComplexType(self.scalar_type()), "clamp is not supported for complex types");
  auto config = TensorIteratorConfig()
                    .set_check_mem_overlap(true)
                    .add_output(out)
                    .add_const_input(self)
                    .promote_inputs_to_common_dtype(true)
                    .cast_common_dtype_to_outputs(true)
                    .enforce_safe_casting_to_output(true);
  if (has_min) {
    config.add_const_input(*min);
  }
  if (has_max) {
    config.add_const_input(*max);
  }
  auto iter = config.build();
  if (has_min && has_max) {
    clamp_stub(iter.device_type(), iter);
  } else if (has_min) {
    maximum_stub(iter.device_type(), iter);  // clamp below = the larger of x and min
  } else {
    minimum_stub(iter.device_type(), iter);
  }
  return iter.output();
}

}  // namespace

Tensor clamp(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  return clamp_tensor_impl(Tensor(), self, min, max);
}
Tensor& clamp_out(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max, Tensor& out) {
  clamp_tensor_impl(out, self, min, max);
  return out;
}
Tensor& clamp_(Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  clamp_tensor_impl(self, self, min, max);
  return self;
}

// |self - other| <= atol + rtol * |other|, elementwise; equal values (infinities included)
// are close, NaNs only with equal_nan. Composite: written with other operators, so
// autograd and every backend come for free.
Tensor isclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  TORCH_CHECK(self.scalar_type() == other.scalar_type(), self.scalar_type(), " did not match ", other.scalar_type());
  TORCH_CHECK(rtol >= 0, "rtol must be greater than or equal to zero, but got ", rtol);
  TORCH_CHECK(atol >= 0, "atol must be greater than or equal to zero, but got ", atol);
  Tensor close = self == other;
  if (equal_nan && (c10::isFloatingType(self.scalar_type()) || c10::isComplexType(self.scalar_type()))) {
    close = close.logical_or(self.isnan().logical_and(other.isnan()));
  }
  const Tensor allowed_error = atol + (rtol * other).abs();
  const Tensor actual_error = (self - other).abs();
  return close.logical_or(actual_error.isfinite().logical_and(actual_error <= allowed_error));
}

bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  return at::_local_scalar_dense(at::_ops::all::call(at::isclose(self, other, rtol, atol, equal_nan))).toBool();
}

// Same shape and the same values (after type promotion, as PyTorch 2.x compares).
bool equal(const Tensor& self, const Tensor& other) {
  if (self.sizes() != other.sizes()) {
    return false;
  }
  return at::_local_scalar_dense(at::_ops::all::call(at::eq(self, other))).toBool();
}

}  // namespace at::native
