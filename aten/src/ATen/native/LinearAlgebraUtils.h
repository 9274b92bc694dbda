// aten/src/ATen/native/LinearAlgebraUtils.h - the argument checks of mm, addmm, bmm, mv and dot,
// shared by the CPU kernels (Blas.cpp) and the CUDA ones (cuda/Blas.cpp), so both raise PyTorch's
// words. PyTorch keeps them in the structured kernels' meta functions (TORCH_META_FUNC(mm) ... in
// aten/src/ATen/native/LinearAlgebra.cpp); its LinearAlgebraUtils.h holds such shared helpers.
// Guide: docs/source/internals/cuda_gemm.rst.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/ScalarType.h>

namespace at::native {

TORCH_API void check_out_dtype(const Tensor& out, ScalarType expected);
TORCH_API void mm_check(const Tensor& self, const Tensor& mat2);
TORCH_API void addmm_check(const Tensor& self, const Tensor& mat1, const Tensor& mat2);
TORCH_API void addmm_inplace_check(const Tensor& self, const Tensor& mat1, const Tensor& mat2);
TORCH_API void bmm_check(const Tensor& self, const Tensor& mat2);
TORCH_API void mv_check(const Tensor& self, const Tensor& vec);
TORCH_API void addmv_check(const Tensor& self, const Tensor& mat, const Tensor& vec);
TORCH_API void addmv_inplace_check(const Tensor& self, const Tensor& mat);
TORCH_API void baddbmm_check(const Tensor& self, const Tensor& batch1, const Tensor& batch2);
TORCH_API void baddbmm_inplace_check(const Tensor& self, const Tensor& batch1, const Tensor& batch2);
TORCH_API void dot_check(const Tensor& self, const Tensor& tensor);

}  // namespace at::native
