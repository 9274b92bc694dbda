// aten/src/ATen/core/DistributionsHelper.h - turning the engine's random bits into numbers.
// Mirrors PyTorch's aten/src/ATen/core/DistributionsHelper.h (and TransformationHelper.h).
// Guide: docs/source/internals/one_call.rst.
//
// The recipes are PyTorch's, bit for bit, so torch.manual_seed(0); torch.rand(3) gives the
// same numbers here as in PyTorch:
//   uniform float  = (32 random bits & (2^24 - 1)) * 2^-24, scaled to [from, to) by one fma
//   uniform double = (64 random bits & (2^53 - 1)) * 2^-53, scaled to [from, to)
//   normal         = Box-Muller on two uniform doubles; the sin half is cached for the next call
//   integer in [base, base + range) = random bits % range + base
#pragma once

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/OpMathType.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace at {

// The random bits a uniform number of type T is made from: float keeps 24 (its mantissa),
// double 53 (from a 64-bit draw); half and bfloat16 are drawn as floats and rounded.
template <typename T> struct uniform_digits { static constexpr int value = std::numeric_limits<T>::digits; };
template <> struct uniform_digits<c10::Half> { static constexpr int value = 24; };
template <> struct uniform_digits<c10::BFloat16> { static constexpr int value = 24; };

namespace transformation {

// (val & (2^digits - 1)) * 2^-digits lies in [0, 1); then scaled to [from, to).
template <typename T, typename V>
at::opmath_type<T> uniform_real(V val, at::opmath_type<T> from, at::opmath_type<T> to) {
  using acc_t = at::opmath_type<T>;
  constexpr int digits = uniform_digits<T>::value;
  constexpr auto MASK = static_cast<V>((static_cast<uint64_t>(1) << digits) - 1);
  constexpr auto DIVISOR = static_cast<acc_t>(1) / static_cast<acc_t>(static_cast<uint64_t>(1) << digits);
  const acc_t x = static_cast<acc_t>(val & MASK) * DIVISOR;
  // One rounding for x * (to - from) + from: PyTorch's x86 kernels are compiled with FMA
  // enabled and the compiler fuses this multiply-add.
  return std::fma(x, to - from, from);
}

template <typename V>
int64_t uniform_int_from_to(V val, uint64_t range, int64_t base) {
  return static_cast<int64_t>(static_cast<uint64_t>(val) % range + static_cast<uint64_t>(base));
}

}  // namespace transformation

// A uniform number in [from, to): double from 64 random bits, the others from 32.
template <typename T>
struct uniform_real_distribution {
  using acc_t = at::opmath_type<T>;
  uniform_real_distribution(acc_t from, acc_t to) : from_(from), to_(to) {}
  acc_t operator()(CPUGeneratorImpl* generator) const {
    if constexpr (std::is_same_v<T, double>) {
      return transformation::uniform_real<T>(generator->random64(), from_, to_);
    } else {
      return transformation::uniform_real<T>(generator->random(), from_, to_);
    }
  }

 private:
  acc_t from_, to_;
};

// A normal number (Box-Muller). Each pair of uniforms gives two normals; the second is
// kept on the generator and returned by the next call.
struct normal_distribution {
  normal_distribution(double mean, double stdv) : mean_(mean), stdv_(stdv) {}
  double operator()(CPUGeneratorImpl* generator) const {
    if (auto cached = generator->next_double_normal_sample()) {
      generator->set_next_double_normal_sample(std::nullopt);
      return std::fma(*cached, stdv_, mean_);
    }
    uniform_real_distribution<double> uniform(0.0, 1.0);
    const double u1 = uniform(generator);
    const double u2 = uniform(generator);
    const double r = std::sqrt(-2.0 * std::log1p(-u2));
    const double theta = 2.0 * M_PI * u1;
    generator->set_next_double_normal_sample(r * std::sin(theta));
    return std::fma(r * std::cos(theta), stdv_, mean_);
  }

 private:
  double mean_, stdv_;
};

}  // namespace at
