// c10/cuda/impl/sim/Launch.h - what `kernel<<<grid, block, shmem, stream>>>(args)` becomes on
// the simulated CUDA device. tools/cuda_sim/translate.py rewrites each launch of a .cu source
// into a call of launch() below. This tree's simulated CUDA device; PyTorch has no such thing
// (nvcc compiles a launch into cudaLaunchKernel). Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <c10/cuda/impl/sim/SimulatedRuntime.h>

#include <tuple>
#include <type_traits>
#include <utility>

namespace c10::cuda::sim {

// [marker: sim_launch]
// kernel<<<grid, block, shmem, stream>>>(a, b) is translated to
//   launch(grid, block, shmem, stream, [](auto&... _a) { kernel(_a...); }, a, b);
// As with a real launch: the configuration is checked at once (an error is what the next
// cudaGetLastError returns, which C10_CUDA_KERNEL_LAUNCH_CHECK reads); the arguments are
// copied now, so the caller may change or free its variables; the kernel runs later, in
// stream order, once per thread of the grid, each thread calling it with the copied values.
template <typename Body, typename... Args>
void launch(dim3 grid, dim3 block, size_t shmem, cudaStream_t stream, Body body, Args&&... args) {
  const cudaError_t error = validate_launch(grid, block, shmem);
  if (error != cudaSuccess) {
    set_last_error(error);
    return;
  }
  auto params = std::make_tuple(std::decay_t<Args>(std::forward<Args>(args))...);
  enqueue_kernel(
      stream, grid, block, shmem, [body, params]() mutable { std::apply(body, params); }, nullptr);
}
// [end marker: sim_launch]

}  // namespace c10::cuda::sim
