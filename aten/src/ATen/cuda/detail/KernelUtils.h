// aten/src/ATen/cuda/detail/KernelUtils.h - the grid-stride loop and the grid size of the
// simple kernels. Mirrors PyTorch's aten/src/ATen/cuda/detail/KernelUtils.h.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <c10/util/Exception.h>

#include <cstdint>
#include <limits>

namespace at::cuda::detail {

// Each thread handles i, i + blockDim.x * gridDim.x, ...: any grid covers any n. The index is
// 64-bit from the start, so i + step never overflows for n near INT_MAX.
#define CUDA_KERNEL_LOOP_TYPE(i, n, index_type)                                     \
  int64_t _i_n_d_e_x = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; \
  for (index_type i = _i_n_d_e_x; _i_n_d_e_x < (n);                                 \
       _i_n_d_e_x += static_cast<int64_t>(blockDim.x) * gridDim.x, i = _i_n_d_e_x)

#define CUDA_KERNEL_LOOP(i, n) CUDA_KERNEL_LOOP_TYPE(i, n, int)

constexpr int CUDA_NUM_THREADS = 1024;

// Enough blocks of max_threads_per_block for N elements, at least one.
inline int GET_BLOCKS(const int64_t N, const int64_t max_threads_per_block = CUDA_NUM_THREADS) {
  TORCH_INTERNAL_ASSERT(N > 0, "CUDA kernel launch blocks must be positive, but got N=", N);
  constexpr int64_t max_int = std::numeric_limits<int>::max();
  const int64_t blocks = 1 + ((N - 1) / max_threads_per_block);
  TORCH_INTERNAL_ASSERT(blocks <= max_int, "Can't schedule too many blocks on CUDA device");
  return static_cast<int>(blocks);
}

}  // namespace at::cuda::detail
