// aten/src/ATen/ExpandUtils.cpp - infer_size, the broadcasting rule.
// Mirrors PyTorch's aten/src/ATen/ExpandUtils.cpp. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/ExpandUtils.h>

#include <c10/util/Exception.h>

namespace at {

std::vector<int64_t> infer_size(IntArrayRef a, IntArrayRef b) {
  const int64_t dimsA = static_cast<int64_t>(a.size());
  const int64_t dimsB = static_cast<int64_t>(b.size());
  const int64_t ndim = dimsA > dimsB ? dimsA : dimsB;
  std::vector<int64_t> expandedSizes(static_cast<size_t>(ndim));
  // Walk from the last dimension; a missing leading dimension counts as size 1.
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t offset = ndim - 1 - i;
    const int64_t dimA = dimsA - 1 - offset;
    const int64_t dimB = dimsB - 1 - offset;
    const int64_t sizeA = dimA >= 0 ? a[dimA] : 1;
    const int64_t sizeB = dimB >= 0 ? b[dimB] : 1;
    TORCH_CHECK(sizeA == sizeB || sizeA == 1 || sizeB == 1, "The size of tensor a (", sizeA,
                ") must match the size of tensor b (", sizeB, ") at non-singleton dimension ", i);
    expandedSizes[i] = sizeA == 1 ? sizeB : sizeA;
  }
  return expandedSizes;
}

}  // namespace at

#include <ATen/Functions.h>

namespace at {

bool is_expandable_to(IntArrayRef shape, IntArrayRef desired) {
  const size_t ndim = shape.size();
  const size_t target_dim = desired.size();
  if (ndim > target_dim) {
    return false;
  }
  for (size_t i = 0; i < ndim; i++) {
    const int64_t size = shape[ndim - i - 1];
    const int64_t target = desired[target_dim - i - 1];
    if (size != target && size != 1) {
      return false;
    }
  }
  return true;
}

Tensor sum_to(const Tensor& tensor, IntArrayRef shape) {
  if (shape.size() == 0) {
    return tensor.sum();
  }
  const auto sizes = tensor.sizes();
  std::vector<int64_t> reduce_dims;
  const int64_t leading_dims = static_cast<int64_t>(sizes.size()) - static_cast<int64_t>(shape.size());
  for (int64_t i = 0; i < leading_dims; ++i) {
    reduce_dims.push_back(i);
  }
  for (int64_t i = leading_dims; i < static_cast<int64_t>(sizes.size()); ++i) {
    if (shape[i - leading_dims] == 1 && sizes[i] != 1) {
      reduce_dims.push_back(i);
    }
  }
  Tensor result = tensor;
  if (!reduce_dims.empty()) {
    result = result.sum(reduce_dims, /*keepdim=*/true);
  }
  return leading_dims > 0 ? result.view(shape) : result;
}

}  // namespace at
