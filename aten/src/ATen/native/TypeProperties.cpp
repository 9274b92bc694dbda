// aten/src/ATen/native/TypeProperties.cpp - result_type, can_cast, promote_types.
// Mirrors PyTorch's aten/src/ATen/native/TypeProperties.cpp. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/native/TypeProperties.h>

#include <ATen/NativeFunctions.h>
#include <c10/core/DefaultDtype.h>

namespace at::native {

namespace {

ScalarType promote_skip_undefined(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) {
    return b;
  }
  if (b == ScalarType::Undefined) {
    return a;
  }
  return promoteTypes(a, b);
}

// `higher` is the result of a higher tier, `lower` of a lower one. The lower tier matters
// only if its category is higher: int32 tensor + 2.5 is float32 (floating beats integral,
// and a Python float means "the default float dtype"), but uint8 tensor + 0-dim int64 stays
// uint8 and float16 tensor + 0-dim float64 stays float16.
ScalarType combine_categories(ScalarType higher, ScalarType lower) {
  if (isComplexType(higher)) {
    return higher;
  }
  if (isComplexType(lower)) {
    // A floating higher keeps its width: float64 tensor + 1j is complex128.
    if (isFloatingType(higher)) {
      return toComplexType(higher);
    }
    return lower;
  }
  if (isFloatingType(higher)) {
    return higher;
  }
  if (higher == ScalarType::Bool || isFloatingType(lower)) {
    return promote_skip_undefined(higher, lower);
  }
  if (higher != ScalarType::Undefined) {
    return higher;
  }
  return lower;
}

}  // namespace

ResultTypeState update_result_type_state(const Tensor& tensor, const ResultTypeState& in_state) {
  if (!tensor.defined()) {
    return in_state;
  }
  ResultTypeState new_state = in_state;
  ScalarType current = tensor.scalar_type();
  if (tensor.unsafeGetTensorImpl()->is_wrapped_number()) {
    // A wrapped Python float is stored as double but means "the default dtype".
    if (isComplexType(current)) {
      current = c10::get_default_complex_dtype().toScalarType();
    } else if (isFloatingType(current)) {
      current = c10::get_default_dtype_as_scalartype();
    }
  }
  if (tensor.dim() > 0) {
    new_state.dimResult = promote_skip_undefined(in_state.dimResult, current);
  } else if (tensor.unsafeGetTensorImpl()->is_wrapped_number()) {
    new_state.wrappedResult = promote_skip_undefined(in_state.wrappedResult, current);
  } else {
    new_state.zeroResult = promote_skip_undefined(in_state.zeroResult, current);
  }
  return new_state;
}

ResultTypeState update_result_type_state(const Scalar& scalar, const ResultTypeState& in_state) {
  ResultTypeState new_state = in_state;
  ScalarType current = scalar.type();
  if (isComplexType(current)) {
    current = c10::get_default_complex_dtype().toScalarType();
  } else if (isFloatingType(current)) {
    current = c10::get_default_dtype_as_scalartype();
  }
  new_state.wrappedResult = promote_skip_undefined(in_state.wrappedResult, current);
  return new_state;
}

ScalarType result_type(const ResultTypeState& in_state) {
  return combine_categories(in_state.dimResult, combine_categories(in_state.zeroResult, in_state.wrappedResult));
}

ScalarType result_type(const Tensor& tensor, const Tensor& other) {
  ResultTypeState state = {};
  state = update_result_type_state(tensor, state);
  state = update_result_type_state(other, state);
  return result_type(state);
}

ScalarType result_type(const Tensor& tensor, const Scalar& other) {
  ResultTypeState state = {};
  state = update_result_type_state(tensor, state);
  state = update_result_type_state(other, state);
  return result_type(state);
}

ScalarType result_type(const Scalar& scalar, const Tensor& tensor) {
  return result_type(tensor, scalar);
}

ScalarType result_type(const Scalar& scalar1, const Scalar& scalar2) {
  ResultTypeState state = {};
  state = update_result_type_state(scalar1, state);
  state = update_result_type_state(scalar2, state);
  return result_type(state);
}

bool can_cast(ScalarType from_, ScalarType to) {
  return c10::canCast(from_, to);
}

ScalarType promote_types(ScalarType type1, ScalarType type2) {
  ScalarType ret = promoteTypes(type1, type2);
  TORCH_CHECK(ret != ScalarType::Undefined, "Promotion from ", type1, " and ", type2, " is unsupported.");
  return ret;
}

}  // namespace at::native
