// aten/src/ATen/CPUGeneratorImpl.h - the CPU generator: an mt19937 engine plus a cached normal.
// Mirrors PyTorch's aten/src/ATen/CPUGeneratorImpl.h. Guide: docs/source/internals/one_call.rst.
#pragma once

#include <ATen/core/Generator.h>
#include <ATen/core/MT19937RNGEngine.h>
#include <c10/macros/Export.h>

#include <optional>

namespace at {

struct TORCH_API CPUGeneratorImpl : public c10::GeneratorImpl {
  explicit CPUGeneratorImpl(uint64_t seed_in = c10::default_rng_seed_val);

  void set_current_seed(uint64_t seed) override;
  uint64_t current_seed() const override;
  uint64_t seed() override;
  std::vector<uint8_t> get_state() const override;
  void set_state(const std::vector<uint8_t>& state) override;

  // 32 random bits (one engine draw), and 64 (two draws: the first is the high word).
  uint32_t random();
  uint64_t random64();

  // Box-Muller makes normals in pairs: the second of a pair waits here for the next call
  // (at::normal_distribution<double> in core/DistributionsHelper.h).
  std::optional<double> next_double_normal_sample() const { return next_double_normal_sample_; }
  void set_next_double_normal_sample(std::optional<double> v) { next_double_normal_sample_ = v; }

 private:
  at::mt19937 engine_;
  std::optional<double> next_double_normal_sample_;
};

namespace detail {
// The generator torch.manual_seed reseeds and random operators use when given none.
TORCH_API const Generator& getDefaultCPUGenerator();
TORCH_API Generator createCPUGenerator(uint64_t seed_val = c10::default_rng_seed_val);
}  // namespace detail

}  // namespace at
