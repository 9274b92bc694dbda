// c10/cuda/impl/sim/SimulatedRuntime.h - what the simulated CUDA device offers beyond the CUDA
// runtime API it implements (cuda_runtime_sim.cpp): queueing a kernel on a stream, holding a
// stream back, the device settings. This tree's simulated CUDA device; PyTorch has no such
// thing. Guide: docs/source/internals/cuda_simulated_device.rst.
//
// The simulated device is a drop-in libcudart: the same C functions (cudaMalloc,
// cudaMemcpyAsync, cudaStreamSynchronize, ...), compiled against the toolkit's own
// cuda_runtime_api.h so that every struct and enum has CUDA's layout and value, in a library
// whose soname is the real runtime's (libcudart.so.13). With TORCH_CUDA_SIMULATE=N, `import
// torch` loads it before anything that needs libcudart, so c10_cuda, the caching allocator
// and torch._C (built once, against CUDA) run on it unchanged; kernels come from the
// simulated build of libtorch_cuda.so (the same .cu sources, launches translated by
// tools/cuda_sim/translate.py and compiled by the host compiler).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>

#define C10_CUDA_SIM_API __attribute__((visibility("default")))

namespace c10::cuda::sim {

// CUDA's launch-time checks (cudaErrorInvalidConfiguration for a block of more than 1024
// threads or an empty grid, cudaErrorInvalidValue for more dynamic shared memory than a
// block may have). cudaSuccess if the launch may go ahead.
C10_CUDA_SIM_API cudaError_t validate_launch(dim3 grid, dim3 block, size_t dynamic_smem);

// Queues a kernel on `stream` (0: the current device's default stream) and returns at once,
// as a launch does: the stream's worker thread runs thread_body for every thread of the grid
// when the work queued before it is done. `name` is what a trace or an error names.
C10_CUDA_SIM_API void enqueue_kernel(cudaStream_t stream, dim3 grid, dim3 block, size_t dynamic_smem,
                                     std::function<void()> thread_body, const char* name);

// A failed launch: what the next cudaGetLastError / cudaPeekAtLastError returns.
C10_CUDA_SIM_API void set_last_error(cudaError_t error);

// A held stream starts no new work until released: the host runs further ahead, so a test or
// the guide can show deterministically what happens when work is not ordered (a missing
// record_stream or synchronize). Synchronizing a held stream is an error (cudaErrorNotReady
// would never end), so release it first.
C10_CUDA_SIM_API void hold_stream(cudaStream_t stream);
C10_CUDA_SIM_API void release_stream(cudaStream_t stream);

// The device's memory in bytes (TORCH_CUDA_SIMULATE_MEMORY, default 8 GiB).
C10_CUDA_SIM_API size_t device_memory_capacity();

}  // namespace c10::cuda::sim

// The same, for code that finds them with dlsym (torch._C, which is linked against the CUDA
// runtime and must work whether or not the simulated one is loaded).
extern "C" {
C10_CUDA_SIM_API int c10_cuda_sim_is_simulated();
C10_CUDA_SIM_API cudaError_t c10_cuda_sim_hold_stream(cudaStream_t stream);
C10_CUDA_SIM_API cudaError_t c10_cuda_sim_release_stream(cudaStream_t stream);
}
