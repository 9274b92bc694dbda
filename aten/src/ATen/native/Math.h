// aten/src/ATen/native/Math.h - element functions that the CPU and the CUDA kernels share, so
// the two compute the same values: nan_to_num's replacement, log1p of a complex number. Mirrors PyTorch's
// aten/src/ATen/native/Math.h, its home for host-and-device math.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <ATen/OpMathType.h>
#include <c10/macros/Macros.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <c10/util/complex.h>

#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

namespace at::native {

// std::numeric_limits knows nothing of Half/BFloat16 here: their largest finite values.
template <typename T>
T largest_finite() {
  if constexpr (std::is_same_v<T, c10::Half>) {
    return T(65504.0f);
  } else if constexpr (std::is_same_v<T, c10::BFloat16>) {
    return T(3.38953139e38f);
  } else {
    return std::numeric_limits<T>::max();
  }
}

// What nan_to_num writes for NaN, +inf and -inf: the given values in the tensor's dtype, or
// 0 and the dtype's largest finite values. Computed once, on the host.
template <typename scalar_t>
struct NanToNumReplacements {
  scalar_t nan;
  scalar_t pos_inf;
  scalar_t neg_inf;
};

template <typename scalar_t>
NanToNumReplacements<scalar_t> nan_to_num_replacements(std::optional<double> nan, std::optional<double> pos_inf,
                                                       std::optional<double> neg_inf) {
  const double largest = static_cast<double>(largest_finite<scalar_t>());
  return {static_cast<scalar_t>(nan.value_or(0.)), static_cast<scalar_t>(pos_inf.value_or(largest)),
          static_cast<scalar_t>(neg_inf.value_or(-largest))};
}

// The test is made in opmath (float for Half/BFloat16, double for double): a double of 1e300
// is finite, though it would be inf as a float.
template <typename scalar_t>
C10_HOST_DEVICE inline scalar_t nan_to_num_value(scalar_t a, const NanToNumReplacements<scalar_t>& r) {
  const at::opmath_type<scalar_t> v = a;
  if (v != v) {
    return r.nan;
  }
  if (v == std::numeric_limits<decltype(v)>::infinity()) {
    return r.pos_inf;
  }
  if (v == -std::numeric_limits<decltype(v)>::infinity()) {
    return r.neg_inf;
  }
  return a;
}

// log1p of a complex number, accurate near 0 where log(1 + z) would lose z to rounding:
// with 1 + z = r e^(i theta), log1p(z) = log(r) + i theta, and for |z| < 1/2
// log(r) = log1p(x (2 + x) + y^2) / 2. PyTorch's c10/util/complex_math.h log1p.
template <typename T>
C10_HOST_DEVICE c10::complex<T> complex_log1p(const c10::complex<T>& z) {
  const T x = z.real(), y = z.imag();
  const T theta = std::atan2(y, x + T(1));
  if (std::abs(z) < T(0.5)) {
    const T r = x * (T(2) + x) + y * y;
    if (r == 0) {
      return {x, theta};  // underflow: log1p(x) ~ x
    }
    return {T(0.5) * std::log1p(r), theta};
  }
  return {std::log(std::hypot(x + T(1), y)), theta};
}

// log1p for real and complex types alike (the CPU's and the CUDA kernels' expression).
template <typename T>
C10_HOST_DEVICE T log1p_any(const T& a) {
  if constexpr (c10::is_complex<T>::value) {
    return complex_log1p(a);
  } else {
    return std::log1p(a);
  }
}

}  // namespace at::native
