// aten/src/ATen/native/LinearAlgebraUtils.h - helpers shared by matmul, tensordot and einsum.
// Mirrors PyTorch's aten/src/ATen/native/LinearAlgebraUtils.h. Guide: docs/source/internals/one_call.rst.
#pragma once

#include <ATen/core/Tensor.h>

namespace at::native {

// t reshaped to `shape` (one -1 allowed) where only t's leading dims are merged: a view when
// the strides allow, else a contiguous copy (what Tensor::reshape does for these shapes).
TORCH_API Tensor reshape_leading_dims(const Tensor& t, IntArrayRef shape);

}  // namespace at::native
