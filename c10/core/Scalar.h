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
#include <c10/util/overflows.h>

#include <cmath>
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

  // [marker: Scalar::to]
  // The value converted to T, refused with PyTorch's "value cannot be converted to type
  // float without overflow" when it does not fit (c10/util/overflows.h has the rules).
  template <typename T>
  T to() const {
    if constexpr (std::is_same_v<T, bool>) {
      return toBool();
    } else if constexpr (std::is_same_v<T, c10::complex<double>>) {
      return toComplexDouble();
    } else if constexpr (std::is_same_v<T, c10::complex<float>>) {
      return checked<c10::complex<float>>("c10::complex<float>");
    } else if constexpr (std::is_same_v<T, c10::complex<c10::Half>>) {
      return static_cast<T>(toComplexDouble());
    } else if constexpr (std::is_same_v<T, at::Half> || std::is_same_v<T, at::BFloat16>) {
      // Range-checked against the type's largest finite value; infinities and NaN pass.
      constexpr bool half = std::is_same_v<T, at::Half>;
      const double v = toDouble();
      TORCH_CHECK(!(std::abs(v) > (half ? 65504.0 : 3.38953138925153547590e38)) || std::isinf(v),
                  "value cannot be converted to type ", half ? "c10::Half" : "c10::BFloat16", " without overflow");
      return T(static_cast<float>(v));
    } else {
      return checked<T>(type_name<T>());
    }
  }
  // [end marker: Scalar::to]

  double toDouble() const { return checked<double>("double"); }
  int64_t toLong() const { return checked<int64_t>("int64_t"); }
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
  // The C++ spelling PyTorch's messages use for each type.
  template <typename T>
  static constexpr const char* type_name() {
    if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
    else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
    else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
    else if constexpr (std::is_same_v<T, int32_t>) return "int";
    else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
    else if constexpr (std::is_same_v<T, uint16_t>) return "uint16_t";
    else if constexpr (std::is_same_v<T, uint32_t>) return "uint32_t";
    else if constexpr (std::is_same_v<T, uint64_t>) return "uint64_t";
    else if constexpr (std::is_same_v<T, float>) return "float";
    else if constexpr (std::is_same_v<T, double>) return "double";
    else return "scalar";
  }
  template <typename T>
  T checked(const char* name) const {
    switch (tag) {
      case Tag::HAS_d: return c10::checked_convert<T, double>(v_.d, name);
      case Tag::HAS_z: return c10::checked_convert<T, c10::complex<double>>(v_.z, name);
      case Tag::HAS_b: return static_cast<T>(v_.i);
      default: return c10::checked_convert<T, int64_t>(v_.i, name);
    }
  }

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
