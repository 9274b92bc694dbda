// aten/src/ATen/core/MT19937RNGEngine.h - the 32-bit Mersenne Twister behind CPU random numbers.
// Mirrors PyTorch's aten/src/ATen/core/MT19937RNGEngine.h. Guide: docs/source/internals/one_call.rst.
//
// The same sequence as std::mt19937 (Matsumoto & Nishimura, 1998), written out so that its
// whole state is a plain struct: Generator.get_state() copies it, set_state() puts it back.
#pragma once

#include <array>
#include <cstdint>

namespace at {

constexpr int MERSENNE_STATE_N = 624;
constexpr int MERSENNE_STATE_M = 397;
constexpr uint32_t MATRIX_A = 0x9908b0df;
constexpr uint32_t UMASK = 0x80000000;
constexpr uint32_t LMASK = 0x7fffffff;

struct mt19937_data_pod {
  uint64_t seed_;
  int left_;
  bool seeded_;
  uint32_t next_;
  std::array<uint32_t, MERSENNE_STATE_N> state_;
};

class mt19937 {
 public:
  explicit mt19937(uint64_t seed = 5489) { init_with_uint32(seed); }

  mt19937_data_pod data() const { return data_; }
  void set_data(const mt19937_data_pod& data) { data_ = data; }
  uint64_t seed() const { return data_.seed_; }

  // One 32-bit draw: take the next word of the state (regenerating all 624 when used
  // up), then "temper" it so that every bit is well mixed.
  uint32_t operator()() {
    if (--(data_.left_) == 0) {
      next_state();
    }
    uint32_t y = data_.state_[data_.next_++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= (y >> 18);
    return y;
  }

 private:
  mt19937_data_pod data_;

  // Only the low 32 bits of the seed count, as in std::mt19937.
  void init_with_uint32(uint64_t seed) {
    data_.seed_ = seed;
    data_.seeded_ = true;
    data_.state_[0] = seed & 0xffffffff;
    for (int j = 1; j < MERSENNE_STATE_N; j++) {
      data_.state_[j] = (1812433253 * (data_.state_[j - 1] ^ (data_.state_[j - 1] >> 30)) + j);
    }
    data_.left_ = 1;
    data_.next_ = 0;
  }

  static uint32_t mix_bits(uint32_t u, uint32_t v) { return (u & UMASK) | (v & LMASK); }
  static uint32_t twist(uint32_t u, uint32_t v) { return (mix_bits(u, v) >> 1) ^ (v & 1 ? MATRIX_A : 0); }

  void next_state() {
    uint32_t* p = data_.state_.data();
    data_.left_ = MERSENNE_STATE_N;
    data_.next_ = 0;
    for (int j = MERSENNE_STATE_N - MERSENNE_STATE_M + 1; --j; p++) {
      *p = p[MERSENNE_STATE_M] ^ twist(p[0], p[1]);
    }
    for (int j = MERSENNE_STATE_M; --j; p++) {
      *p = p[MERSENNE_STATE_M - MERSENNE_STATE_N] ^ twist(p[0], p[1]);
    }
    *p = p[MERSENNE_STATE_M - MERSENNE_STATE_N] ^ twist(p[0], data_.state_[0]);
  }
};

}  // namespace at
