// c10/util/complex.h - c10::complex<T>, the element type of complex32/64/128 tensors.
// Mirrors PyTorch's c10/util/complex.h. Guide: docs/source/internals/tensors.rst.
//
// PyTorch keeps its own complex type (not std::complex) so that the same type works in
// CUDA kernels; its layout is two T's, real first, aligned to their combined size.
#pragma once

#include <c10/macros/Macros.h>

namespace c10 {

template <typename T>
struct alignas(sizeof(T) * 2) complex {
  using value_type = T;

  T real_ = T(0);
  T imag_ = T(0);

  constexpr complex() = default;
  C10_HOST_DEVICE constexpr complex(const T& re, const T& im = T()) : real_(re), imag_(im) {}

  constexpr T real() const { return real_; }
  constexpr T imag() const { return imag_; }
};

}  // namespace c10
