// c10/util/Half.h - IEEE 754 binary16 (torch.float16) as a C++ type.
// Mirrors PyTorch's c10/util/Half.h. Guide: docs/source/internals/tensors.rst.
//
// Stored as 16 raw bits; arithmetic happens in float (each operator converts, computes,
// rounds back), which is also what PyTorch's CPU kernels do for half.
#pragma once

#include <c10/macros/Macros.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>

namespace c10 {
namespace detail {

C10_HOST_DEVICE inline uint32_t fp32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}
C10_HOST_DEVICE inline float fp32_from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

// binary16 -> binary32, exact (every half is a float).
C10_HOST_DEVICE inline float fp16_ieee_to_fp32_value(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  if (exponent == 0) {
    if (mantissa == 0) {
      return fp32_from_bits(sign);  // +-0
    }
    // Subnormal half: normalise it into a float.
    int shift = 0;
    while ((mantissa & 0x400) == 0) {
      mantissa <<= 1;
      ++shift;
    }
    mantissa &= 0x3ff;
    exponent = 127 - 15 + 1 - shift;
    return fp32_from_bits(sign | (exponent << 23) | (mantissa << 13));
  }
  if (exponent == 0x1f) {  // inf or NaN
    return fp32_from_bits(sign | 0x7f800000 | (mantissa << 13));
  }
  return fp32_from_bits(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
}

// binary32 -> binary16, round to nearest even; overflow gives inf, NaN stays NaN.
C10_HOST_DEVICE inline uint16_t fp16_ieee_from_fp32_value(float f) {
  const uint32_t x = fp32_bits(f);
  const uint32_t sign = (x >> 16) & 0x8000;
  const uint32_t abs = x & 0x7fffffff;
  if (abs >= 0x7f800000) {  // inf or NaN
    return static_cast<uint16_t>(sign | 0x7c00 | (abs > 0x7f800000 ? 0x200 : 0));
  }
  if (abs >= 0x477ff000) {  // rounds to >= 65520: overflow
    return static_cast<uint16_t>(sign | 0x7c00);
  }
  if (abs < 0x38800000) {  // below the smallest normal half: subnormal or zero
    // Let the FPU do the rounding: adding 0.5 puts the half's subnormal grid at float's ulp.
    const float rounded = fp32_from_bits(abs) + 0.5f;
    return static_cast<uint16_t>(sign | (fp32_bits(rounded) - 0x3f000000));
  }
  const uint32_t mantissa_odd = (abs >> 13) & 1;
  const uint32_t rounded = abs + 0xc8000fff + mantissa_odd;  // rebias exponent, round half even
  return static_cast<uint16_t>(sign | (rounded >> 13));
}

}  // namespace detail

struct alignas(2) Half {
  uint16_t x;

  struct from_bits_t {};
  static constexpr from_bits_t from_bits() { return from_bits_t(); }

  Half() = default;
  C10_HOST_DEVICE constexpr Half(uint16_t bits, from_bits_t) : x(bits) {}
  C10_HOST_DEVICE Half(float value) : x(detail::fp16_ieee_from_fp32_value(value)) {}
  C10_HOST_DEVICE operator float() const { return detail::fp16_ieee_to_fp32_value(x); }
};

inline std::ostream& operator<<(std::ostream& out, const Half& value) {
  out << static_cast<float>(value);
  return out;
}

}  // namespace c10

namespace at {
using c10::Half;
}
