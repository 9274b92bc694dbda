// aten/src/ATen/native/TypeProperties.h - result_type: the dtype an operation computes in.
// Mirrors PyTorch's aten/src/ATen/native/TypeProperties.h. Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <ATen/core/Tensor.h>

namespace at::native {

// The three tiers of operands, each promoted within itself: tensors with dimensions,
// 0-dim tensors, and wrapped numbers (Python scalars turned into 0-dim tensors).
struct ResultTypeState {
  ScalarType dimResult = ScalarType::Undefined;
  ScalarType zeroResult = ScalarType::Undefined;
  ScalarType wrappedResult = ScalarType::Undefined;
};

TORCH_API ResultTypeState update_result_type_state(const Tensor& tensor, const ResultTypeState& in_state);
TORCH_API ResultTypeState update_result_type_state(const Scalar& scalar, const ResultTypeState& in_state);
TORCH_API ScalarType result_type(const ResultTypeState& state);

}  // namespace at::native
