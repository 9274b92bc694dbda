// c10/util/overflows.h - does a number fit in a C++ type? (checked_convert for Scalars).
// Mirrors PyTorch's c10/util/TypeSafeSignMath.h + the `overflows`/`checked_convert` pair of
// c10/util/TypeCast.h. Guide: docs/source/internals/hardening.rst.
//
// torch.full((2,), 1e308) must not quietly become inf in float32, nor arange(3).fill_(inf)
// INT64_MIN: a Python number handed to a kernel of a narrower type is checked here first.
// PyTorch's rules: an infinity or NaN fits a floating type; a finite value must be inside
// [lowest, max]; a negative integer fits an unsigned type if its magnitude does (-1 -> 255,
// two's complement), while -300 does not; a complex number fits a real type only with a zero
// imaginary part.
#pragma once

#include <c10/util/Exception.h>
#include <c10/util/complex.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace c10 {

// True if the value `f` cannot be represented in To.
template <typename To, typename From>
bool overflows(From f) {
  using limit = std::numeric_limits<typename scalar_value_type<To>::type>;
  if constexpr (std::is_same_v<To, bool>) {
    return false;  // any number converts to bool (nonzero is true)
  } else if constexpr (std::is_same_v<From, bool>) {
    return false;
  } else if constexpr (std::is_integral_v<From>) {
    if constexpr (!limit::is_signed && std::numeric_limits<From>::is_signed) {
      // Negative numbers wrap as two's complement while their magnitude fits.
      if (f < 0) {
        return -static_cast<uint64_t>(f) > static_cast<uint64_t>(limit::max());
      }
      return static_cast<uint64_t>(f) > static_cast<uint64_t>(limit::max());
    } else if constexpr (std::is_integral_v<typename scalar_value_type<To>::type>) {
      // long double holds every int64 exactly on the platforms this tree builds for.
      return static_cast<long double>(f) < static_cast<long double>(limit::lowest()) ||
             static_cast<long double>(f) > static_cast<long double>(limit::max());
    } else {
      return false;  // every int64 is inside a floating type's range
    }
  } else if constexpr (std::is_floating_point_v<From>) {
    if (limit::has_infinity && std::isinf(f)) {
      return false;
    }
    if (!limit::has_quiet_NaN && std::isnan(f)) {
      return true;
    }
    return static_cast<long double>(f) < static_cast<long double>(limit::lowest()) ||
           static_cast<long double>(f) > static_cast<long double>(limit::max());
  } else {
    // From is complex.
    if constexpr (!std::is_same_v<To, c10::complex<float>> && !std::is_same_v<To, c10::complex<double>>) {
      if (f.imag() != 0) {
        return true;
      }
      return overflows<To>(f.real());
    } else {
      return overflows<typename scalar_value_type<To>::type>(f.real()) ||
             overflows<typename scalar_value_type<To>::type>(f.imag());
    }
  }
}

// f as To, or PyTorch's error naming the C++ type.
template <typename To, typename From>
To checked_convert(From f, const char* name) {
  const bool overflowed = overflows<To, From>(f);
  TORCH_CHECK(!overflowed, "value cannot be converted to type ", name, " without overflow");
  if constexpr (std::is_same_v<To, bool>) {
    return f != From(0);
  } else if constexpr (c10::is_complex<From>::value && !c10::is_complex<To>::value) {
    return static_cast<To>(f.real());
  } else {
    return static_cast<To>(f);
  }
}

}  // namespace c10
