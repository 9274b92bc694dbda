// aten/src/ATen/native/cpu/TypeCast.h - c10::convert<To>(from): one element from one dtype to
// another, as PyTorch converts (complex -> real keeps the real part; float -> uint8 goes
// through int64 so negative values wrap as on x86 rather than being undefined behaviour).
// Mirrors PyTorch's c10/util/TypeCast.h (kept in ATen here, since c10 belongs to another layer's
// owner). Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <c10/macros/Macros.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <c10/util/complex.h>

#include <cstdint>
#include <type_traits>

namespace c10 {

template <typename T>
struct is_complex_t : std::false_type {};
template <typename T>
struct is_complex_t<c10::complex<T>> : std::true_type {};

// C10_HOST_DEVICE: CUDA kernels convert with it too (aten/src/ATen/native/cuda/TypeCast.cuh).
template <typename To, typename From>
C10_HOST_DEVICE inline To convert(From f) {
  if constexpr (std::is_same_v<To, From>) {
    return f;
  } else if constexpr (is_complex_t<From>::value && is_complex_t<To>::value) {
    using V = typename To::value_type;
    return To(static_cast<V>(static_cast<float>(f.real())), static_cast<V>(static_cast<float>(f.imag())));
  } else if constexpr (is_complex_t<From>::value) {
    if constexpr (std::is_same_v<To, bool>) {
      return static_cast<float>(f.real()) != 0 || static_cast<float>(f.imag()) != 0;
    } else {
      return convert<To>(f.real());
    }
  } else if constexpr (is_complex_t<To>::value) {
    using V = typename To::value_type;
    if constexpr (std::is_same_v<V, c10::Half>) {
      return To(c10::Half(static_cast<float>(f)), c10::Half(0.0f));
    } else {
      return To(static_cast<V>(f), V(0));
    }
  } else if constexpr (std::is_same_v<To, uint8_t> && !std::is_integral_v<From>) {
    return static_cast<uint8_t>(static_cast<int64_t>(static_cast<double>(f)));
  } else if constexpr (std::is_same_v<To, c10::Half> || std::is_same_v<To, c10::BFloat16>) {
    return To(static_cast<float>(f));
  } else if constexpr (std::is_same_v<From, c10::Half> || std::is_same_v<From, c10::BFloat16>) {
    return static_cast<To>(static_cast<float>(f));
  } else {
    return static_cast<To>(f);
  }
}

}  // namespace c10
