// aten/src/ATen/native/cpu/BlasKernel.cpp - cpublas::gemm: oneDNN's sgemm for float (when
// built with USE_MKLDNN), BLAS for double and complex64/complex128 (and float without
// oneDNN), a blocked loop otherwise.
// Mirrors PyTorch's aten/src/ATen/native/CPUBlas.cpp and cpu/BlasKernel.cpp.
// Guide: docs/source/internals/one_call.rst.
#include <ATen/native/CPUBlas.h>

#include <ATen/OpMathType.h>
#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <c10/util/complex.h>

#include <algorithm>
#include <array>
#include <tuple>
#include <type_traits>

#ifdef AT_BLAS_ENABLED
#include <cblas.h>
#endif
#ifdef AT_MKLDNN_ENABLED
#include <oneapi/dnnl/dnnl.h>
#endif

namespace at::native::cpublas {

// ---- can BLAS read a matrix where it lies? ----------------------------------------------------

// BLAS reads a matrix (rows x cols) in place when it is row-major (col_stride 1, rows at
// least `cols` apart) or the transpose of a row-major matrix (row_stride 1). A dimension of
// size 1 may have any stride.
namespace {

struct BlasOperand {
  bool ok;
  bool transposed;
  int64_t ld;
};

BlasOperand blas_operand(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride) {
  const int64_t min_ld_rowmajor = std::max<int64_t>(1, cols);
  if ((col_stride == 1 || cols == 1) && (rows == 1 || row_stride >= min_ld_rowmajor)) {
    return {true, false, rows == 1 ? min_ld_rowmajor : row_stride};
  }
  const int64_t min_ld_colmajor = std::max<int64_t>(1, rows);
  if ((row_stride == 1 || rows == 1) && (cols == 1 || col_stride >= min_ld_colmajor)) {
    return {true, true, cols == 1 ? min_ld_colmajor : col_stride};
  }
  return {false, false, 0};
}

// The three operands of C = A @ B as BLAS (or oneDNN) reads them; ok is false when one of them
// cannot be read in place or C is transposed (row-major calls write C row-major).
template <typename scalar_t>
std::tuple<bool, BlasOperand, BlasOperand, BlasOperand> blas_operands(int64_t m, int64_t n, int64_t k,
                                                                     StridedMatrix<const scalar_t> a,
                                                                     StridedMatrix<const scalar_t> b,
                                                                     StridedMatrix<scalar_t> c) {
  const auto A = blas_operand(m, k, a.row_stride, a.col_stride);
  const auto B = blas_operand(k, n, b.row_stride, b.col_stride);
  const auto C = blas_operand(m, n, c.row_stride, c.col_stride);
  return {A.ok && B.ok && C.ok && !C.transposed, A, B, C};
}

}  // namespace

bool blas_can_read(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride) {
  return blas_operand(rows, cols, row_stride, col_stride).ok;
}

bool blas_enabled_for(c10::ScalarType dtype) {
#ifdef AT_MKLDNN_ENABLED
  if (dtype == c10::ScalarType::Float) {
    return true;
  }
#endif
#ifdef AT_BLAS_ENABLED
  return dtype == c10::ScalarType::Float || dtype == c10::ScalarType::Double ||
         dtype == c10::ScalarType::ComplexFloat || dtype == c10::ScalarType::ComplexDouble;
#else
  (void)dtype;
  return false;
#endif
}

bool gemm_in_parallel_region_ok(c10::ScalarType dtype) {
#ifdef AT_MKLDNN_ENABLED
  return dtype == c10::ScalarType::Float;
#else
  (void)dtype;
  return false;
#endif
}

// ---- the blocked fallback -----------------------------------------------------------------------

// C is cut into MB x NB tiles; each tile's sums are kept in opmath_t (float for half and
// bfloat16) while the k dimension is walked in KB-long panels, so the A rows and B panel a
// tile touches stay in cache. The innermost loop runs along a row of B and of the tile,
// which the compiler vectorises when B is row-major. Tiles are shared out between threads.
template <typename scalar_t>
void gemm_blocked(int64_t m, int64_t n, int64_t k, const c10::Scalar& alpha, StridedMatrix<const scalar_t> a,
                  StridedMatrix<const scalar_t> b, const c10::Scalar& beta, StridedMatrix<scalar_t> c) {
  using opmath_t = at::opmath_type<scalar_t>;
  constexpr int64_t MB = 32, NB = 64, KB = 256;
  const opmath_t alpha_ = alpha.to<opmath_t>();
  const opmath_t beta_ = beta.to<opmath_t>();
  const bool beta_is_zero = beta_ == opmath_t(0);
  const int64_t row_blocks = at::divup(m, MB);
  // Small products are not worth a thread: one block of rows per call below ~32k MACs.
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, MB * n * k));
  at::parallel_for(0, row_blocks, grain, [&](int64_t block_begin, int64_t block_end) {
    std::array<opmath_t, MB * NB> acc;
    for (int64_t ib = block_begin; ib < block_end; ib++) {
      const int64_t i0 = ib * MB, i1 = std::min(m, i0 + MB);
      for (int64_t j0 = 0; j0 < n; j0 += NB) {
        const int64_t j1 = std::min(n, j0 + NB);
        acc.fill(opmath_t(0));
        for (int64_t p0 = 0; p0 < k; p0 += KB) {
          const int64_t p1 = std::min(k, p0 + KB);
          for (int64_t i = i0; i < i1; i++) {
            opmath_t* acc_row = &acc[(i - i0) * NB];
            for (int64_t p = p0; p < p1; p++) {
              const opmath_t a_ip = static_cast<opmath_t>(a.data[i * a.row_stride + p * a.col_stride]);
              const scalar_t* b_row = b.data + p * b.row_stride;
              if (b.col_stride == 1) {
                for (int64_t j = j0; j < j1; j++) acc_row[j - j0] += a_ip * static_cast<opmath_t>(b_row[j]);
              } else {
                for (int64_t j = j0; j < j1; j++) {
                  acc_row[j - j0] += a_ip * static_cast<opmath_t>(b_row[j * b.col_stride]);
                }
              }
            }
          }
        }
        for (int64_t i = i0; i < i1; i++) {
          for (int64_t j = j0; j < j1; j++) {
            scalar_t& out = c.data[i * c.row_stride + j * c.col_stride];
            const opmath_t sum = alpha_ * acc[(i - i0) * NB + (j - j0)];
            out = static_cast<scalar_t>(beta_is_zero ? sum : beta_ * static_cast<opmath_t>(out) + sum);
          }
        }
      }
    }
  });
}

// ---- BLAS -----------------------------------------------------------------------------------------

#ifdef AT_BLAS_ENABLED
// Row-major cblas: each operand is passed where it lies, transposed ones with CblasTrans
// and their own leading dimension. Returns false when BLAS cannot read the operands (the
// caller then falls back). Called on the calling thread only: BLAS runs its own threads and
// must not be started inside an OpenMP parallel region.
template <typename scalar_t>
bool gemm_blas(int64_t m, int64_t n, int64_t k, scalar_t alpha, StridedMatrix<const scalar_t> a,
               StridedMatrix<const scalar_t> b, scalar_t beta, StridedMatrix<scalar_t> c) {
  const auto [ok, A, B, C] = blas_operands(m, n, k, a, b, c);
  if (!ok) {
    return false;
  }
  const auto ta = A.transposed ? CblasTrans : CblasNoTrans;
  const auto tb = B.transposed ? CblasTrans : CblasNoTrans;
  const int M = static_cast<int>(m), N = static_cast<int>(n), K = static_cast<int>(k);
  if constexpr (std::is_same_v<scalar_t, float>) {
    cblas_sgemm(CblasRowMajor, ta, tb, M, N, K, alpha, a.data, static_cast<int>(A.ld), b.data,
                static_cast<int>(B.ld), beta, c.data, static_cast<int>(C.ld));
  } else if constexpr (std::is_same_v<scalar_t, double>) {
    cblas_dgemm(CblasRowMajor, ta, tb, M, N, K, alpha, a.data, static_cast<int>(A.ld), b.data,
                static_cast<int>(B.ld), beta, c.data, static_cast<int>(C.ld));
  } else if constexpr (std::is_same_v<scalar_t, c10::complex<float>>) {
    // Complex BLAS takes alpha and beta by pointer; c10::complex has std::complex's layout.
    cblas_cgemm(CblasRowMajor, ta, tb, M, N, K, &alpha, a.data, static_cast<int>(A.ld), b.data,
                static_cast<int>(B.ld), &beta, c.data, static_cast<int>(C.ld));
  } else {
    cblas_zgemm(CblasRowMajor, ta, tb, M, N, K, &alpha, a.data, static_cast<int>(A.ld), b.data,
                static_cast<int>(B.ld), &beta, c.data, static_cast<int>(C.ld));
  }
  return true;
}
#endif

// ---- oneDNN ---------------------------------------------------------------------------------------

#ifdef AT_MKLDNN_ENABLED
// [marker: gemm_mkldnn]
// Float products go to oneDNN's sgemm (dnnl_sgemm: row-major, 'N'/'T' per operand, like the
// cblas call above). PyTorch's CPU build hands them to MKL; this tree links OpenBLAS, whose
// kernels spend more of a small product packing operands than multiplying them: a
// 64x784 @ 784x256 product (nn.Linear in an MLP) took 215 us against MKL's 158 us, where
// oneDNN's just-in-time AVX-512 kernels take 158 us. Inside an OpenMP parallel region
// oneDNN runs on the calling thread alone, so unlike OpenBLAS it may be called there.
// Returns false when oneDNN cannot read the operands or refuses them (the caller falls back).
bool gemm_mkldnn(int64_t m, int64_t n, int64_t k, float alpha, StridedMatrix<const float> a,
                 StridedMatrix<const float> b, float beta, StridedMatrix<float> c) {
  const auto [ok, A, B, C] = blas_operands(m, n, k, a, b, c);
  if (!ok) {
    return false;
  }
  return dnnl_sgemm(A.transposed ? 'T' : 'N', B.transposed ? 'T' : 'N', m, n, k, alpha, a.data, A.ld,
                    b.data, B.ld, beta, c.data, C.ld) == dnnl_success;
}
// [end marker: gemm_mkldnn]
#endif

// ---- the entry point ------------------------------------------------------------------------------

template <typename scalar_t>
void gemm(int64_t m, int64_t n, int64_t k, const c10::Scalar& alpha, StridedMatrix<const scalar_t> a,
          StridedMatrix<const scalar_t> b, const c10::Scalar& beta, StridedMatrix<scalar_t> c) {
  if (m == 0 || n == 0) {
    return;
  }
  if (k == 0) {  // an empty sum: C = beta * C (and exactly 0 when beta is 0)
    using opmath_t = at::opmath_type<scalar_t>;
    const opmath_t beta_ = beta.to<opmath_t>();
    for (int64_t i = 0; i < m; i++) {
      for (int64_t j = 0; j < n; j++) {
        scalar_t& out = c.data[i * c.row_stride + j * c.col_stride];
        out = beta_ == opmath_t(0) ? scalar_t(0) : static_cast<scalar_t>(beta_ * static_cast<opmath_t>(out));
      }
    }
    return;
  }
#ifdef AT_MKLDNN_ENABLED
  if constexpr (std::is_same_v<scalar_t, float>) {
    if (gemm_mkldnn(m, n, k, alpha.to<float>(), a, b, beta.to<float>(), c)) {
      return;
    }
  }
#endif
#ifdef AT_BLAS_ENABLED
  if constexpr (std::is_same_v<scalar_t, float> || std::is_same_v<scalar_t, double> ||
                std::is_same_v<scalar_t, c10::complex<float>> || std::is_same_v<scalar_t, c10::complex<double>>) {
    if (!at::in_parallel_region() &&
        gemm_blas<scalar_t>(m, n, k, alpha.to<scalar_t>(), a, b, beta.to<scalar_t>(), c)) {
      return;
    }
  }
#endif
  gemm_blocked<scalar_t>(m, n, k, alpha, a, b, beta, c);
}

#define INSTANTIATE_GEMM(T)                                                                                    \
  template void gemm<T>(int64_t, int64_t, int64_t, const c10::Scalar&, StridedMatrix<const T>,              \
                        StridedMatrix<const T>, const c10::Scalar&, StridedMatrix<T>);
INSTANTIATE_GEMM(uint8_t)
INSTANTIATE_GEMM(int8_t)
INSTANTIATE_GEMM(int16_t)
INSTANTIATE_GEMM(int32_t)
INSTANTIATE_GEMM(int64_t)
INSTANTIATE_GEMM(float)
INSTANTIATE_GEMM(double)
INSTANTIATE_GEMM(c10::Half)
INSTANTIATE_GEMM(c10::BFloat16)
INSTANTIATE_GEMM(c10::complex<float>)
INSTANTIATE_GEMM(c10::complex<double>)
#undef INSTANTIATE_GEMM

}  // namespace at::native::cpublas
