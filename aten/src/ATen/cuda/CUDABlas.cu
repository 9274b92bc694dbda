// aten/src/ATen/cuda/CUDABlas.cu - at::cuda::blas::gemm and bgemm as a tiled shared-memory kernel:
// each block computes a 64 x 64 tile of C, staging 64 x 16 slices of A and B through shared memory,
// each of its 256 threads accumulating a 4 x 4 patch in registers. PyTorch's
// aten/src/ATen/cuda/CUDABlas.cpp hands the same calls to cuBLAS; this kernel is the textbook
// design cuBLAS refines (double buffering, tensor cores, autotuned tile shapes).
// Guide: docs/source/internals/cuda_gemm.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/cuda/CUDABlas.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <c10/util/complex.h>

#include <algorithm>

namespace at::cuda::blas {
namespace {

// [marker: gemm_tile_shape]
// A block of kThreads x kThreads threads owns a kTile x kTile tile of C; thread (tx, ty) owns the
// kPerThread x kPerThread elements at rows tx, tx + kThreads, ... and columns ty, ty + kThreads, ...
// of the tile. Spaced that way, the 32 threads of a warp (consecutive tx) touch 32 consecutive
// rows: consecutive addresses in a column-major C, and 32 different shared-memory banks.
constexpr int kThreads = 16;
constexpr int kPerThread = 4;
constexpr int kTile = kThreads * kPerThread;  // 64
constexpr int kTileK = 16;                     // the depth of the slices staged per step
// [end marker: gemm_tile_shape]

// [marker: gemm_tiled_kernel]
// op(A)(i, p) is a[i * a_rs + p * a_cs], op(B)(p, j) is b[p * b_rs + j * b_cs]: transposition is
// only a choice of strides. C is column-major, C(i, j) = c[i + j * ldc]. Batch blockIdx.z reads
// its matrices stride_a, stride_b and stride_c elements further on.
template <typename scalar_t, typename opmath_t>
__global__ void gemm_tiled_kernel(int64_t m, int64_t n, int64_t k, opmath_t alpha, const scalar_t* a, int64_t a_rs,
                                  int64_t a_cs, int64_t stride_a, const scalar_t* b, int64_t b_rs, int64_t b_cs,
                                  int64_t stride_b, opmath_t beta, scalar_t* c, int64_t ldc, int64_t stride_c) {
  // The slices of A (kTileK x kTile, stored k-major so a thread reads its rows side by side) and
  // of B, in opmath_t: half inputs are widened once, on the way in. Raw 16-byte-aligned words
  // (double2), because a __shared__ array of a type with a constructor (c10::complex) is not allowed.
  __shared__ double2 smem[(2 * kTileK * kTile * sizeof(opmath_t) + 15) / 16];
  opmath_t(*As)[kTile] = reinterpret_cast<opmath_t(*)[kTile]>(smem);
  opmath_t(*Bs)[kTile] = As + kTileK;

  a += blockIdx.z * stride_a;
  b += blockIdx.z * stride_b;
  c += blockIdx.z * stride_c;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * kThreads + tx;
  const int64_t row0 = static_cast<int64_t>(blockIdx.x) * kTile;
  const int64_t col0 = static_cast<int64_t>(blockIdx.y) * kTile;

  opmath_t acc[kPerThread][kPerThread];
  for (int i = 0; i < kPerThread; i++) {
    for (int j = 0; j < kPerThread; j++) {
      acc[i][j] = opmath_t(0);
    }
  }

  for (int64_t p0 = 0; p0 < k; p0 += kTileK) {
    // Stage: the 256 threads copy the two 16 x 64 slices, 4 elements each; what lies past the
    // edge of A or B is stored as 0, so the loop below needs no bounds checks.
    for (int e = tid; e < kTileK * kTile; e += kThreads * kThreads) {
      const int i = e % kTile, p = e / kTile;
      const int64_t gi = row0 + i, gp = p0 + p;
      As[p][i] = (gi < m && gp < k) ? static_cast<opmath_t>(a[gi * a_rs + gp * a_cs]) : opmath_t(0);
      const int64_t gj = col0 + i;
      Bs[p][i] = (gj < n && gp < k) ? static_cast<opmath_t>(b[gp * b_rs + gj * b_cs]) : opmath_t(0);
    }
    __syncthreads();  // every slice element is written before anyone reads it
    for (int p = 0; p < kTileK; p++) {
      opmath_t a_frag[kPerThread], b_frag[kPerThread];
      for (int i = 0; i < kPerThread; i++) {
        a_frag[i] = As[p][tx + i * kThreads];
        b_frag[i] = Bs[p][ty + i * kThreads];
      }
      for (int i = 0; i < kPerThread; i++) {
        for (int j = 0; j < kPerThread; j++) {
          acc[i][j] += a_frag[i] * b_frag[j];
        }
      }
    }
    __syncthreads();  // everyone is done reading before the next slice overwrites it
  }

  for (int j = 0; j < kPerThread; j++) {
    const int64_t gj = col0 + ty + j * kThreads;
    for (int i = 0; i < kPerThread; i++) {
      const int64_t gi = row0 + tx + i * kThreads;
      if (gi < m && gj < n) {
        scalar_t* out = c + gi + gj * ldc;
        const opmath_t v = alpha * acc[i][j];
        *out = static_cast<scalar_t>(beta == opmath_t(0) ? v : v + beta * static_cast<opmath_t>(*out));
      }
    }
  }
}
// [end marker: gemm_tiled_kernel]

// op(X)'s (row stride, column stride) for a column-major X with leading dimension ld.
void op_strides(char trans, int64_t ld, int64_t& rs, int64_t& cs) {
  const bool t = trans == 't' || trans == 'T';
  rs = t ? ld : 1;
  cs = t ? 1 : ld;
}

// The grid's y and z dimensions are limited to 65535 blocks; wider products are run as several
// launches over column ranges and batch ranges.
constexpr int64_t kMaxGridYZ = 65535;

template <typename Dtype>
void launch_gemm(char transa, char transb, int64_t m, int64_t n, int64_t k, at::opmath_type<Dtype> alpha,
                 const Dtype* a, int64_t lda, int64_t stridea, const Dtype* b, int64_t ldb, int64_t strideb,
                 at::opmath_type<Dtype> beta, Dtype* c, int64_t ldc, int64_t stridec, int64_t num_batches) {
  using opmath_t = at::opmath_type<Dtype>;
  if (m == 0 || n == 0 || num_batches == 0) {
    return;
  }
  int64_t a_rs, a_cs, b_rs, b_cs;
  op_strides(transa, lda, a_rs, a_cs);
  op_strides(transb, ldb, b_rs, b_cs);
  const int64_t row_tiles = (m + kTile - 1) / kTile;
  TORCH_CHECK(row_tiles <= std::numeric_limits<int>::max(), "gemm: m = ", m, " is too large");
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t cols_per_launch = kMaxGridYZ * kTile;
  for (int64_t batch0 = 0; batch0 < num_batches; batch0 += kMaxGridYZ) {
    const int64_t batches = std::min(kMaxGridYZ, num_batches - batch0);
    for (int64_t j0 = 0; j0 < n; j0 += cols_per_launch) {
      const int64_t cols = std::min(cols_per_launch, n - j0);
      const dim3 grid(static_cast<unsigned>(row_tiles), static_cast<unsigned>((cols + kTile - 1) / kTile),
                      static_cast<unsigned>(batches));
      const dim3 block(kThreads, kThreads);
      gemm_tiled_kernel<Dtype, opmath_t><<<grid, block, 0, stream>>>(
          m, cols, k, alpha, a + batch0 * stridea, a_rs, a_cs, stridea, b + batch0 * strideb + j0 * b_cs, b_rs, b_cs,
          strideb, beta, c + batch0 * stridec + j0 * ldc, ldc, stridec);
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    }
  }
}

}  // namespace

template <typename Dtype>
void gemm(char transa, char transb, int64_t m, int64_t n, int64_t k, at::opmath_type<Dtype> alpha, const Dtype* a,
          int64_t lda, const Dtype* b, int64_t ldb, at::opmath_type<Dtype> beta, Dtype* c, int64_t ldc) {
  launch_gemm<Dtype>(transa, transb, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1);
}

template <typename Dtype>
void bgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, at::opmath_type<Dtype> alpha, const Dtype* a,
           int64_t lda, int64_t stridea, const Dtype* b, int64_t ldb, int64_t strideb, at::opmath_type<Dtype> beta,
           Dtype* c, int64_t ldc, int64_t stridec, int64_t num_batches) {
  launch_gemm<Dtype>(transa, transb, m, n, k, alpha, a, lda, stridea, b, ldb, strideb, beta, c, ldc, stridec,
                     num_batches);
}

#define INSTANTIATE_GEMM(Dtype)                                                                                      \
  template void gemm<Dtype>(char, char, int64_t, int64_t, int64_t, at::opmath_type<Dtype>, const Dtype*, int64_t,   \
                            const Dtype*, int64_t, at::opmath_type<Dtype>, Dtype*, int64_t);                         \
  template void bgemm<Dtype>(char, char, int64_t, int64_t, int64_t, at::opmath_type<Dtype>, const Dtype*, int64_t,  \
                             int64_t, const Dtype*, int64_t, int64_t, at::opmath_type<Dtype>, Dtype*, int64_t,      \
                             int64_t, int64_t);
INSTANTIATE_GEMM(float)
INSTANTIATE_GEMM(double)
INSTANTIATE_GEMM(c10::Half)
INSTANTIATE_GEMM(c10::BFloat16)
INSTANTIATE_GEMM(c10::complex<float>)
INSTANTIATE_GEMM(c10::complex<double>)
#undef INSTANTIATE_GEMM

}  // namespace at::cuda::blas
