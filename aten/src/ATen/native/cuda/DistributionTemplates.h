// aten/src/ATen/native/cuda/DistributionTemplates.h - what every random kernel on CUDA shares:
// the launch shape (256 threads, four numbers per Philox call) and the (seed, offset) a launch
// takes from the device's generator. Mirrors PyTorch's
// aten/src/ATen/native/cuda/DistributionTemplates.h (calc_execution_policy, curand_uniform).
// Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <ATen/core/Generator.h>
#include <ATen/core/PhiloxRNGEngine.h>
#include <ATen/cuda/CUDAGeneratorImpl.h>
#include <c10/core/Device.h>
#include <c10/macros/Macros.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <optional>

namespace at::native {

constexpr int kDistThreads = 256;
constexpr int kDistUnroll = 4;  // numbers per Philox call

// A float in (0, 1] from 32 random bits (curand_uniform's mapping).
C10_HOST_DEVICE inline float uniform_from_bits(uint32_t bits) {
  constexpr float kTwoPow32Inv = 2.3283064e-10f;
  return bits * kTwoPow32Inv + kTwoPow32Inv / 2.0f;
}

// The launch shape of a distribution kernel over N elements, and the (seed, offset) it draws
// from: each thread makes ceil(groups / threads) passes of `draws_per_group` numbers, and the
// generator's offset moves past all of them, so the next kernel draws fresh numbers.
struct DistributionLaunch {
  int blocks;
  uint64_t seed;
  uint64_t offset;
};

inline DistributionLaunch distribution_launch(int64_t N, int draws_per_group, std::optional<Generator> gen, Device device) {
  auto* generator = get_generator_or_default<CUDAGeneratorImpl>(gen, cuda::detail::getDefaultCUDAGenerator(device.index()));
  const int64_t groups = (N + kDistUnroll - 1) / kDistUnroll;
  const int blocks = static_cast<int>(std::min<int64_t>((groups + kDistThreads - 1) / kDistThreads, 1024));
  const int64_t passes_per_thread = (groups + int64_t(blocks) * kDistThreads - 1) / (int64_t(blocks) * kDistThreads);
  std::lock_guard<std::mutex> lock(generator->mutex_);
  const auto [seed, offset] = generator->philox_engine_inputs(passes_per_thread * draws_per_group);
  return {blocks, seed, offset};
}

}  // namespace at::native
