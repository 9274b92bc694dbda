// aten/src/ATen/ScalarOps.h - numbers as 0-dim tensors, so that add(tensor, 2) can reuse
// add(tensor, tensor). Mirrors PyTorch's aten/src/ATen/ScalarOps.h.
// Guide: docs/source/internals/tensor_iterator.rst ("Wrapped numbers").
#pragma once

#include <ATen/core/Tensor.h>

namespace c10 {
// A 0-dim tensor on `device` holding s, of s's own dtype (double, int64, bool or complex128).
TORCH_API at::Tensor scalar_to_tensor(const Scalar& s, const Device device = at::kCPU);
}  // namespace c10

namespace at::native {
// As scalar_to_tensor, marked as a wrapped number: in type promotion it counts in the lowest
// tier (below 0-dim tensors), and a wrapped double means "the default float dtype". This is
// how torch.add(int32_tensor, 2.5) comes out float32 rather than float64.
TORCH_API Tensor wrapped_scalar_tensor(const Scalar& scalar, const Device device = at::kCPU);
}  // namespace at::native
