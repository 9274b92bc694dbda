// aten/src/ATen/native/cpu/avx_mathfun.h - the Cephes log and sincos that PyTorch's AVX2
// Box-Muller (normal_fill_16_AVX2) evaluates, one lane at a time, in float.
// Mirrors PyTorch's aten/src/ATen/native/cpu/avx_mathfun.h (after sse_mathfun by Julien
// Pommier and its AVX port by Giovanni Garberoglio, zlib license).
// Guide: docs/source/internals/programs/random_streams.rst.
//
// PyTorch's x86 builds run randn on 16+ contiguous floats through 8-wide AVX code whose
// log and sin/cos are these polynomial approximations, not libm's. To print the same digits
// this tree evaluates the same polynomials lane by lane, in the same order. PyTorch's
// compiler fuses some of the vector multiply-adds into fused multiply-adds (one rounding
// instead of two); std::fma marks exactly those steps, every other step rounds on its own.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace at::native::avx_mathfun {

inline float bits_to_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

inline uint32_t float_to_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}

// [marker: log256_ps]
// Natural log: split x into mantissa m in [0.5, 1) and exponent e, move m to
// [sqrt(1/2) - 1, sqrt(2) - 1), then a degree-9 polynomial. NaN for x <= 0.
inline float log256_ps(float x) {
  const bool invalid = x <= 0.0f;
  if (!(x > 1.17549435e-38f)) x = 1.17549435e-38f;  // max(x, FLT_MIN): no denormals
  const int32_t exponent = static_cast<int32_t>(float_to_bits(x) >> 23) - 0x7f;
  x = bits_to_float((float_to_bits(x) & ~0x7f800000u) | float_to_bits(0.5f));
  float e = static_cast<float>(exponent) + 1.0f;
  const bool below = x < 0.707106781186547524f;
  const float tmp = below ? x : 0.0f;
  x = x - 1.0f;
  e = e - (below ? 1.0f : 0.0f);
  x = x + tmp;
  const float z = x * x;
  float y = std::fma(7.0376836292E-2f, x, -1.1514610310E-1f);
  y = std::fma(y, x, 1.1676998740E-1f);
  y = std::fma(y, x, -1.2420140846E-1f);
  y = std::fma(y, x, 1.4249322787E-1f);
  y = std::fma(y, x, -1.6668057665E-1f);
  y = std::fma(y, x, 2.0000714765E-1f);
  y = std::fma(y, x, -2.4999993993E-1f);
  y = std::fma(y, x, 3.3333331174E-1f);
  y = y * x;
  y = std::fma(y, z, e * -2.12194440e-4f);
  y = std::fma(-z, 0.5f, y);
  x = std::fma(e, 0.693359375f, x + y);
  return invalid ? bits_to_float(0xffffffffu) : x;
}
// [end marker: log256_ps]

// sin and cos together: reduce |x| by multiples of pi/4 (in three parts, "extended
// precision modular arithmetic"), then one of two polynomials per octant.
inline void sincos256_ps(float x, float* s, float* c) {
  const uint32_t sign_sin_in = float_to_bits(x) & 0x80000000u;
  x = std::fabs(x);
  float y = x * 1.27323954473516f;  // 4 / pi
  int32_t j = static_cast<int32_t>(y);  // truncation, as cvttps
  j = (j + 1) & ~1;
  y = static_cast<float>(j);
  const uint32_t swap_sign_sin = static_cast<uint32_t>(j & 4) << 29;
  const bool poly_sin = (j & 2) == 0;
  x = std::fma(y, -0.78515625f, x);
  x = std::fma(y, -2.4187564849853515625e-4f, x);
  x = std::fma(y, -3.77489497744594108e-8f, x);
  const uint32_t sign_cos = static_cast<uint32_t>(~(j - 2) & 4) << 29;
  const uint32_t sign_sin = sign_sin_in ^ swap_sign_sin;

  const float z = x * x;
  float yc = std::fma(2.443315711809948E-005f, z, -1.388731625493765E-003f);
  yc = std::fma(yc, z, 4.166664568298827E-002f);
  yc = yc * z;
  yc = std::fma(yc, z, -(z * 0.5f));
  yc = yc + 1.0f;

  float ys = std::fma(-1.9515295891E-4f, z, 8.3321608736E-3f);
  ys = std::fma(ys, z, -1.6666654611E-1f);
  ys = ys * z;
  ys = std::fma(ys, x, x);

  const float sin_v = poly_sin ? ys : yc;
  const float cos_v = poly_sin ? yc : ys;
  *s = bits_to_float(float_to_bits(sin_v) ^ sign_sin);
  *c = bits_to_float(float_to_bits(cos_v) ^ sign_cos);
}

}  // namespace at::native::avx_mathfun
