// c10/util/complex.h - c10::complex<T>, the element type of complex32/64/128 tensors, and its
// arithmetic. Mirrors PyTorch's c10/util/complex.h (+ complex_math.h, complex_utils.h).
// Guide: docs/source/internals/tensors.rst, docs/source/internals/tensor_iterator.rst.
//
// PyTorch keeps its own complex type (not std::complex) so that the same type works in
// CUDA kernels; its layout is two T's, real first, aligned to their combined size.
//
// What a kernel needs from it: + - * / between complex values and with real values of the
// same T on either side, the compound assignments, == and !=, conversions between
// complex<float>, complex<double> and complex<Half>, and the math functions (std::abs, exp,
// log, sqrt, pow, sin, ...), which PyTorch makes visible as std:: overloads so that a kernel
// written `std::exp(a)` compiles for float and for c10::complex<float> alike. The functions
// compute through std::complex in host code and through thrust::complex when nvcc compiles
// (device code has no std::complex), as PyTorch's complex_math.h does; the simulated CUDA
// device compiles .cu files with the host compiler, so its kernels take the std:: path.
#pragma once

#include <c10/macros/Macros.h>

#include <cmath>
#include <complex>
#include <ostream>
#include <type_traits>

#if defined(__CUDACC__)
#include <thrust/complex.h>
#endif

namespace c10 {

template <typename T>
struct alignas(sizeof(T) * 2) complex {
  using value_type = T;

  T real_ = T(0);
  T imag_ = T(0);

  constexpr complex() = default;
  // From a real number (imaginary part 0) or from two parts.
  C10_HOST_DEVICE constexpr complex(const T& re, const T& im = T()) : real_(re), imag_(im) {}

  // Between element types: widening (complex<float> -> complex<double>, complex<Half> ->
  // complex<float>) is implicit; narrowing must be written out (static_cast), as in PyTorch.
  template <typename U,
            std::enable_if_t<!std::is_same_v<U, T> && (sizeof(U) < sizeof(T)), int> = 0>
  constexpr complex(const complex<U>& other)
      : real_(static_cast<T>(static_cast<float>(other.real()))), imag_(static_cast<T>(static_cast<float>(other.imag()))) {}
  template <typename U,
            std::enable_if_t<!std::is_same_v<U, T> && (sizeof(U) >= sizeof(T)), int> = 0>
  explicit constexpr complex(const complex<U>& other) : real_(narrow(other.real())), imag_(narrow(other.imag())) {}

  // From and to std::complex (the math functions below go through it).
  template <typename U>
  explicit constexpr complex(const std::complex<U>& z) : real_(static_cast<T>(z.real())), imag_(static_cast<T>(z.imag())) {}
  template <typename U>
  explicit operator std::complex<U>() const {
    return std::complex<U>(static_cast<U>(real_), static_cast<U>(imag_));
  }

  constexpr T real() const { return real_; }
  constexpr T imag() const { return imag_; }
  constexpr void real(T value) { real_ = value; }
  constexpr void imag(T value) { imag_ = value; }

  // Nonzero in either part (if (z), static_cast<bool>(z)).
  explicit constexpr operator bool() const { return real() != T(0) || imag() != T(0); }

  // ---- compound assignment, with a complex or a real right-hand side ----
  constexpr complex& operator=(T re) {
    real_ = re;
    imag_ = T(0);
    return *this;
  }
  constexpr complex& operator+=(T re) {
    real_ += re;
    return *this;
  }
  constexpr complex& operator-=(T re) {
    real_ -= re;
    return *this;
  }
  constexpr complex& operator*=(T re) {
    real_ *= re;
    imag_ *= re;
    return *this;
  }
  constexpr complex& operator/=(T re) {
    real_ /= re;
    imag_ /= re;
    return *this;
  }
  template <typename U>
  constexpr complex& operator+=(const complex<U>& rhs) {
    real_ += rhs.real();
    imag_ += rhs.imag();
    return *this;
  }
  template <typename U>
  constexpr complex& operator-=(const complex<U>& rhs) {
    real_ -= rhs.real();
    imag_ -= rhs.imag();
    return *this;
  }
  // (a + bi)(c + di) = (ac - bd) + (ad + bc)i
  template <typename U>
  constexpr complex& operator*=(const complex<U>& rhs) {
    const T a = real_, b = imag_;
    const T c = rhs.real(), d = rhs.imag();
    real_ = a * c - b * d;
    imag_ = a * d + b * c;
    return *this;
  }
  // (a + bi)/(c + di), scaled by the divisor's larger part first (Smith's method, as
  // PyTorch does): the textbook (a+bi)(c-di)/(c^2+d^2) overflows for |c|, |d| > ~1e154.
  template <typename U>
  constexpr complex& operator/=(const complex<U>& rhs) {
    const T a = real_, b = imag_;
    const T c = rhs.real(), d = rhs.imag();
    const T abs_c = c < T(0) ? -c : c;
    const T abs_d = d < T(0) ? -d : d;
    if (abs_c >= abs_d) {
      if (abs_c == T(0) && abs_d == T(0)) {
        // Division by zero: the IEEE quotients of each part (inf or nan), as PyTorch gives.
        real_ = a / abs_c;
        imag_ = b / abs_d;
      } else {
        const T rat = d / c;
        const T scl = T(1.0) / (c + d * rat);
        real_ = (a + b * rat) * scl;
        imag_ = (b - a * rat) * scl;
      }
    } else {
      const T rat = c / d;
      const T scl = T(1.0) / (d + c * rat);
      real_ = (a * rat + b) * scl;
      imag_ = (b * rat - a) * scl;
    }
    return *this;
  }

 private:
  template <typename U>
  static constexpr T narrow(U v) {
    if constexpr (std::is_floating_point_v<U> && std::is_floating_point_v<T>) {
      return static_cast<T>(v);
    } else {
      return static_cast<T>(static_cast<float>(v));  // Half goes through float
    }
  }
};

// ---- binary operators ----------------------------------------------------------------------

template <typename T>
constexpr complex<T> operator+(const complex<T>& z) {
  return z;
}
template <typename T>
constexpr complex<T> operator-(const complex<T>& z) {
  return complex<T>(-z.real(), -z.imag());
}

#define C10_COMPLEX_BINARY_OP(op)                                             \
  template <typename T>                                                       \
  constexpr complex<T> operator op(const complex<T>& lhs, const complex<T>& rhs) { \
    complex<T> result = lhs;                                                  \
    return result op## = rhs;                                                 \
  }                                                                           \
  template <typename T>                                                       \
  constexpr complex<T> operator op(const complex<T>& lhs, const T& rhs) {     \
    complex<T> result = lhs;                                                  \
    return result op## = rhs;                                                 \
  }                                                                           \
  template <typename T>                                                       \
  constexpr complex<T> operator op(const T& lhs, const complex<T>& rhs) {     \
    complex<T> result = lhs;                                                  \
    return result op## = rhs;                                                 \
  }
C10_COMPLEX_BINARY_OP(+)
C10_COMPLEX_BINARY_OP(-)
C10_COMPLEX_BINARY_OP(*)
C10_COMPLEX_BINARY_OP(/)
#undef C10_COMPLEX_BINARY_OP

template <typename T>
constexpr bool operator==(const complex<T>& lhs, const complex<T>& rhs) {
  return lhs.real() == rhs.real() && lhs.imag() == rhs.imag();
}
template <typename T>
constexpr bool operator==(const complex<T>& lhs, const T& rhs) {
  return lhs.real() == rhs && lhs.imag() == T(0);
}
template <typename T>
constexpr bool operator==(const T& lhs, const complex<T>& rhs) {
  return rhs == lhs;
}
template <typename T>
constexpr bool operator!=(const complex<T>& lhs, const complex<T>& rhs) {
  return !(lhs == rhs);
}
template <typename T>
constexpr bool operator!=(const complex<T>& lhs, const T& rhs) {
  return !(lhs == rhs);
}
template <typename T>
constexpr bool operator!=(const T& lhs, const complex<T>& rhs) {
  return !(lhs == rhs);
}

// Printed as std::complex prints: (1,2).
template <typename T>
std::ostream& operator<<(std::ostream& os, const complex<T>& z) {
  return os << '(' << z.real() << ',' << z.imag() << ')';
}

// The PyTorch aliases: c10::complex<float> is what a complex64 tensor stores.
template <typename T>
struct is_complex : std::false_type {};
template <typename T>
struct is_complex<complex<T>> : std::true_type {};
template <typename T>
struct is_complex<std::complex<T>> : std::true_type {};

// The real type of a (possibly complex) scalar type: float for complex<float>, T otherwise.
template <typename T>
struct scalar_value_type {
  using type = T;
};
template <typename T>
struct scalar_value_type<complex<T>> {
  using type = T;
};

}  // namespace c10

// ---- math functions (PyTorch's complex_math.h) ------------------------------------------------
// Defined in their own namespace and brought into std:: by using-declarations, so std::exp(z)
// picks them by overload resolution next to std::exp(float).
namespace c10_complex_math {

// The library complex type the functions compute with: thrust's under nvcc, std's elsewhere.
#if defined(__CUDACC__)
template <typename T>
using lib_complex = thrust::complex<T>;
namespace lib = thrust;
#else
template <typename T>
using lib_complex = std::complex<T>;
namespace lib = std;
#endif

template <typename T>
C10_HOST_DEVICE inline lib_complex<T> to_std(const c10::complex<T>& z) {
  return lib_complex<T>(z.real(), z.imag());
}
template <typename T>
C10_HOST_DEVICE inline c10::complex<T> from_std(const lib_complex<T>& z) {
  return c10::complex<T>(z.real(), z.imag());
}

template <typename T>
constexpr T real(const c10::complex<T>& z) {
  return z.real();
}
template <typename T>
constexpr T imag(const c10::complex<T>& z) {
  return z.imag();
}
// |z|, computed without overflow (hypot).
template <typename T>
C10_HOST_DEVICE inline T abs(const c10::complex<T>& z) {
  return lib::abs(to_std(z));
}
// The angle of z in (-pi, pi].
template <typename T>
C10_HOST_DEVICE inline T arg(const c10::complex<T>& z) {
  return std::atan2(z.imag(), z.real());
}
// |z|^2 (the "field norm", as std::norm).
template <typename T>
constexpr T norm(const c10::complex<T>& z) {
  return z.real() * z.real() + z.imag() * z.imag();
}
template <typename T>
constexpr c10::complex<T> conj(const c10::complex<T>& z) {
  return c10::complex<T>(z.real(), -z.imag());
}
template <typename T>
C10_HOST_DEVICE inline c10::complex<T> polar(const T& r, const T& theta = T()) {
  return from_std(lib::polar(r, theta));
}

#define C10_COMPLEX_UNARY_FN(name)                                  \
  template <typename T>                                             \
  C10_HOST_DEVICE inline c10::complex<T> name(const c10::complex<T>& z) { \
    return from_std(lib::name(to_std(z)));                          \
  }
C10_COMPLEX_UNARY_FN(exp)
C10_COMPLEX_UNARY_FN(log)
C10_COMPLEX_UNARY_FN(log10)
C10_COMPLEX_UNARY_FN(sqrt)
C10_COMPLEX_UNARY_FN(sin)
C10_COMPLEX_UNARY_FN(cos)
C10_COMPLEX_UNARY_FN(tan)
C10_COMPLEX_UNARY_FN(sinh)
C10_COMPLEX_UNARY_FN(cosh)
C10_COMPLEX_UNARY_FN(tanh)
C10_COMPLEX_UNARY_FN(asin)
C10_COMPLEX_UNARY_FN(acos)
C10_COMPLEX_UNARY_FN(atan)
#undef C10_COMPLEX_UNARY_FN

// z ** w (principal branch) with complex or real base and exponent.
template <typename T>
C10_HOST_DEVICE inline c10::complex<T> pow(const c10::complex<T>& base, const c10::complex<T>& exponent) {
  return from_std(lib::pow(to_std(base), to_std(exponent)));
}
template <typename T>
C10_HOST_DEVICE inline c10::complex<T> pow(const c10::complex<T>& base, const T& exponent) {
  return from_std(lib::pow(to_std(base), exponent));
}
template <typename T>
C10_HOST_DEVICE inline c10::complex<T> pow(const T& base, const c10::complex<T>& exponent) {
  return from_std(lib::pow(base, to_std(exponent)));
}

// NaN or infinity in either part.
template <typename T>
inline bool isnan(const c10::complex<T>& z) {
  return std::isnan(z.real()) || std::isnan(z.imag());
}
template <typename T>
inline bool isinf(const c10::complex<T>& z) {
  return std::isinf(z.real()) || std::isinf(z.imag());
}
template <typename T>
inline bool isfinite(const c10::complex<T>& z) {
  return std::isfinite(z.real()) && std::isfinite(z.imag());
}

}  // namespace c10_complex_math

namespace std {
using c10_complex_math::abs;
using c10_complex_math::acos;
using c10_complex_math::arg;
using c10_complex_math::asin;
using c10_complex_math::atan;
using c10_complex_math::conj;
using c10_complex_math::cos;
using c10_complex_math::cosh;
using c10_complex_math::exp;
using c10_complex_math::imag;
using c10_complex_math::isfinite;
using c10_complex_math::isinf;
using c10_complex_math::isnan;
using c10_complex_math::log;
using c10_complex_math::log10;
using c10_complex_math::norm;
using c10_complex_math::pow;
using c10_complex_math::real;
using c10_complex_math::sin;
using c10_complex_math::sinh;
using c10_complex_math::sqrt;
using c10_complex_math::tan;
using c10_complex_math::tanh;
}  // namespace std
