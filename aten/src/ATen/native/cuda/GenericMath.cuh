// aten/src/ATen/native/cuda/GenericMath.cuh - integer division and modulo that are defined for
// every divisor, and Python's floor division and remainder, for the CUDA kernels of
// div(rounding_mode=...), floor_divide, remainder and fmod. Mirrors PyTorch's
// c10/util/generic_math.h (div_floor_floating, div_floor_integer) and the integer helpers of
// this tree's cpu/BinaryOpsKernel.cpp, whose results they reproduce.
// Guide: docs/source/internals/cuda_simulated_device.rst.
//
// The CPU kernels check `b != 0` and raise "ZeroDivisionError"; a kernel cannot raise, so here a
// zero divisor gives 0 (PyTorch's CUDA kernels leave it to the hardware, whose answer differs by
// dtype and GPU). The guard is not optional: the simulated device runs these divisions on the host
// CPU, where x / 0 and INT_MIN / -1 trap (SIGFPE) and would end the process.
#pragma once

#include <cmath>
#include <type_traits>

namespace at::native::cuda_math {

// a / b rounded toward zero; INT_MIN / -1 wraps to INT_MIN, as on the CPU.
template <typename scalar_t>
__host__ __device__ inline scalar_t int_div(scalar_t a, scalar_t b) {
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

// a % b with the dividend's sign (C's %); x % -1 == 0 for every x.
template <typename scalar_t>
__host__ __device__ inline scalar_t int_mod(scalar_t a, scalar_t b) {
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
__host__ __device__ inline scalar_t remainder_integer(scalar_t a, scalar_t b) {
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
__host__ __device__ inline scalar_t div_floor_integer(scalar_t a, scalar_t b) {
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
// rounding can be off by one; the same steps as the CPU kernel, so the same bits.
template <typename scalar_t>
__host__ __device__ inline scalar_t div_floor_floating(scalar_t a, scalar_t b) {
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

}  // namespace at::native::cuda_math
