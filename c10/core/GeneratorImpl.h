// c10/core/GeneratorImpl.h - the state behind torch.Generator: a seeded random engine per device.
// Mirrors PyTorch's c10/core/GeneratorImpl.h. Guide: docs/source/internals/one_call.rst.
//
// A GeneratorImpl owns one pseudo-random engine and the seed it started from. Random
// operators (rand, randn, normal_, uniform_, randint) take an optional at::Generator; with
// none they use the device's default generator (at::detail::getDefaultCPUGenerator()),
// which torch.manual_seed reseeds. Kernels hold mutex_ while they draw, so two threads
// drawing from one generator still see one well-defined sequence.
#pragma once

#include <c10/core/Device.h>
#include <c10/util/intrusive_ptr.h>

#include <cstdint>
#include <mutex>
#include <vector>

namespace c10 {

// The seed torch uses when none was set (PyTorch's default_rng_seed_val).
constexpr uint64_t default_rng_seed_val = 67280421310721;

struct C10_API GeneratorImpl : public c10::intrusive_ptr_target {
  explicit GeneratorImpl(Device device_in) : device_(device_in) {}
  GeneratorImpl(const GeneratorImpl&) = delete;
  GeneratorImpl& operator=(const GeneratorImpl&) = delete;
  ~GeneratorImpl() override = default;

  // Restart the engine from `seed` (torch.manual_seed, Generator.manual_seed).
  virtual void set_current_seed(uint64_t seed) = 0;
  // The seed the engine last started from (Generator.initial_seed).
  virtual uint64_t current_seed() const = 0;
  // Reseed from a non-deterministic source and return the new seed (Generator.seed).
  virtual uint64_t seed() = 0;
  // The engine's whole state as bytes, and back (Generator.get_state / set_state).
  virtual std::vector<uint8_t> get_state() const = 0;
  virtual void set_state(const std::vector<uint8_t>& state) = 0;

  Device device() const { return device_; }

  // Held by kernels while they draw numbers.
  std::mutex mutex_;

 private:
  Device device_;
};

}  // namespace c10
