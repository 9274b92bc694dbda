// c10/core/Scalar.cpp - printing and comparing Scalars.
// Mirrors PyTorch's c10/core/Scalar.cpp. Guide: docs/source/internals/dispatch.rst.
#include <c10/core/Scalar.h>

namespace c10 {

bool Scalar::equal(const Scalar& other) const {
  if (isComplex() || other.isComplex()) {
    const auto a = toComplexDouble(), b = other.toComplexDouble();
    return a.real() == b.real() && a.imag() == b.imag();
  }
  if (isFloatingPoint() || other.isFloatingPoint()) {
    return toDouble() == other.toDouble();
  }
  return toLong() == other.toLong();
}

std::ostream& operator<<(std::ostream& out, const Scalar& s) {
  if (s.isFloatingPoint()) return out << s.toDouble();
  if (s.isBoolean()) return out << (s.toBool() ? "true" : "false");
  if (s.isComplex()) {
    const auto z = s.toComplexDouble();
    return out << "(" << z.real() << "," << z.imag() << ")";
  }
  return out << s.toLong();
}

}  // namespace c10
