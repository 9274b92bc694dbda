// c10/core/Contiguity.h - is a (sizes, strides) layout contiguous / dense?
// Mirrors PyTorch's c10/core/Contiguity.h. Guide: docs/source/internals/tensors.rst.
#pragma once

#include <c10/util/ArrayRef.h>

#include <algorithm>
#include <numeric>
#include <vector>

namespace c10 {

// [marker: compute_contiguous]
// Row-major contiguous: walking from the last dimension, each stride equals the product
// of the sizes after it. Dimensions of size 1 are skipped (their stride can be anything:
// it is never used to step), and an empty tensor is contiguous.
inline bool _compute_contiguous(IntArrayRef sizes, IntArrayRef strides, int64_t numel) {
  if (numel == 0) {
    return true;
  }
  int64_t expected_stride = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; d--) {
    const auto size_d = sizes[d];
    if (size_d == 1) {
      continue;
    }
    if (strides[d] != expected_stride) {
      return false;
    }
    expected_stride *= size_d;
  }
  return true;
}
// [end marker: compute_contiguous]

// Non-overlapping and dense: some permutation of the dimensions is contiguous (every
// element has its own address and the elements fill a block without gaps), e.g. a
// transposed matrix. Such a tensor can be processed as one flat array.
inline bool _compute_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides) {
  const auto dim = sizes.size();
  if (dim == 1) {
    return sizes[0] < 2 || strides[0] == 1;
  }
  std::vector<int64_t> perm(dim);
  std::iota(perm.begin(), perm.end(), 0);
  // Sort dimensions by stride, size-1 dimensions last (their strides do not matter).
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  int64_t require_stride = 1;
  for (size_t i = 0; i < dim; i++) {
    const auto size_perm_i = sizes[perm[i]];
    if (size_perm_i < 2) {
      return true;
    }
    if (strides[perm[i]] != require_stride) {
      return false;
    }
    require_stride *= size_perm_i;
  }
  return true;
}

}  // namespace c10
