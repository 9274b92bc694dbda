// aten/src/ATen/cuda/CUDABlas.cu - at::cuda::blas::gemm and bgemm. Where the toolkit has cuBLAS
// (AT_CUBLAS_ENABLED, a GPU build with USE_CUBLAS) they call it, as PyTorch's
// aten/src/ATen/cuda/CUDABlas.cpp does. Everywhere else (the simulated device, a toolkit
// without cuBLAS, USE_CUBLAS=OFF) they run this tree's tiled shared-memory kernel: each block
// computes a 64 x 64 tile of C (16 wide on a short side), staging 64 x 16 slices of A and B
// through shared memory, each of its threads accumulating a 4 x 4 patch in registers. That
// kernel is the textbook design cuBLAS refines (double buffering, tensor cores, autotuned tile
// shapes). Guide: docs/source/internals/cuda_gemm.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/cuda/CUDABlas.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <c10/util/complex.h>

#include <algorithm>
#include <limits>

#ifdef AT_CUBLAS_ENABLED
#include <cublas_v2.h>
#include <c10/cuda/CUDAFunctions.h>

#include <unordered_map>
#endif

namespace at::cuda::blas {
namespace {

// [marker: gemm_tile_shape]
// A block owns a kTileM x kTileN tile of C and has (kTileM / 4) x (kTileN / 4) threads; thread
// (tx, ty) owns the 4 x 4 elements at rows tx, tx + kTileM / 4, ... and columns ty, ty + kTileN / 4,
// ... of the tile. Spaced that way, the 32 threads of a warp (consecutive tx) touch consecutive
// rows: consecutive addresses in a column-major C, and different shared-memory banks. The
// usual tile is 64 x 64 (256 threads); a product with 16 rows or columns or fewer gets a 16-wide
// tile on that side (64 threads), so that three quarters of the threads do not compute zeros.
constexpr int kPerThread = 4;
constexpr int kTileLarge = 64;
constexpr int kTileSmall = 16;
constexpr int kTileK = 16;  // the depth of the slices staged per step
// [end marker: gemm_tile_shape]

// [marker: gemm_tiled_kernel]
// op(A)(i, p) is a[i * a_rs + p * a_cs], op(B)(p, j) is b[p * b_rs + j * b_cs]: transposition is
// only a choice of strides. C is column-major, C(i, j) = c[i + j * ldc]. Batch blockIdx.z reads
// its matrices stride_a, stride_b and stride_c elements further on.
template <typename scalar_t, typename opmath_t, int kTileM, int kTileN>
__global__ void gemm_tiled_kernel(int64_t m, int64_t n, int64_t k, opmath_t alpha, const scalar_t* a, int64_t a_rs,
                                  int64_t a_cs, int64_t stride_a, const scalar_t* b, int64_t b_rs, int64_t b_cs,
                                  int64_t stride_b, opmath_t beta, scalar_t* c, int64_t ldc, int64_t stride_c) {
  constexpr int kThreadsM = kTileM / kPerThread, kThreadsN = kTileN / kPerThread;
  constexpr int kNumThreads = kThreadsM * kThreadsN;
  // The slices of A (kTileK x kTileM, stored k-major so a thread reads its rows side by side)
  // and of B, in opmath_t: half inputs are widened once, on the way in. Raw 16-byte-aligned
  // words (double2), because a __shared__ array of a type with a constructor (c10::complex) is
  // not allowed.
  __shared__ double2 smem[(kTileK * (kTileM + kTileN) * sizeof(opmath_t) + 15) / 16];
  opmath_t(*As)[kTileM] = reinterpret_cast<opmath_t(*)[kTileM]>(smem);
  opmath_t(*Bs)[kTileN] = reinterpret_cast<opmath_t(*)[kTileN]>(reinterpret_cast<opmath_t*>(smem) + kTileK * kTileM);

  a += blockIdx.z * stride_a;
  b += blockIdx.z * stride_b;
  c += blockIdx.z * stride_c;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * kThreadsM + tx;
  const int64_t row0 = static_cast<int64_t>(blockIdx.x) * kTileM;
  const int64_t col0 = static_cast<int64_t>(blockIdx.y) * kTileN;

  opmath_t acc[kPerThread][kPerThread];
  for (int i = 0; i < kPerThread; i++) {
    for (int j = 0; j < kPerThread; j++) {
      acc[i][j] = opmath_t(0);
    }
  }

  for (int64_t p0 = 0; p0 < k; p0 += kTileK) {
    // Stage: the threads copy the two slices, 4 elements each; what lies past the edge of A or
    // B is stored as 0, so the loop below needs no bounds checks.
    for (int e = tid; e < kTileK * kTileM; e += kNumThreads) {
      const int i = e % kTileM, p = e / kTileM;
      const int64_t gi = row0 + i, gp = p0 + p;
      As[p][i] = (gi < m && gp < k) ? static_cast<opmath_t>(a[gi * a_rs + gp * a_cs]) : opmath_t(0);
    }
    for (int e = tid; e < kTileK * kTileN; e += kNumThreads) {
      const int j = e % kTileN, p = e / kTileN;
      const int64_t gj = col0 + j, gp = p0 + p;
      Bs[p][j] = (gj < n && gp < k) ? static_cast<opmath_t>(b[gp * b_rs + gj * b_cs]) : opmath_t(0);
    }
    __syncthreads();  // every slice element is written before anyone reads it
    for (int p = 0; p < kTileK; p++) {
      opmath_t a_frag[kPerThread], b_frag[kPerThread];
      for (int i = 0; i < kPerThread; i++) {
        a_frag[i] = As[p][tx + i * kThreadsM];
        b_frag[i] = Bs[p][ty + i * kThreadsN];
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
    const int64_t gj = col0 + ty + j * kThreadsN;
    for (int i = 0; i < kPerThread; i++) {
      const int64_t gi = row0 + tx + i * kThreadsM;
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

// One product (or batch of products) on kTileM x kTileN tiles.
template <typename Dtype, int kTileM, int kTileN>
void launch_gemm_tiles(int64_t m, int64_t n, int64_t k, at::opmath_type<Dtype> alpha, const Dtype* a, int64_t a_rs,
                       int64_t a_cs, int64_t stridea, const Dtype* b, int64_t b_rs, int64_t b_cs, int64_t strideb,
                       at::opmath_type<Dtype> beta, Dtype* c, int64_t ldc, int64_t stridec, int64_t num_batches) {
  using opmath_t = at::opmath_type<Dtype>;
  const int64_t row_tiles = (m + kTileM - 1) / kTileM;
  TORCH_CHECK(row_tiles <= std::numeric_limits<int>::max(), "gemm: m = ", m, " is too large");
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t cols_per_launch = kMaxGridYZ * kTileN;
  for (int64_t batch0 = 0; batch0 < num_batches; batch0 += kMaxGridYZ) {
    const int64_t batches = std::min(kMaxGridYZ, num_batches - batch0);
    for (int64_t j0 = 0; j0 < n; j0 += cols_per_launch) {
      const int64_t cols = std::min(cols_per_launch, n - j0);
      const dim3 grid(static_cast<unsigned>(row_tiles), static_cast<unsigned>((cols + kTileN - 1) / kTileN),
                      static_cast<unsigned>(batches));
      const dim3 block(kTileM / kPerThread, kTileN / kPerThread);
      gemm_tiled_kernel<Dtype, opmath_t, kTileM, kTileN><<<grid, block, 0, stream>>>(
          m, cols, k, alpha, a + batch0 * stridea, a_rs, a_cs, stridea, b + batch0 * strideb + j0 * b_cs, b_rs, b_cs,
          strideb, beta, c + batch0 * stridec + j0 * ldc, ldc, stridec);
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    }
  }
}

// [marker: gemm_tile_choice]
// The tile shape for the product: 64 x 64, or 16 wide on a side of 16 or fewer (a linear layer's
// ten classes, a convolution's eight output channels). cuBLAS chooses among many more shapes,
// from tables tuned per GPU.
template <typename Dtype>
void launch_gemm(char transa, char transb, int64_t m, int64_t n, int64_t k, at::opmath_type<Dtype> alpha,
                 const Dtype* a, int64_t lda, int64_t stridea, const Dtype* b, int64_t ldb, int64_t strideb,
                 at::opmath_type<Dtype> beta, Dtype* c, int64_t ldc, int64_t stridec, int64_t num_batches) {
  if (m == 0 || n == 0 || num_batches == 0) {
    return;
  }
  int64_t a_rs, a_cs, b_rs, b_cs;
  op_strides(transa, lda, a_rs, a_cs);
  op_strides(transb, ldb, b_rs, b_cs);
  if (m <= kTileSmall) {
    launch_gemm_tiles<Dtype, kTileSmall, kTileLarge>(m, n, k, alpha, a, a_rs, a_cs, stridea, b, b_rs, b_cs, strideb,
                                                     beta, c, ldc, stridec, num_batches);
  } else if (n <= kTileSmall) {
    launch_gemm_tiles<Dtype, kTileLarge, kTileSmall>(m, n, k, alpha, a, a_rs, a_cs, stridea, b, b_rs, b_cs, strideb,
                                                     beta, c, ldc, stridec, num_batches);
  } else {
    launch_gemm_tiles<Dtype, kTileLarge, kTileLarge>(m, n, k, alpha, a, a_rs, a_cs, stridea, b, b_rs, b_cs, strideb,
                                                     beta, c, ldc, stridec, num_batches);
  }
}
// [end marker: gemm_tile_choice]

#ifdef AT_CUBLAS_ENABLED
// [marker: cublas_path]
#define TORCH_CUDABLAS_CHECK(EXPR)                                                         \
  do {                                                                                     \
    const cublasStatus_t __status = EXPR;                                                  \
    TORCH_CHECK(__status == CUBLAS_STATUS_SUCCESS, "CUDA error: ", cublasGetStatusString(__status), \
                " when calling `" #EXPR "`");                                              \
  } while (0)

// One cuBLAS handle per device and thread, made on first use and kept (PyTorch's
// getCurrentCUDABlasHandle in aten/src/ATen/cuda/CublasHandlePool.cpp pools them likewise); each
// call binds it to the current stream, so the product queues behind the kernels before it.
cublasHandle_t getCurrentCUDABlasHandle() {
  thread_local std::unordered_map<c10::DeviceIndex, cublasHandle_t> handles;
  const c10::DeviceIndex device = c10::cuda::current_device();
  auto it = handles.find(device);
  if (it == handles.end()) {
    cublasHandle_t handle;
    TORCH_CUDABLAS_CHECK(cublasCreate(&handle));
    it = handles.emplace(device, handle).first;
  }
  TORCH_CUDABLAS_CHECK(cublasSetStream(it->second, at::cuda::getCurrentCUDAStream()));
  return it->second;
}

cublasOperation_t to_cublas_op(char trans) {
  return trans == 'n' || trans == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T;
}

// cuBLAS counts in int: bigger products take the tiled kernel.
bool fits_cublas(std::initializer_list<int64_t> values) {
  return std::all_of(values.begin(), values.end(),
                     [](int64_t v) { return v <= std::numeric_limits<int>::max(); });
}

template <typename T>
cudaDataType_t cublas_dtype() {
  if constexpr (std::is_same_v<T, c10::Half>) {
    return CUDA_R_16F;
  } else if constexpr (std::is_same_v<T, c10::BFloat16>) {
    return CUDA_R_16BF;
  } else if constexpr (std::is_same_v<T, float>) {
    return CUDA_R_32F;
  } else if constexpr (std::is_same_v<T, double>) {
    return CUDA_R_64F;
  } else if constexpr (std::is_same_v<T, c10::complex<float>>) {
    return CUDA_C_32F;
  } else {
    return CUDA_C_64F;
  }
}

template <typename T>
cublasComputeType_t cublas_compute_type() {
  // Half and BFloat16 accumulate in float, as their opmath_type (and PyTorch's default) says.
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, c10::complex<double>>) {
    return CUBLAS_COMPUTE_64F;
  } else {
    return CUBLAS_COMPUTE_32F;
  }
}

// One strided-batched call covers gemm (one batch) and bgemm: cublasGemmStridedBatchedEx takes
// every dtype here, with alpha and beta in the compute type (opmath_type).
template <typename Dtype>
void cublas_gemm(char transa, char transb, int64_t m, int64_t n, int64_t k, at::opmath_type<Dtype> alpha,
                 const Dtype* a, int64_t lda, int64_t stridea, const Dtype* b, int64_t ldb, int64_t strideb,
                 at::opmath_type<Dtype> beta, Dtype* c, int64_t ldc, int64_t stridec, int64_t num_batches) {
  TORCH_CUDABLAS_CHECK(cublasGemmStridedBatchedEx(
      getCurrentCUDABlasHandle(), to_cublas_op(transa), to_cublas_op(transb), static_cast<int>(m),
      static_cast<int>(n), static_cast<int>(k), &alpha, a, cublas_dtype<Dtype>(), static_cast<int>(lda), stridea, b,
      cublas_dtype<Dtype>(), static_cast<int>(ldb), strideb, &beta, c, cublas_dtype<Dtype>(), static_cast<int>(ldc),
      stridec, static_cast<int>(num_batches), cublas_compute_type<Dtype>(), CUBLAS_GEMM_DEFAULT));
}
// [end marker: cublas_path]
#endif

// cuBLAS when the build has it and the sizes fit its ints, else the tiled kernel.
template <typename Dtype>
void gemm_any(char transa, char transb, int64_t m, int64_t n, int64_t k, at::opmath_type<Dtype> alpha,
              const Dtype* a, int64_t lda, int64_t stridea, const Dtype* b, int64_t ldb, int64_t strideb,
              at::opmath_type<Dtype> beta, Dtype* c, int64_t ldc, int64_t stridec, int64_t num_batches) {
#ifdef AT_CUBLAS_ENABLED
  if (m > 0 && n > 0 && k > 0 && num_batches > 0 && fits_cublas({m, n, k, lda, ldb, ldc, num_batches})) {
    cublas_gemm<Dtype>(transa, transb, m, n, k, alpha, a, std::max<int64_t>(lda, 1), stridea, b,
                       std::max<int64_t>(ldb, 1), strideb, beta, c, std::max<int64_t>(ldc, 1), stridec, num_batches);
    return;
  }
#endif
  launch_gemm<Dtype>(transa, transb, m, n, k, alpha, a, lda, stridea, b, ldb, strideb, beta, c, ldc, stridec,
                     num_batches);
}

}  // namespace

template <typename Dtype>
void gemm(char transa, char transb, int64_t m, int64_t n, int64_t k, at::opmath_type<Dtype> alpha, const Dtype* a,
          int64_t lda, const Dtype* b, int64_t ldb, at::opmath_type<Dtype> beta, Dtype* c, int64_t ldc) {
  gemm_any<Dtype>(transa, transb, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1);
}

template <typename Dtype>
void bgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, at::opmath_type<Dtype> alpha, const Dtype* a,
           int64_t lda, int64_t stridea, const Dtype* b, int64_t ldb, int64_t strideb, at::opmath_type<Dtype> beta,
           Dtype* c, int64_t ldc, int64_t stridec, int64_t num_batches) {
  gemm_any<Dtype>(transa, transb, m, n, k, alpha, a, lda, stridea, b, ldb, strideb, beta, c, ldc, stridec,
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
