// Tests c10::complex<T> arithmetic and math functions with worked values (hand-computed).
// Mirrors PyTorch's c10/test/util/complex_test_common.h. Guide: docs/source/internals/tensor_iterator.rst.
#include <c10/util/Half.h>
#include <c10/util/complex.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

using c10::complex;

namespace {

constexpr double kPi = 3.14159265358979323846;

template <typename T>
void expectNear(complex<T> got, T re, T im, T tol) {
  EXPECT_NEAR(got.real(), re, tol) << got;
  EXPECT_NEAR(got.imag(), im, tol) << got;
}

TEST(ComplexTest, LayoutAndParts) {
  static_assert(sizeof(complex<float>) == 8 && alignof(complex<float>) == 8);
  static_assert(sizeof(complex<double>) == 16 && alignof(complex<double>) == 16);
  static_assert(sizeof(complex<c10::Half>) == 4);
  complex<double> z(1.5, -2.0);
  EXPECT_EQ(z.real(), 1.5);
  EXPECT_EQ(z.imag(), -2.0);
  z.real(3.0);
  z.imag(4.0);
  EXPECT_EQ(z, complex<double>(3.0, 4.0));
  EXPECT_EQ(complex<float>(2.0f), complex<float>(2.0f, 0.0f));  // from a real number
}

TEST(ComplexTest, ArithmeticWithComplex) {
  const complex<double> a(1, 2), b(3, -1);
  EXPECT_EQ(a + b, complex<double>(4, 1));
  EXPECT_EQ(a - b, complex<double>(-2, 3));
  // (1+2i)(3-i) = 3 - i + 6i - 2i^2 = 5 + 5i
  EXPECT_EQ(a * b, complex<double>(5, 5));
  // (1+2i)/(3-i) = (1+2i)(3+i)/10 = (1 + 7i)/10
  expectNear(a / b, 0.1, 0.7, 1e-15);
  EXPECT_EQ(-a, complex<double>(-1, -2));
  EXPECT_EQ(+a, a);
}

TEST(ComplexTest, ArithmeticWithRealOnEitherSide) {
  const complex<float> a(1, 2);
  EXPECT_EQ(a + 1.0f, complex<float>(2, 2));
  EXPECT_EQ(1.0f + a, complex<float>(2, 2));
  EXPECT_EQ(a - 1.0f, complex<float>(0, 2));
  EXPECT_EQ(1.0f - a, complex<float>(0, -2));
  EXPECT_EQ(a * 2.0f, complex<float>(2, 4));
  EXPECT_EQ(2.0f * a, complex<float>(2, 4));
  EXPECT_EQ(a / 2.0f, complex<float>(0.5f, 1.0f));
  // 5/(1+2i) = 5(1-2i)/5 = 1 - 2i
  expectNear(5.0f / a, 1.0f, -2.0f, 1e-6f);
}

TEST(ComplexTest, CompoundAssignment) {
  complex<double> z(1, 1);
  z += complex<double>(1, 2);
  EXPECT_EQ(z, complex<double>(2, 3));
  z -= complex<double>(0, 1);
  EXPECT_EQ(z, complex<double>(2, 2));
  z *= complex<double>(0, 1);  // multiply by i: rotate a quarter turn
  EXPECT_EQ(z, complex<double>(-2, 2));
  z /= complex<double>(0, 1);
  expectNear(z, 2.0, 2.0, 1e-15);
  z += 1.0;
  z -= 0.5;
  z *= 2.0;
  z /= 4.0;
  EXPECT_EQ(z, complex<double>(1.25, 1.0));
}

TEST(ComplexTest, DivisionDoesNotOverflow) {
  // The textbook formula would square 1e300 and get inf; (1e300+1e300i)/(1e300+1e300i) is 1.
  const complex<double> big(1e300, 1e300);
  expectNear(big / big, 1.0, 0.0, 1e-15);
  const complex<double> q = complex<double>(1, 1) / complex<double>(0, 0);
  EXPECT_TRUE(std::isinf(q.real()) || std::isnan(q.real()));
}

TEST(ComplexTest, Equality) {
  EXPECT_TRUE(complex<double>(1, 2) == complex<double>(1, 2));
  EXPECT_TRUE(complex<double>(1, 2) != complex<double>(1, -2));
  EXPECT_TRUE(complex<double>(3, 0) == 3.0);
  EXPECT_TRUE(3.0 == complex<double>(3, 0));
  EXPECT_TRUE(complex<double>(3, 1) != 3.0);
  EXPECT_TRUE(3.0 != complex<double>(3, 1));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(complex<double>(nan, 0) != complex<double>(nan, 0));
}

TEST(ComplexTest, Conversions) {
  const complex<float> f(1.5f, -0.25f);
  const complex<double> d = f;  // widening is implicit
  EXPECT_EQ(d, complex<double>(1.5, -0.25));
  const auto back = static_cast<complex<float>>(complex<double>(0.1, 0.2));  // narrowing is explicit
  EXPECT_EQ(back.real(), 0.1f);
  EXPECT_EQ(back.imag(), 0.2f);
  const auto h = static_cast<complex<c10::Half>>(f);
  EXPECT_EQ(static_cast<float>(h.real()), 1.5f);
  EXPECT_EQ(static_cast<float>(h.imag()), -0.25f);
  const complex<float> hf = h;
  EXPECT_EQ(hf, f);
  static_assert(std::is_convertible_v<complex<float>, complex<double>>);
  static_assert(!std::is_convertible_v<complex<double>, complex<float>>);
  EXPECT_TRUE(static_cast<bool>(complex<float>(0, 1)));
  EXPECT_FALSE(static_cast<bool>(complex<float>(0, 0)));
}

TEST(ComplexTest, AbsArgNormConjRealImag) {
  const complex<double> z(3, 4);
  EXPECT_EQ(std::abs(z), 5.0);
  EXPECT_EQ(std::norm(z), 25.0);
  EXPECT_EQ(std::conj(z), complex<double>(3, -4));
  EXPECT_EQ(std::real(z), 3.0);
  EXPECT_EQ(std::imag(z), 4.0);
  EXPECT_NEAR(std::arg(complex<double>(0, 1)), kPi / 2, 1e-15);
  EXPECT_NEAR(std::arg(complex<double>(-1, 0)), kPi, 1e-15);
  EXPECT_NEAR(std::arg(complex<double>(-1, -0.0)), -kPi, 1e-15);
  EXPECT_EQ(std::abs(complex<float>(-5, 12)), 13.0f);
  // abs does not overflow where re^2 + im^2 would
  EXPECT_NEAR(std::abs(complex<double>(3e200, 4e200)), 5e200, 1e186);
}

TEST(ComplexTest, ExpLogSqrtPow) {
  // e^(i pi) = -1 (Euler)
  expectNear(std::exp(complex<double>(0, kPi)), -1.0, 0.0, 1e-15);
  // log(-1) = i pi; log(i) = i pi/2
  expectNear(std::log(complex<double>(-1, 0)), 0.0, kPi, 1e-15);
  expectNear(std::log(complex<double>(0, 1)), 0.0, kPi / 2, 1e-15);
  // sqrt(-4) = 2i; sqrt(3+4i) = 2+i
  expectNear(std::sqrt(complex<double>(-4, 0)), 0.0, 2.0, 1e-15);
  expectNear(std::sqrt(complex<double>(3, 4)), 2.0, 1.0, 1e-15);
  // i^i = e^(-pi/2), a real number
  expectNear(std::pow(complex<double>(0, 1), complex<double>(0, 1)), std::exp(-kPi / 2), 0.0, 1e-15);
  // (1+i)^2 = 2i
  expectNear(std::pow(complex<double>(1, 1), 2.0), 0.0, 2.0, 1e-14);
  // 2^i = cos(ln 2) + i sin(ln 2)
  expectNear(std::pow(2.0, complex<double>(0, 1)), std::cos(std::log(2.0)), std::sin(std::log(2.0)), 1e-15);
  expectNear(std::exp(complex<float>(1, 0)), std::exp(1.0f), 0.0f, 1e-6f);
}

TEST(ComplexTest, Trigonometric) {
  const complex<double> z(1, 2);
  // sin(a+bi) = sin a cosh b + i cos a sinh b; cos(a+bi) = cos a cosh b - i sin a sinh b
  expectNear(std::sin(z), std::sin(1.0) * std::cosh(2.0), std::cos(1.0) * std::sinh(2.0), 1e-14);
  expectNear(std::cos(z), std::cos(1.0) * std::cosh(2.0), -std::sin(1.0) * std::sinh(2.0), 1e-14);
  const complex<double> t = std::tan(z);
  const complex<double> ratio = std::sin(z) / std::cos(z);
  expectNear(t, ratio.real(), ratio.imag(), 1e-14);
  // sinh(i x) = i sin x; cosh(i x) = cos x; tanh(i x) = i tan x
  expectNear(std::sinh(complex<double>(0, 0.5)), 0.0, std::sin(0.5), 1e-15);
  expectNear(std::cosh(complex<double>(0, 0.5)), std::cos(0.5), 0.0, 1e-15);
  expectNear(std::tanh(complex<double>(0, 0.5)), 0.0, std::tan(0.5), 1e-15);
}

TEST(ComplexTest, NanInfChecks) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(complex<double>(0, nan)));
  EXPECT_FALSE(std::isnan(complex<double>(0, inf)));
  EXPECT_TRUE(std::isinf(complex<double>(0, -inf)));
  EXPECT_FALSE(std::isfinite(complex<double>(inf, 0)));
  EXPECT_TRUE(std::isfinite(complex<double>(1, 2)));
}

TEST(ComplexTest, Printing) {
  std::ostringstream os;
  os << complex<double>(1, 2) << ' ' << complex<float>(-0.5f, 3);
  EXPECT_EQ(os.str(), "(1,2) (-0.5,3)");
}

}  // namespace
