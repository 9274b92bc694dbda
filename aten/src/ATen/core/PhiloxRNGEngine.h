// aten/src/ATen/core/PhiloxRNGEngine.h - Philox4x32-10, the counter-based random number engine
// of PyTorch's CUDA generator: four 32-bit words from (key = seed, counter = (offset,
// subsequence)) in ten rounds of multiply/xor, no state to carry between threads, so thread i
// of a kernel draws its own numbers from subsequence i. Mirrors PyTorch's
// aten/src/ATen/core/PhiloxRNGEngine.h (Salmon et al., "Parallel Random Numbers: As Easy as
// 1, 2, 3", SC 2011). Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <c10/macros/Macros.h>

#include <cmath>
#include <cstdint>

namespace at {

// [marker: Philox4_32]
class Philox4_32 {
 public:
  // curand_init(seed, subsequence, offset): subsequence picks the thread's stream of numbers,
  // offset skips that many 32-bit outputs into it.
  C10_HOST_DEVICE inline explicit Philox4_32(uint64_t seed = 67280421310721, uint64_t subsequence = 0,
                                             uint64_t offset = 0) {
    key_[0] = static_cast<uint32_t>(seed);
    key_[1] = static_cast<uint32_t>(seed >> 32);
    counter_[0] = counter_[1] = 0;
    counter_[2] = static_cast<uint32_t>(subsequence);
    counter_[3] = static_cast<uint32_t>(subsequence >> 32);
    STATE = 0;
    incr_n(offset / 4);
    STATE = static_cast<uint32_t>(offset % 4);
  }

  // The next 32-bit output (four per counter value).
  C10_HOST_DEVICE inline uint32_t operator()() {
    if (STATE == 0) {
      uint32_t counter[4] = {counter_[0], counter_[1], counter_[2], counter_[3]};
      uint32_t key[2] = {key_[0], key_[1]};
      for (int round = 0; round < 9; round++) {
        single_round(counter, key);
        key[0] += kPhilox10A;
        key[1] += kPhilox10B;
      }
      single_round(counter, key);
      for (int i = 0; i < 4; i++) {
        output_[i] = counter[i];
      }
      incr();
    }
    const uint32_t ret = output_[STATE];
    STATE = (STATE + 1) & 3;
    return ret;
  }

  // A float in (0, 1]: curand_uniform's mapping of 32 bits.
  C10_HOST_DEVICE inline float randn_uniform() { return (*this)() * kTwoPow32Inv + kTwoPow32Inv / 2.0f; }

 private:
  static constexpr uint32_t kPhilox10A = 0x9E3779B9;
  static constexpr uint32_t kPhilox10B = 0xBB67AE85;
  static constexpr uint32_t kPhiloxSA = 0xD2511F53;
  static constexpr uint32_t kPhiloxSB = 0xCD9E8D57;
  static constexpr float kTwoPow32Inv = 2.3283064e-10f;

  C10_HOST_DEVICE static inline uint32_t mulhilo32(uint32_t a, uint32_t b, uint32_t* hi) {
    const uint64_t product = static_cast<uint64_t>(a) * b;
    *hi = static_cast<uint32_t>(product >> 32);
    return static_cast<uint32_t>(product);
  }

  C10_HOST_DEVICE static inline void single_round(uint32_t* ctr, const uint32_t* key) {
    uint32_t hi0, hi1;
    const uint32_t lo0 = mulhilo32(kPhiloxSA, ctr[0], &hi0);
    const uint32_t lo1 = mulhilo32(kPhiloxSB, ctr[2], &hi1);
    const uint32_t c0 = hi1 ^ ctr[1] ^ key[0];
    const uint32_t c2 = hi0 ^ ctr[3] ^ key[1];
    ctr[0] = c0;
    ctr[1] = lo1;
    ctr[2] = c2;
    ctr[3] = lo0;
  }

  // The 128-bit counter's low half counts outputs; it carries into the subsequence half.
  C10_HOST_DEVICE inline void incr_n(uint64_t n) {
    const uint32_t nlo = static_cast<uint32_t>(n);
    uint32_t nhi = static_cast<uint32_t>(n >> 32);
    counter_[0] += nlo;
    if (counter_[0] < nlo) {
      nhi++;
      counter_[1] += nhi;
      if (nhi != 0 && nhi <= counter_[1]) return;
    } else {
      counter_[1] += nhi;
      if (nhi <= counter_[1]) return;
    }
    if (++counter_[2]) return;
    ++counter_[3];
  }

  C10_HOST_DEVICE inline void incr() {
    if (++counter_[0]) return;
    if (++counter_[1]) return;
    if (++counter_[2]) return;
    ++counter_[3];
  }

  uint32_t counter_[4];
  uint32_t output_[4] = {0, 0, 0, 0};
  uint32_t key_[2];
  uint32_t STATE;
};
// [end marker: Philox4_32]

}  // namespace at
