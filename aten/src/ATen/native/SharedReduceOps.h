// aten/src/ATen/native/SharedReduceOps.h - what the CPU and CUDA max/min reductions share: which
// of two values wins (NaN propagates) and the accumulator of an empty range. Compiled into both
// cpu/ReduceOpsKernel.cpp and cuda/ReduceMinMaxKernel.cu, so the two break ties and NaNs alike.
// Mirrors PyTorch's aten/src/ATen/native/SharedReduceOps.h (its LessOrNan, GreaterOrNan).
// Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <ATen/NumericUtils.h>
#include <c10/macros/Macros.h>

#include <limits>
#include <type_traits>

namespace at::native {

// b beats a for max: b is NaN (NaN propagates), or b is larger (smaller for min); never when
// a is already NaN.
template <bool is_max, typename T>
C10_HOST_DEVICE inline bool beats(T a, T b) {
  if (_isnan(a)) return false;
  if (_isnan(b)) return true;
  return is_max ? (b > a) : (b < a);
}

// The identity of max (-inf for floats, the lowest value for integers, false for bool), and
// the reverse for min.
template <typename acc_t, bool is_max>
C10_HOST_DEVICE inline acc_t lower_bound_init() {
  if constexpr (std::is_same_v<acc_t, bool>) {
    return !is_max;
  } else if constexpr (std::is_floating_point_v<acc_t>) {
    return is_max ? -std::numeric_limits<acc_t>::infinity() : std::numeric_limits<acc_t>::infinity();
  } else {
    return is_max ? std::numeric_limits<acc_t>::lowest() : std::numeric_limits<acc_t>::max();
  }
}

}  // namespace at::native
