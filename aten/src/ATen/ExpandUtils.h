// aten/src/ATen/ExpandUtils.h - broadcasting: the shape two shapes broadcast to.
// Mirrors PyTorch's aten/src/ATen/ExpandUtils.h. Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <c10/macros/Export.h>
#include <c10/util/ArrayRef.h>

#include <vector>

namespace at {

using c10::IntArrayRef;

// Align the shapes at their last dimension; each pair of sizes must be equal or contain a
// 1 (which stretches). [2, 3] with [3] -> [2, 3]; [2, 1] with [1, 4] -> [2, 4].
// "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"
TORCH_API std::vector<int64_t> infer_size(IntArrayRef a, IntArrayRef b);

// Could a tensor of `shape` be broadcast (expanded) to `desired`?
TORCH_API bool is_expandable_to(IntArrayRef shape, IntArrayRef desired);

}  // namespace at

namespace at {
class Tensor;
// The reverse of broadcasting: sum `tensor` down to `shape` (summing the leading dimensions
// broadcasting added and, keeping them, the dimensions where shape has a 1). Autograd uses
// it to give the input of a broadcasting operator a gradient of the input's own shape.
TORCH_API Tensor sum_to(const Tensor& tensor, IntArrayRef shape);

}  // namespace at
