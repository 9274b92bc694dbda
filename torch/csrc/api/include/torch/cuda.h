// torch/csrc/api/include/torch/cuda.h - torch::cuda::is_available() and device_count(), for C++.
// Mirrors PyTorch's torch/csrc/api/include/torch/cuda.h. Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <ATen/detail/CUDAHooksInterface.h>

#include <cstddef>

namespace torch::cuda {

// The CUDA library may be absent from this process (a CPU-only build, or no GPU): then zero.
inline size_t device_count() {
  const auto& hooks = at::detail::getCUDAHooks();
  return hooks.hasCUDA() ? static_cast<size_t>(hooks.getNumGPUs()) : 0;
}
inline bool is_available() {
  return device_count() > 0;
}

}  // namespace torch::cuda
