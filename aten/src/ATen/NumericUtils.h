// aten/src/ATen/NumericUtils.h - at::_isnan for every dtype a kernel meets, on the host and on
// the device: integers and bool are never NaN. Mirrors PyTorch's aten/src/ATen/NumericUtils.h.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <c10/macros/Macros.h>

#include <type_traits>

namespace at {

// A template, so that integer dtypes drop the test (x != x on an integer makes compilers warn
// about a self-comparison). NaN is the one value not equal to itself.
template <typename T>
C10_HOST_DEVICE inline bool _isnan(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return v != v;
  } else {
    return false;
  }
}

}  // namespace at
