// c10/util/generic_math.h - integer and floor division that every device computes the same
// way: the CPU kernels (aten/src/ATen/native/cpu/BinaryOpsKernel.cpp) and the CUDA ones
// (aten/src/ATen/native/cuda/BinaryDiv*Kernel.cu, BinaryRemainderKernel.cu, PowKernel.cu) call
// these, so the two give the same bits. Mirrors PyTorch's c10/util/generic_math.h
// (div_floor_floating, div_floor_integer) and the powi of aten/src/ATen/native/Pow.h.
// Guide: docs/source/internals/hardening.rst.
#pragma once

#include <c10/macros/Macros.h>

#include <cmath>
#include <type_traits>

namespace c10 {

// a / b and a % b for integers, defined for every pair: INT_MIN / -1 overflows, which C++
// leaves undefined and x86 traps (SIGFPE, the end of the interpreter). PyTorch's result wraps
// around: INT_MIN / -1 == INT_MIN, INT_MIN % -1 == 0. A zero divisor gives 0: the CPU kernels
// raise "ZeroDivisionError" before they get here, and a CUDA kernel cannot raise (PyTorch's
// leave it to the hardware; the simulated device runs on the host CPU, where x / 0 traps).
template <typename scalar_t>
C10_HOST_DEVICE inline scalar_t int_div(scalar_t a, scalar_t b) {
  if (b == 0) {
    return 0;
  }
  if constexpr (std::is_signed_v<scalar_t>) {
    if (b == -1) {
      using unsigned_t = std::make_unsigned_t<scalar_t>;
      return static_cast<scalar_t>(unsigned_t(0) - static_cast<unsigned_t>(a));
    }
  }
  return a / b;
}

template <typename scalar_t>
C10_HOST_DEVICE inline scalar_t int_mod(scalar_t a, scalar_t b) {
  if (b == 0) {
    return 0;
  }
  if constexpr (std::is_signed_v<scalar_t>) {
    if (b == -1) {
      return 0;
    }
  }
  return a % b;
}

// Python's % for integers: the remainder takes the divisor's sign.
template <typename scalar_t>
C10_HOST_DEVICE inline scalar_t remainder_integer(scalar_t a, scalar_t b) {
  scalar_t r = int_mod(a, b);
  if constexpr (std::is_signed_v<scalar_t>) {
    if ((r != 0) && ((r < 0) != (b < 0))) {
      r += b;
    }
  }
  return r;
}

// Python's //: rounds toward negative infinity.
template <typename scalar_t>
C10_HOST_DEVICE inline scalar_t div_floor_integer(scalar_t a, scalar_t b) {
  if constexpr (std::is_signed_v<scalar_t>) {
    if (b != 0 && (a < 0) != (b < 0)) {
      // Truncation rounded toward zero, i.e. up: step down if the division was inexact.
      const scalar_t quot = int_div(a, b);
      const scalar_t rem = int_mod(a, b);
      return rem ? static_cast<scalar_t>(quot - 1) : quot;
    }
  }
  return int_div(a, b);
}

// Floor division of floating values, computed from fmod rather than floor(a / b), whose
// rounding can be off by one.
template <typename scalar_t>
C10_HOST_DEVICE inline scalar_t div_floor_floating(scalar_t a, scalar_t b) {
  if (b == 0) {
    return a / b;  // IEEE: inf, -inf or nan
  }
  const scalar_t mod = std::fmod(a, b);
  scalar_t div = (a - mod) / b;
  if ((mod != 0) && (b < 0) != (mod < 0)) {
    div -= scalar_t(1);
  }
  scalar_t floordiv;
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > scalar_t(0.5)) {
      floordiv += scalar_t(1.0);
    }
  } else {
    floordiv = std::copysign(scalar_t(0), a / b);
  }
  return floordiv;
}

// Integer power by squaring. A negative exponent gives 0 except for bases 1 and -1 (the
// integer part of 1/a^n), as PyTorch does for tensor exponents.
template <typename T>
C10_HOST_DEVICE inline T powi(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) {
      if (a == 1) {
        return 1;
      }
      if (a == -1) {
        return (-b) % 2 ? -1 : 1;
      }
      return 0;
    }
  }
  T result = 1;
  while (b) {
    if (b & 1) {
      result *= a;
    }
    b /= 2;
    a *= a;
  }
  return result;
}

}  // namespace c10
