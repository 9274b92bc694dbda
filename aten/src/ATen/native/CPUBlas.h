// aten/src/ATen/native/CPUBlas.h - C = beta * C + alpha * A @ B on the CPU, for any dtype and layout.
// Mirrors PyTorch's aten/src/ATen/native/CPUBlas.h (at::native::cpublas::gemm).
// Guide: docs/source/internals/one_call.rst.
//
// Every matrix product (mm, bmm, addmm, mv, matmul, einsum) ends here. A matrix is a
// pointer and two strides, so a transposed or sliced operand costs no copy:
//   * float with oneDNN (AT_MKLDNN_ENABLED), float/double with BLAS (AT_BLAS_ENABLED): when
//     each operand is row-major or the transpose of one, dnnl_sgemm or cblas_sgemm/cblas_dgemm
//     read it in place (a transposed operand is passed as 'T'/CblasTrans with its leading
//     dimension);
//   * everything else (integers, half, bfloat16, odd strides, no BLAS): a blocked
//     loop in cpu/BlasKernel.cpp that accumulates in opmath_type (float for half).
#pragma once

#include <ATen/Dispatch.h>
#include <c10/core/Scalar.h>
#include <c10/macros/Export.h>
#include <c10/core/ScalarType.h>

#include <cstdint>

namespace at::native::cpublas {

// One matrix operand: element (i, j) is data[i * row_stride + j * col_stride].
template <typename T>
struct StridedMatrix {
  T* data;
  int64_t row_stride;
  int64_t col_stride;
};

// C (m x n) = beta * C + alpha * A (m x k) @ B (k x n). With beta == 0, C is only written
// (NaNs already in C do not leak into the result), as BLAS promises.
template <typename scalar_t>
void gemm(int64_t m, int64_t n, int64_t k, const c10::Scalar& alpha, StridedMatrix<const scalar_t> a,
          StridedMatrix<const scalar_t> b, const c10::Scalar& beta, StridedMatrix<scalar_t> c);

// Whether gemm<scalar_t> will hand these operands to BLAS without copying them (used by
// the tests, and by Blas.cpp to decide when a contiguous copy pays off).
TORCH_API bool blas_enabled_for(c10::ScalarType dtype);
// Whether gemm of this dtype stays fast when called inside a parallel region: oneDNN's sgemm
// then runs on the calling thread; BLAS is never started there (the blocked loop runs).
TORCH_API bool gemm_in_parallel_region_ok(c10::ScalarType dtype);
TORCH_API bool blas_can_read(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride);

}  // namespace at::native::cpublas

// The dtypes gemm is compiled for: the integer and floating types, half and bfloat16, and
// complex64/complex128 (as PyTorch; complex32 is left out). Another dtype is
// '"<NAME>" not implemented for 'Bool''.
#define AT_DISPATCH_GEMM_TYPES(TYPE, NAME, ...)                                              \
  AT_DISPATCH_SWITCH(TYPE, NAME,                                                             \
                     AT_DISPATCH_CASE_ALL_TYPES(__VA_ARGS__)                                     \
                         AT_DISPATCH_CASE(at::ScalarType::Half, __VA_ARGS__)                 \
                             AT_DISPATCH_CASE(at::ScalarType::BFloat16, __VA_ARGS__)         \
                                 AT_DISPATCH_CASE_COMPLEX_TYPES(__VA_ARGS__))
