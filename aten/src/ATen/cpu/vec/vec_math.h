// aten/src/ATen/cpu/vec/vec_math.h - exp, tanh, sigmoid and erf of float without libm, written so
// that the compiler evaluates them 8 lanes at a time inside a kernel's loop.
// Mirrors the math members of PyTorch's Vectorized<float> (aten/src/ATen/cpu/vec/vec256/vec256_float.h:
// exp, exp_u20, tanh, sigmoid via exp, erf). Guide: docs/source/internals/performance.rst.
//
// PyTorch evaluates these as members of Vectorized<float>: exp and tanh call Sleef's vector
// functions (Sleef_expf8_u10, Sleef_tanhf8_u10), exp_u20 is written out with AVX2 intrinsics, and
// all of them work on 8 floats per instruction. std::exp, std::tanh and std::erf are calls into
// libm, one element per call, which no compiler can vectorize: a softmax or a gelu spends most of
// its time there. Here each function is one lane's code: plain float arithmetic, bit operations
// (through memcpy) to build 2^n, fixed-degree polynomials, and selects (bitwise blends, select() below)
// instead of branches. Inlined into a contiguous loop, GCC -O3 turns each of them into vector
// instructions (SSE2 in the DEFAULT build, AVX2 in the AVX2 build, DispatchStub.h).
//
// Both builds must give the same bits: every function is a fixed sequence of IEEE operations,
// each rounded on its own (no std::fma, -ffp-contract=off), with no float->int conversion (whose
// rounding mode and NaN result differ between instructions): n = round(x / ln 2) comes from the
// "shifter" trick, adding 1.5 * 2^23 so that the integer lands in the low bits of the mantissa.
//
// Accuracy, the largest error against float64 over all 2^32 floats (test/aten/test_vec_math.py
// checks millions of them): exp 0.79 ulp (exp_u20 0.98), tanh 1.33, sigmoid 1.16, erf 1.32,
// denormal results, overflow to inf, NaN, +-inf and -0.0 included.
#pragma once

#include <c10/macros/Macros.h>

#include <cmath>
#include <cstdint>
#include <cstring>

// The header is compiled into both builds of the CPU kernels: each keeps its own copy of these
// inline functions (as at::vec does in PyTorch), so that the linker cannot hand the AVX2 copy to
// the portable build.
#ifndef CPU_CAPABILITY
#define CPU_CAPABILITY DEFAULT
#endif

namespace at::vec {
inline namespace CPU_CAPABILITY {

// Every function here is forced inline (C10_ALWAYS_INLINE): a call, which GCC's size heuristics
// choose for the larger ones (erf, sigmoid), is a scalar function call per element, and the loop
// around it is no longer vectorized.

C10_ALWAYS_INLINE uint32_t float_as_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

C10_ALWAYS_INLINE float bits_as_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

// [marker: vec_select]
// cond ? a : b, as a bitwise blend through an all-ones or all-zeros mask. A plain ternary whose
// arm is a constant (the clamps below) is turned by GCC's jump threading into a branch around a
// constant-folded copy of the rest of the function, and a loop with branches is not vectorized;
// the blend is one comparison and three bit operations per lane (vblendvps-like) in both builds.
C10_ALWAYS_INLINE float select(bool cond, float a, float b) {
  const uint32_t mask = 0u - static_cast<uint32_t>(cond);
  return bits_as_float((float_as_bits(a) & mask) | (float_as_bits(b) & ~mask));
}
// [end marker: vec_select]

namespace detail {

// P(r) of e^r = 1 + r + r^2 P(r), |r| <= ln2 / 2: a degree-4 minimax polynomial (relative
// error 3.1e-9, 0.05 ulp; Cephes' expf.c, which PyTorch's exp_u20 also follows, uses degree 5).
C10_ALWAYS_INLINE float exp_poly(float r) {
  float p = 1.3814540579915047e-3f;
  p = p * r + 8.3687454462051392e-3f;
  p = p * r + 4.1668388992547989e-2f;
  p = p * r + 1.6666521131992340e-1f;
  p = p * r + 4.9999994039535522e-1f;
  return p;
}

// The shared core of exp and sigmoid (exp_small below is a cheaper one): for |x| < 2^22 ln2 it
// returns the integer n = round(x / ln2) and e^r, r = x - n ln2, |r| <= ln2 / 2, as y + y_err
// (y is e^r rounded, y_err its rounding error, exact to 2^-30 relative): e^x = 2^n (y + y_err).
//
// n: x / ln2 + 1.5 * 2^23 rounds to an integer (the "shifter": the sum's ulp is 1), which then
// sits in the sum's low mantissa bits; reading them as an integer avoids a float->int
// conversion. ln2 is split in two (Cody and Waite): C1 = 0.693359375 has 9 significant bits,
// so n * C1 is exact for |n| < 2^15 and r_hi = x - n * C1 is exact; r_lo = n * (C1 - ln2).
// e^r = 1 + r + r^2 P(r). The terms 1 + r that dominate must not be rounded twice (rounding r
// first would cost a quarter of an ulp of the result, 1 + r another half), so 1 + r_hi is split
// exactly into s + s_err (Dekker's Fast2Sum, valid as |r_hi| < 1) and the small terms are added
// to s_err first: y = s + (...) rounds once.
struct ExpReduced {
  float y;
  float y_err;
  int32_t n;
};

// The shared first step: n = round(x / ln 2) by the shifter trick (t's low mantissa bits hold
// n), and ln 2 in two parts for Cody-Waite: C1 has few enough bits that n * C1 is exact.
constexpr float kExpLog2e = 1.44269504088896341f;
constexpr float kExpC1 = 0.693359375f;
constexpr float kExpC2 = 2.12194440e-4f;  // C1 - ln2
constexpr float kExpShift = 12582912.0f;  // 1.5 * 2^23

struct ExpShift {
  float t;  // x / ln 2 + 1.5 * 2^23, rounded: n in its low mantissa bits
  float n;  // round(x / ln 2), as a float
};

C10_ALWAYS_INLINE ExpShift exp_shift(float x) {
  const float t = x * kExpLog2e + kExpShift;
  return {t, t - kExpShift};
}

C10_ALWAYS_INLINE ExpReduced exp_reduce(float x) {
  const auto [t, n] = exp_shift(x);
  const float r_hi = x - n * kExpC1;
  const float r_lo = n * kExpC2;
  const float r = r_hi + r_lo;
  const float p = exp_poly(r);
  const float s = 1.0f + r_hi;
  const float s_err = r_hi - (s - 1.0f);
  const float tail = (p * (r * r) + r_lo) + s_err;
  const float y = s + tail;
  const float y_err = tail - (y - s);  // Fast2Sum again: |s| >= |tail|
  // Unsigned arithmetic on the bits, then back to signed: no overflow for any input.
  return {y, y_err, static_cast<int32_t>(float_as_bits(t) - float_as_bits(kExpShift))};
}

// 2^n for -126 <= n <= 127, built in the exponent field.
C10_ALWAYS_INLINE float pow2i(int32_t n) {
  return bits_as_float(static_cast<uint32_t>(n + 127) << 23);
}

// e^x for -86.64 <= x <= 88 (and NaN), to 0.97 ulp: the same reduction and polynomial without
// the Fast2Sum steps, and 2^n as one factor, which n in [-125, 127] allows.
C10_ALWAYS_INLINE float exp_small(float x) {
  const auto [t, n] = exp_shift(x);
  const float r = (x - n * kExpC1) + n * kExpC2;
  const float y = (exp_poly(r) * (r * r) + r) + 1.0f;
  return y * pow2i(static_cast<int32_t>(float_as_bits(t) - float_as_bits(kExpShift)));
}

}  // namespace detail

// e^x to 0.6 ulp (0.79 for denormal results, rounded twice). x is clamped to [-104, 88.75] first: beyond,
// e^x rounds to 0 or overflows to inf anyway, and n stays in [-150, 128]. 2^n is applied in two
// factors 2^(n/2) 2^(n - n/2), as n <= -127 (denormal results) and n = 128 (results just below
// FLT_MAX) are not normal floats; y * 2^(n/2) is exact, so the result is rounded once, by the
// last product. A NaN passes the clamp (comparisons with it are false) and every operation after
// it, so NaN in gives NaN out; -inf gives 0 and +inf gives inf.
C10_ALWAYS_INLINE float exp(float x) {
  float xc = select(x > 88.75f, 88.75f, x);
  xc = select(xc < -104.0f, -104.0f, xc);
  const detail::ExpReduced e = detail::exp_reduce(xc);
  const int32_t n1 = e.n >> 1;
  return (e.y * detail::pow2i(n1)) * detail::pow2i(e.n - n1);
}

C10_ALWAYS_INLINE double exp(double x) {
  return std::exp(x);
}

// [marker: vec_exp_u20]
// e^x as softmax needs it, after PyTorch's Vectorized<float>::exp_u20 ("a faster version of
// exp", which its softmax kernels call on x - max <= 0). The same reduction and polynomial, to
// 1 ulp, without the dearer parts of exp above (detail::exp_small): no clamp (each select is a
// compare and a three-micro-operation blend), y rounded without Fast2Sum (0.97 ulp instead of
// 0.6), and 2^n as one factor, so results below 2^-125 (x < -86.64) are flushed to 0, as PyTorch
// flushes those below FLT_MIN. A 256 x 1024 softmax takes a quarter less time than with exp.
// Defined for x <= 88 (softmax's arguments are <= 0), NaN and -inf: above, 2^n is not a normal
// float.
C10_ALWAYS_INLINE float exp_u20(float x) {
  return select(x < -86.64f, 0.0f, detail::exp_small(x));
}
// [end marker: vec_exp_u20]

C10_ALWAYS_INLINE double exp_u20(double x) {
  return std::exp(x);
}

// tanh(x) = sign(x) (1 - 2 / (e^{2|x|} + 1)), the form Cephes' tanhf.c uses for |x| >= 0.625.
// Near 0 that difference of two numbers close to 1 cancels, so below 0.625 Cephes' odd
// polynomial x + x^3 P(x^2) (degree 4 in x^2) takes over. Both are computed, and a select picks
// one per lane. |x| is clamped to 9.1 (tanh(9.1) rounds to 1 in float), so e^{2|x|} <= e^18.2
// needs neither clamps nor two scale factors (detail::exp_small); a NaN passes the clamp.
// Max error 1.33 ulp.
C10_ALWAYS_INLINE float tanh(float x) {
  const uint32_t sign = float_as_bits(x) & 0x80000000u;
  const float ax = bits_as_float(float_as_bits(x) & 0x7fffffffu);
  const float z = x * x;
  float p = -5.70498872745E-3f;
  p = p * z + 2.06390887954E-2f;
  p = p * z - 5.37397155531E-2f;
  p = p * z + 1.33314422036E-1f;
  p = p * z - 3.33332819422E-1f;
  const float small = (p * z) * x + x;
  const float axc = select(ax > 9.1f, 9.1f, ax);
  const float e = detail::exp_small(axc + axc);
  const float big = 1.0f - 2.0f / (e + 1.0f);
  // The sign goes back on with a bit operation, which also keeps tanh(-0.0) = -0.0 (in the
  // polynomial, -0.0 + +0.0 would round to +0.0).
  return bits_as_float(float_as_bits(select(ax < 0.625f, small, big)) | sign);
}

C10_ALWAYS_INLINE double tanh(double x) {
  return std::tanh(x);
}

// 1 / (1 + e^-x), written with e = e^-|x| <= 1 so that nothing overflows: it is 1 / (1 + e) for
// x >= 0 and e / (1 + e) for x < 0, down to the denormal results near x = -103.9 (PyTorch's
// (1 + exp(-x)).reciprocal() returns 0 once e^-x overflows, below x = -88.7).
// Rounding e, then 1 + e, then the quotient could add up to 2.5 ulp, so e is kept as
// e + e_err, 1 + e is split exactly into d + d_err (Fast2Sum), and the quotient q = num / d is
// corrected to first order: (num + num_err) / (d + d_err) = q + (num_err - q d_err) / d, where
// 1 / d is q itself for x >= 0 and 1 - q for x < 0. Max error 1.16 ulp.
C10_ALWAYS_INLINE float sigmoid(float x) {
  const float ax = bits_as_float(float_as_bits(x) & 0x7fffffffu);
  const float xc = select(ax > 104.0f, 104.0f, ax);  // a NaN stays NaN
  const detail::ExpReduced er = detail::exp_reduce(-xc);
  const int32_t n1 = er.n >> 1;
  const float s1 = detail::pow2i(n1);
  const float s2 = detail::pow2i(er.n - n1);
  const float e = (er.y * s1) * s2;
  const float e_err = (er.y_err * s1) * s2;
  const bool pos = x >= 0.0f;  // a NaN takes the x < 0 side, and stays NaN
  const float d = 1.0f + e;
  const float d_err = (e - (d - 1.0f)) + e_err;
  const float num = select(pos, 1.0f, e);
  const float num_err = select(pos, 0.0f, e_err);
  const float q = num / d;
  const float inv_d = select(pos, q, 1.0f - q);
  return q + (num_err - q * d_err) * inv_d;
}

C10_ALWAYS_INLINE double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

// erf in two pieces, both plain polynomials (no exp, no division), picked per lane by a select:
//   |x| < 1:  erf(x) = x + x Q(x^2), Q of degree 6 (Cephes' erff in ndtrf.c: x T(x^2));
//             x is exact and x Q(x^2) is the smaller part, so the sum rounds once, at the end.
//   |x| >= 1: erf(|x|) = 1 - E(|x| - 2.5), E a degree-14 minimax polynomial for erfc on [1, 4]
//             (absolute error 1e-8); erfc <= 0.16 there, so its rounding errors are small next to
//             the ulp of 1 - erfc. |x| is clamped to 4, where 1 - erfc(4) = 1 - 1.5e-8 rounds
//             to 1, which holds for all larger |x|; the sign is put back with a bit operation.
// Max error 1.32 ulp. PyTorch's Vectorized<float>::erf is Abramowitz and Stegun's 7.1.26, an
// absolute error of 1.5e-7 (many ulps for small x); gelu is built on it.
C10_ALWAYS_INLINE float erf(float x) {
  const uint32_t sign = float_as_bits(x) & 0x80000000u;
  const float ax = bits_as_float(float_as_bits(x) & 0x7fffffffu);
  const float z = x * x;
  float q = 7.853866555e-05f;
  q = q * z - 8.010195452e-04f;
  q = q * z + 5.188327748e-03f;
  q = q * z - 2.685381286e-02f;
  q = q * z + 1.128358543e-01f;
  q = q * z - 3.761262596e-01f;
  q = q * z + 1.283791661e-01f;  // 2 / sqrt(pi) - 1
  const float small = x * q + x;
  const float u = select(ax > 4.0f, 4.0f, ax) - 2.5f;  // a NaN stays NaN
  float e = -8.961361573e-07f;
  e = e * u - 5.093389746e-07f;
  e = e * u + 1.576799878e-05f;
  e = e * u - 1.768169022e-05f;
  e = e * u - 8.125662862e-05f;
  e = e * u + 2.703980135e-04f;
  e = e * u - 2.584807226e-04f;
  e = e * u - 5.600641016e-04f;
  e = e * u + 2.797348890e-03f;
  e = e * u - 6.109302863e-03f;
  e = e * u + 8.622685447e-03f;
  e = e * u - 8.351715282e-03f;
  e = e * u + 5.445676390e-03f;
  e = e * u - 2.178188879e-03f;
  e = e * u + 4.069526622e-04f;  // erfc(2.5)
  const float big = bits_as_float(float_as_bits(1.0f - e) | sign);
  return select(ax < 1.0f, small, big);
}

C10_ALWAYS_INLINE double erf(double x) {
  return std::erf(x);
}

}  // namespace CPU_CAPABILITY
}  // namespace at::vec
