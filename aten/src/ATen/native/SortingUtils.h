// aten/src/ATen/native/SortingUtils.h - the argument checks and output shapes that the CPU
// (Sorting.cpp) and CUDA (cuda/Sorting.cu, cuda/TensorTopK.cu) versions of kthvalue and topk
// share, so both devices refuse the same calls with the same words. Mirrors PyTorch's
// aten/src/ATen/native/SortingUtils.h. Guide: docs/source/internals/cuda_training.rst.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/native/ReduceOpsUtils.h>
#include <c10/core/WrapDimMinimal.h>

#include <vector>

namespace at::native {

// kthvalue's checks, in PyTorch's order (kthvalue_out_impl_cpu): the dim must exist (a 0-d
// tensor takes 0 or -1), the reduced dim must not be empty (an IndexError, as for max(dim)),
// and 1 <= k <= its size. Returns the wrapped dim.
inline int64_t kthvalue_check(const Tensor& self, int64_t k, int64_t dim_) {
  const int64_t dim = c10::maybe_wrap_dim(dim_, self.dim(), /*wrap_scalar=*/true);
  zero_numel_check_dims(self, dim, "kthvalue");
  const int64_t slice_size = self.dim() == 0 ? 1 : self.size(dim);
  TORCH_CHECK(k >= 1 && k <= slice_size, "kthvalue(): selected number k out of range for dimension ", dim);
  return dim;
}

// topk's check on k (PyTorch's TORCH_META_FUNC(topk)): 0 <= k <= the size of dim.
inline int64_t topk_check(const Tensor& self, int64_t k, int64_t dim_) {
  const int64_t dim = c10::maybe_wrap_dim(dim_, self.dim(), /*wrap_scalar=*/true);
  const int64_t slice_size = self.dim() == 0 ? 1 : self.size(dim);
  TORCH_CHECK(k >= 0 && k <= slice_size, "selected index k out of range");
  return dim;
}

// The shape of a reduction over dim: dim dropped, or kept with size 1 (keepdim). A 0-d input
// gives a 0-d result.
inline std::vector<int64_t> reduced_shape(const Tensor& self, int64_t dim, bool keepdim) {
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < self.dim(); d++) {
    if (d != dim) {
      shape.push_back(self.size(d));
    } else if (keepdim) {
      shape.push_back(1);
    }
  }
  return shape;
}

}  // namespace at::native
