// torch/csrc/api/include/torch/utils.h - grad-mode guards and the global seed, for C++ programs.
// Mirrors PyTorch's torch/csrc/api/include/torch/utils.h. Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <c10/core/GradMode.h>

#include <cstdint>

namespace torch {

// `{ torch::NoGradGuard no_grad; ... }` is Python's `with torch.no_grad():`.
using NoGradGuard = c10::NoGradGuard;
using AutoGradMode = c10::AutoGradMode;

// torch::manual_seed(0) is torch.manual_seed(0) for the CPU generator.
inline void manual_seed(uint64_t seed) {
  at::Generator generator = at::detail::getDefaultCPUGenerator();  // a handle on the one generator
  generator.set_current_seed(seed);
}

using at::get_num_threads;
using at::set_num_threads;

}  // namespace torch
