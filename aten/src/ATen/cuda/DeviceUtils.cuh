// aten/src/ATen/cuda/DeviceUtils.cuh - WARP_SHFL_DOWN for every dtype a kernel accumulates in:
// CUDA's __shfl_down_sync moves 32- and 64-bit numbers, so bool and small integers travel as
// int, Half and BFloat16 as float, and a complex number as its two parts. Mirrors PyTorch's
// aten/src/ATen/cuda/DeviceUtils.cuh. Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <ATen/native/cpu/TypeCast.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <c10/util/complex.h>

#include <type_traits>

// [marker: WARP_SHFL_DOWN]
template <typename T>
__device__ __forceinline__ T WARP_SHFL_DOWN(T value, unsigned int delta, int width = 32,
                                            unsigned int mask = 0xffffffff) {
  if constexpr (std::is_same_v<T, bool> || (std::is_integral_v<T> && sizeof(T) < sizeof(int))) {
    return static_cast<T>(__shfl_down_sync(mask, static_cast<int>(value), delta, width));
  } else if constexpr (std::is_same_v<T, c10::Half> || std::is_same_v<T, c10::BFloat16>) {
    return T(__shfl_down_sync(mask, static_cast<float>(value), delta, width));
  } else if constexpr (c10::is_complex_t<T>::value) {
    return T(WARP_SHFL_DOWN(value.real(), delta, width, mask), WARP_SHFL_DOWN(value.imag(), delta, width, mask));
  } else {
    return __shfl_down_sync(mask, value, delta, width);
  }
}
// [end marker: WARP_SHFL_DOWN]
