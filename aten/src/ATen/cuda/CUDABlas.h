// aten/src/ATen/cuda/CUDABlas.h - at::cuda::blas::gemm and bgemm: BLAS's matrix product on a CUDA
// device, column-major, with BLAS's transposition flags and leading dimensions. Mirrors PyTorch's
// aten/src/ATen/cuda/CUDABlas.h. A GPU build whose toolkit has cuBLAS calls it; the simulated
// device, and a toolkit without cuBLAS, run this tree's own tiled shared-memory kernel
// (CUDABlas.cu). Guide: docs/source/internals/cuda_gemm.rst.
#pragma once

#include <ATen/OpMathType.h>
#include <c10/macros/Macros.h>

#include <cstdint>

namespace at::cuda::blas {

// [marker: cuda_blas_gemm]
// C = alpha * op(A) @ op(B) + beta * C, where op(X) is X for 'n' and X's transpose for 't'
// (or 'T'), and every matrix is column-major: element (i, j) of A is a[i + j * lda]. op(A) is
// m x k, op(B) k x n, C m x n. beta == 0 never reads C (it may hold NaN, as BLAS allows).
// Queued on the current stream of the current device.
template <typename Dtype>
void gemm(char transa, char transb, int64_t m, int64_t n, int64_t k, at::opmath_type<Dtype> alpha, const Dtype* a,
          int64_t lda, const Dtype* b, int64_t ldb, at::opmath_type<Dtype> beta, Dtype* c, int64_t ldc);

// num_batches products at once (cublas<t>gemmStridedBatched): product i reads a + i * stridea,
// b + i * strideb and writes c + i * stridec.
template <typename Dtype>
void bgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, at::opmath_type<Dtype> alpha, const Dtype* a,
           int64_t lda, int64_t stridea, const Dtype* b, int64_t ldb, int64_t strideb, at::opmath_type<Dtype> beta,
           Dtype* c, int64_t ldc, int64_t stridec, int64_t num_batches);
// [end marker: cuda_blas_gemm]

}  // namespace at::cuda::blas
