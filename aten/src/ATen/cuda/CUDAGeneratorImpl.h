// aten/src/ATen/cuda/CUDAGeneratorImpl.h - the random number generator of a CUDA device:
// Philox4x32-10 needs only a seed and an offset. Each kernel takes the current offset and
// advances it by how many numbers each thread may draw, so the next kernel starts past them:
// reproducible per seed, with no state on the device. Mirrors PyTorch's
// aten/src/ATen/cuda/CUDAGeneratorImpl.h. Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <ATen/core/Generator.h>
#include <c10/core/Device.h>

#include <cstdint>
#include <utility>

namespace at {

// [marker: CUDAGeneratorImpl]
struct TORCH_API CUDAGeneratorImpl : public c10::GeneratorImpl {
  explicit CUDAGeneratorImpl(c10::DeviceIndex device_index = -1);

  void set_current_seed(uint64_t seed) override;
  uint64_t current_seed() const override;
  uint64_t seed() override;
  // 16 bytes: the seed, then the offset (PyTorch's layout of a CUDA RNG state).
  std::vector<uint8_t> get_state() const override;
  void set_state(const std::vector<uint8_t>& state) override;

  // (seed, offset) for a kernel whose threads each draw up to `increment` numbers; the offset
  // moves past them (rounded up to a multiple of 4: one Philox call gives four).
  std::pair<uint64_t, uint64_t> philox_engine_inputs(uint64_t increment);
  uint64_t philox_offset_per_thread() const { return philox_offset_per_thread_; }

 private:
  uint64_t seed_ = c10::default_rng_seed_val;
  uint64_t philox_offset_per_thread_ = 0;
};
// [end marker: CUDAGeneratorImpl]

namespace cuda::detail {
// The default generator of each device (torch.cuda.manual_seed seeds the current one).
TORCH_API const Generator& getDefaultCUDAGenerator(c10::DeviceIndex device_index = -1);
}  // namespace cuda::detail

}  // namespace at
