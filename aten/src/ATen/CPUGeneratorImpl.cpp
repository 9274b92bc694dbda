// aten/src/ATen/CPUGeneratorImpl.cpp - the CPU generator and the default one torch.manual_seed sets.
// Mirrors PyTorch's aten/src/ATen/CPUGeneratorImpl.cpp. Guide: docs/source/internals/one_call.rst.
#include <ATen/CPUGeneratorImpl.h>

#include <cstring>
#include <random>

namespace at {
namespace {

// What get_state() copies out: the engine's words and the cached normal sample.
// (PyTorch's CPUGeneratorImplState adds fields of the legacy TH generator; this tree has none.)
struct CPUGeneratorImplState {
  mt19937_data_pod engine;
  double next_double_normal_sample;
  bool has_next_double_normal_sample;
};

}  // namespace

CPUGeneratorImpl::CPUGeneratorImpl(uint64_t seed_in) : c10::GeneratorImpl(Device(DeviceType::CPU)), engine_(seed_in) {}

void CPUGeneratorImpl::set_current_seed(uint64_t seed) {
  next_double_normal_sample_.reset();
  engine_ = mt19937(seed);
}

uint64_t CPUGeneratorImpl::current_seed() const {
  return engine_.seed();
}

uint64_t CPUGeneratorImpl::seed() {
  // A non-deterministic 64-bit seed (PyTorch's getNonDeterministicRandom).
  std::random_device rd;
  const uint64_t s = (static_cast<uint64_t>(rd()) << 32) | rd();
  set_current_seed(s);
  return s;
}

uint32_t CPUGeneratorImpl::random() {
  return engine_();
}

uint64_t CPUGeneratorImpl::random64() {
  const uint32_t hi = engine_();
  const uint32_t lo = engine_();
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

std::vector<uint8_t> CPUGeneratorImpl::get_state() const {
  CPUGeneratorImplState state{};
  state.engine = engine_.data();
  state.has_next_double_normal_sample = next_double_normal_sample_.has_value();
  state.next_double_normal_sample = next_double_normal_sample_.value_or(0.0);
  std::vector<uint8_t> bytes(sizeof(state));
  std::memcpy(bytes.data(), &state, sizeof(state));
  return bytes;
}

void CPUGeneratorImpl::set_state(const std::vector<uint8_t>& bytes) {
  TORCH_CHECK(bytes.size() == sizeof(CPUGeneratorImplState), "Expected either a CPUGeneratorImplState of size ",
              sizeof(CPUGeneratorImplState), " but found the input RNG state size to be ", bytes.size());
  CPUGeneratorImplState state;
  std::memcpy(&state, bytes.data(), sizeof(state));
  TORCH_CHECK(state.engine.left_ >= 1 && state.engine.left_ <= MERSENNE_STATE_N &&
                  state.engine.next_ <= static_cast<uint32_t>(MERSENNE_STATE_N),
              "Invalid mt19937 state");
  engine_.set_data(state.engine);
  next_double_normal_sample_.reset();
  if (state.has_next_double_normal_sample) {
    next_double_normal_sample_ = state.next_double_normal_sample;
  }
}

namespace detail {

const Generator& getDefaultCPUGenerator() {
  static Generator default_gen = createCPUGenerator(c10::default_rng_seed_val);
  return default_gen;
}

Generator createCPUGenerator(uint64_t seed_val) {
  return make_generator<CPUGeneratorImpl>(seed_val);
}

}  // namespace detail
}  // namespace at
