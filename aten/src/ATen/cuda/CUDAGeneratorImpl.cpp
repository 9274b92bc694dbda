// aten/src/ATen/cuda/CUDAGeneratorImpl.cpp - seed and offset of each CUDA device's generator.
// Mirrors PyTorch's aten/src/ATen/cuda/CUDAGeneratorImpl.cpp. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/cuda/CUDAGeneratorImpl.h>

#include <c10/cuda/CUDAFunctions.h>

#include <chrono>
#include <cstring>
#include <deque>
#include <mutex>
#include <random>

namespace at {

CUDAGeneratorImpl::CUDAGeneratorImpl(c10::DeviceIndex device_index)
    : c10::GeneratorImpl(Device(DeviceType::CUDA, device_index)) {}

void CUDAGeneratorImpl::set_current_seed(uint64_t seed) {
  seed_ = seed;
  philox_offset_per_thread_ = 0;
}

uint64_t CUDAGeneratorImpl::current_seed() const {
  return seed_;
}

uint64_t CUDAGeneratorImpl::seed() {
  std::random_device rd;
  const uint64_t s = (static_cast<uint64_t>(rd()) << 32) ^ rd() ^
                     static_cast<uint64_t>(std::chrono::high_resolution_clock::now().time_since_epoch().count());
  set_current_seed(s);
  return s;
}

std::vector<uint8_t> CUDAGeneratorImpl::get_state() const {
  std::vector<uint8_t> state(2 * sizeof(uint64_t));
  std::memcpy(state.data(), &seed_, sizeof(uint64_t));
  std::memcpy(state.data() + sizeof(uint64_t), &philox_offset_per_thread_, sizeof(uint64_t));
  return state;
}

void CUDAGeneratorImpl::set_state(const std::vector<uint8_t>& state) {
  TORCH_CHECK(state.size() == 2 * sizeof(uint64_t), "RNG state is wrong size");
  std::memcpy(&seed_, state.data(), sizeof(uint64_t));
  std::memcpy(&philox_offset_per_thread_, state.data() + sizeof(uint64_t), sizeof(uint64_t));
  TORCH_CHECK(philox_offset_per_thread_ % 4 == 0, "offset must be a multiple of 4");
}

// [marker: philox_engine_inputs]
std::pair<uint64_t, uint64_t> CUDAGeneratorImpl::philox_engine_inputs(uint64_t increment) {
  increment = ((increment + 3) / 4) * 4;
  const uint64_t offset = philox_offset_per_thread_;
  philox_offset_per_thread_ += increment;
  return {seed_, offset};
}
// [end marker: philox_engine_inputs]

namespace cuda::detail {

const Generator& getDefaultCUDAGenerator(c10::DeviceIndex device_index) {
  static std::once_flag init;
  static std::deque<Generator> generators;
  std::call_once(init, [] {
    const auto n = c10::cuda::device_count();
    for (c10::DeviceIndex i = 0; i < n; i++) {
      generators.emplace_back(c10::make_intrusive<CUDAGeneratorImpl>(i));
    }
  });
  const c10::DeviceIndex index = device_index == -1 ? c10::cuda::current_device() : device_index;
  TORCH_CHECK(index >= 0 && index < static_cast<c10::DeviceIndex>(generators.size()), "Invalid device index ",
              static_cast<int>(index), ": there are ", generators.size(), " CUDA devices");
  return generators[index];
}

}  // namespace cuda::detail
}  // namespace at
