// c10/util/BFloat16.h - bfloat16 (the top 16 bits of a float32) as a C++ type.
// Mirrors PyTorch's c10/util/BFloat16.h. Guide: docs/source/internals/tensors.rst.
#pragma once

#include <c10/macros/Macros.h>
#include <c10/util/Half.h>

#include <cmath>
#include <cstdint>
#include <ostream>

namespace c10 {

struct alignas(2) BFloat16 {
  uint16_t x;

  struct from_bits_t {};
  static constexpr from_bits_t from_bits() { return from_bits_t(); }

  BFloat16() = default;
  C10_HOST_DEVICE constexpr BFloat16(uint16_t bits, from_bits_t) : x(bits) {}
  // Round to nearest even on the 16 bits dropped; NaN becomes the canonical 0x7fc0.
  C10_HOST_DEVICE BFloat16(float value) {
    if (std::isnan(value)) {
      x = 0x7fc0;
      return;
    }
    uint32_t bits = detail::fp32_bits(value);
    uint32_t rounding_bias = ((bits >> 16) & 1) + 0x7fff;
    x = static_cast<uint16_t>((bits + rounding_bias) >> 16);
  }
  C10_HOST_DEVICE operator float() const { return detail::fp32_from_bits(static_cast<uint32_t>(x) << 16); }
};

inline std::ostream& operator<<(std::ostream& out, const BFloat16& value) {
  out << static_cast<float>(value);
  return out;
}

}  // namespace c10

namespace at {
using c10::BFloat16;
}
