// c10/core/Scalar.h - a number of any dtype, as operators take it (add(x, 2), alpha=1.5).
// Mirrors PyTorch's c10/core/Scalar.h. Guide: docs/source/internals/dispatch.rst.
//
// A Scalar remembers which kind of number it holds (double, int64, bool, complex): type
// promotion treats a Python 2 and a Python 2.0 differently (int32 tensor + 2 stays int32,
// + 2.0 becomes float32), so the kind is part of the value.
#pragma once

#include <c10/core/ScalarType.h>
#include <c10/util/Exception.h>
#include <c10/util/complex.h>

#include <cstdint>
#include <ostream>
#include <type_traits>

namespace c10 {

class C10_API Scalar {
 public:
  Scalar() : Scalar(int64_t(0)) {}

  // Any floating type (double, float, Half, BFloat16) is held as a double.
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : tag(Tag::HAS_d) {
    v_.d = static_cast<double>(v);
  }
  Scalar(at::Half v) : Scalar(static_cast<double>(static_cast<float>(v))) {}
  Scalar(at::BFloat16 v) : Scalar(static_cast<double>(static_cast<float>(v))) {}
  // Any integral type except bool is held as an int64.
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : tag(Tag::HAS_i) {
    v_.i = static_cast<int64_t>(v);
  }
  template <typename T, std::enable_if_t<std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : tag(Tag::HAS_b) {
    v_.i = v;
  }
  template <typename T>
  Scalar(c10::complex<T> v) : tag(Tag::HAS_z) {
    v_.z = c10::complex<double>(static_cast<double>(v.real()), static_cast<double>(v.imag()));
  }

  bool isFloatingPoint() const { return tag == Tag::HAS_d; }
  bool isIntegral(bool includeBool) const { return tag == Tag::HAS_i || (includeBool && isBoolean()); }
  bool isBoolean() const { return tag == Tag::HAS_b; }
  bool isComplex() const { return tag == Tag::HAS_z; }

  // The dtype a 0-d tensor made from this number would have: Double, Long, Bool, ComplexDouble.
  ScalarType type() const {
    switch (tag) {
      case Tag::HAS_d: return ScalarType::Double;
      case Tag::HAS_i: return ScalarType::Long;
      case Tag::HAS_b: return ScalarType::Bool;
      case Tag::HAS_z: return ScalarType::ComplexDouble;
    }
    return ScalarType::Undefined;
  }

  // The value converted to T (C++ conversion rules; Half/BFloat16 through float).
  template <typename T>
  T to() const {
    if constexpr (std::is_same_v<T, bool>) {
      return toBool();
    } else if constexpr (std::is_same_v<T, c10::complex<float>> || std::is_same_v<T, c10::complex<double>> ||
                         std::is_same_v<T, c10::complex<c10::Half>>) {
      // complex<double> keeps every bit; complex<float>/<Half> narrow (c10/util/complex.h).
      return static_cast<T>(toComplexDouble());
    } else if constexpr (std::is_same_v<T, at::Half> || std::is_same_v<T, at::BFloat16>) {
      return T(static_cast<float>(toDouble()));
    } else if constexpr (std::is_floating_point_v<T>) {
      return static_cast<T>(toDouble());
    } else {
      return tag == Tag::HAS_d ? static_cast<T>(v_.d) : static_cast<T>(toLong());
    }
  }

  double toDouble() const {
    switch (tag) {
      case Tag::HAS_d: return v_.d;
      case Tag::HAS_z: return v_.z.real();
      default: return static_cast<double>(v_.i);
    }
  }
  int64_t toLong() const {
    switch (tag) {
      case Tag::HAS_d: return static_cast<int64_t>(v_.d);
      case Tag::HAS_z: return static_cast<int64_t>(v_.z.real());
      default: return v_.i;
    }
  }
  bool toBool() const {
    switch (tag) {
      case Tag::HAS_d: return v_.d != 0;
      case Tag::HAS_z: return v_.z.real() != 0 || v_.z.imag() != 0;
      default: return v_.i != 0;
    }
  }
  c10::complex<double> toComplexDouble() const {
    return tag == Tag::HAS_z ? v_.z : c10::complex<double>(toDouble(), 0.0);
  }

  bool equal(const Scalar& other) const;

 private:
  enum class Tag { HAS_d, HAS_i, HAS_b, HAS_z };
  Tag tag;
  union v_t {
    double d;
    int64_t i;
    c10::complex<double> z;
    v_t() : i(0) {}
  } v_;
};

C10_API std::ostream& operator<<(std::ostream& out, const Scalar& s);

}  // namespace c10

namespace at {
using c10::Scalar;
}
