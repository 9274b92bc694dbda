// aten/src/ATen/native/cpu/UnaryOpsKernel.cpp - the CPU loops of the unary operators.
// Mirrors PyTorch's aten/src/ATen/native/cpu/UnaryOpsKernel.cpp. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/cpu/vec/vec_math.h>
#include <ATen/native/Math.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cpu/Loops.h>

#include <cmath>
#include <limits>
#include <type_traits>

namespace at::native {
namespace {

// Floating dtypes only (integer inputs were promoted by unary_float_op); `a` is the value in
// opmath (float for Half/BFloat16).
#define FLOATING_UNARY_KERNEL(name, expr)                                                        \
  void name##_kernel(TensorIteratorBase& iter) {                                                 \
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), #name "_cpu", [&] {   \
      using opmath_t = opmath_type<scalar_t>;                                                    \
      cpu_kernel_vec(iter, [](scalar_t a_) -> scalar_t {                                             \
        const opmath_t a = a_;                                                                   \
        return expr;                                                                             \
      });                                                                                        \
    });                                                                                          \
  }

// The same for floating and complex dtypes: for complex64/complex128 `a` is a
// c10::complex<float/double>, and std::exp etc. are its overloads in c10/util/complex.h.
// (PyTorch computes exp, log, sqrt, ... with its "vml" kernels, and their dtype errors say so:
// '"exp_vml_cpu" not implemented for 'ComplexHalf''; `label` is that name.)
#define FLOATING_AND_COMPLEX_UNARY_KERNEL_LABELED(name, label, expr)                                 \
  void name##_kernel(TensorIteratorBase& iter) {                                                     \
    AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), label, [&] {   \
      using opmath_t = opmath_type<scalar_t>;                                                        \
      cpu_kernel_vec(iter, [](scalar_t a_) -> scalar_t {                                             \
        const opmath_t a = a_;                                                                       \
        return expr;                                                                                 \
      });                                                                                            \
    });                                                                                              \
  }

#define FLOATING_AND_COMPLEX_UNARY_KERNEL(name, expr) FLOATING_AND_COMPLEX_UNARY_KERNEL_LABELED(name, #name "_cpu", expr)
#define VML_UNARY_KERNEL(name, expr) FLOATING_AND_COMPLEX_UNARY_KERNEL_LABELED(name, #name "_vml_cpu", expr)

// exp, tanh, sigmoid and erf of float (and of Half and BFloat16, computed in float) are
// at::vec's (cpu/vec/vec_math.h): arithmetic the compiler evaluates 8 lanes at a time, as
// PyTorch evaluates Vectorized<float>::exp etc., where std::exp is one libm call per element.
// double and complex keep libm's and c10::complex's functions. Forced inline, as at::vec's are:
// a call per element would leave the loop scalar.
template <typename T>
C10_ALWAYS_INLINE T exp_impl(T a) {
  if constexpr (std::is_same_v<T, float>) {
    return at::vec::exp(a);
  } else {
    return std::exp(a);
  }
}
template <typename T>
C10_ALWAYS_INLINE T tanh_impl(T a) {
  if constexpr (std::is_same_v<T, float>) {
    return at::vec::tanh(a);
  } else {
    return std::tanh(a);
  }
}
template <typename T>
C10_ALWAYS_INLINE T sigmoid_impl(T a) {
  if constexpr (std::is_same_v<T, float>) {
    return at::vec::sigmoid(a);
  } else {
    return T(1) / (T(1) + std::exp(-a));
  }
}
template <typename T>
C10_ALWAYS_INLINE T erf_impl(T a) {
  if constexpr (std::is_same_v<T, float>) {
    return at::vec::erf(a);
  } else {
    return std::erf(a);
  }
}

VML_UNARY_KERNEL(exp, exp_impl(a))
VML_UNARY_KERNEL(log, std::log(a))

VML_UNARY_KERNEL(log1p, log1p_any(a))
VML_UNARY_KERNEL(sqrt, std::sqrt(a))
FLOATING_AND_COMPLEX_UNARY_KERNEL(rsqrt, opmath_t(1) / std::sqrt(a))
VML_UNARY_KERNEL(sin, std::sin(a))
VML_UNARY_KERNEL(cos, std::cos(a))
VML_UNARY_KERNEL(tan, std::tan(a))
VML_UNARY_KERNEL(tanh, tanh_impl(a))
FLOATING_AND_COMPLEX_UNARY_KERNEL(sigmoid, sigmoid_impl(a))
FLOATING_UNARY_KERNEL(erf, erf_impl(a))
FLOATING_AND_COMPLEX_UNARY_KERNEL(reciprocal, opmath_t(1) / a)

// Integer and floating dtypes, no bool.
#define ALL_UNARY_KERNEL(name, dispatch_name, expr)                                                \
  void name##_kernel(TensorIteratorBase& iter) {                                                   \
    AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), dispatch_name, [&] {         \
      using opmath_t = opmath_type<scalar_t>;                                                      \
      cpu_kernel_vec(iter, [](scalar_t a_) -> scalar_t {                                               \
        const opmath_t a = a_;                                                                     \
        return expr;                                                                               \
      });                                                                                          \
    });                                                                                            \
  }

// complex32 (torch.chalf) is computed in complex<float>, rounded once.
using chalf_t = c10::complex<c10::Half>;
using cfloat_t = c10::complex<float>;

void neg_kernel(TensorIteratorBase& iter) {
  if (iter.common_dtype() == kComplexHalf) {
    cpu_kernel(iter, [](chalf_t a) -> chalf_t { return chalf_t(-cfloat_t(a)); });
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16, iter.common_dtype(), "neg_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel_vec(iter, [](scalar_t a) -> scalar_t { return -static_cast<opmath_t>(a); });
  });
}

// abs of a complex tensor is real (|3+4j| = 5, a float32 for complex64): the iterator
// (UnaryOps.cpp) reads the complex input and writes the real output, so the lambda's types
// differ, as PyTorch's abs_kernel for complex does.
void abs_kernel(TensorIteratorBase& iter) {
  const ScalarType in_dtype = iter.input_dtype();
  if (in_dtype == kComplexHalf && iter.dtype(0) == kHalf) {
    cpu_kernel(iter, [](chalf_t a) -> c10::Half { return c10::Half(std::abs(cfloat_t(a))); });
    return;
  }
  if (isComplexType(in_dtype)) {
    AT_DISPATCH_COMPLEX_TYPES(in_dtype, "abs_cpu", [&] {
      using real_t = typename scalar_t::value_type;
      if (isComplexType(iter.dtype(0))) {
        cpu_kernel(iter, [](scalar_t a) -> scalar_t { return scalar_t(std::abs(a)); });
      } else {
        cpu_kernel(iter, [](scalar_t a) -> real_t { return std::abs(a); });
      }
    });
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "abs_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel_vec(iter, [](scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return a < 0 ? -a : a;
    });
  });
}
// floor/ceil/round/trunc of an integer is the integer itself.
#define ROUNDING_EXPR(fn) [&] { if constexpr (std::is_integral_v<opmath_t>) { return a; } else { return fn(a); } }()
ALL_UNARY_KERNEL(floor, "floor_cpu", ROUNDING_EXPR(std::floor))
ALL_UNARY_KERNEL(ceil, "ceil_cpu", ROUNDING_EXPR(std::ceil))
ALL_UNARY_KERNEL(trunc, "trunc_cpu", ROUNDING_EXPR(std::trunc))
// nearbyint rounds half to even in the default rounding mode: round(2.5) == 2, as in PyTorch.
ALL_UNARY_KERNEL(round, "round_cpu", ROUNDING_EXPR(std::nearbyint))

void sign_kernel(TensorIteratorBase& iter) {
  if (iter.common_dtype() == kBool) {
    cpu_kernel_vec(iter, [](bool a) -> bool { return a; });
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "sign_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel_vec(iter, [](scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<opmath_t>((opmath_t(0) < a) - (a < opmath_t(0)));
    });
  });
}

// sgn(z) = z / |z| (0 at 0) for complex tensors; real dtypes go to sign_kernel (UnaryOps.cpp).
void sgn_kernel(TensorIteratorBase& iter) {
  if (iter.common_dtype() == kComplexHalf) {
    cpu_kernel(iter, [](chalf_t z_) -> chalf_t {
      const cfloat_t z(z_);
      const float r = std::abs(z);
      return r == 0 ? chalf_t(cfloat_t(0)) : chalf_t(z / cfloat_t(r));
    });
    return;
  }
  AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "sgn_cpu", [&] {
    cpu_kernel(iter, [](scalar_t z) -> scalar_t {
      const auto r = std::abs(z);
      return r == 0 ? scalar_t(0) : z / scalar_t(r);
    });
  });
}

// angle: arg(z) for complex (a real result, as abs); for real x, pi if x < 0 else 0, NaN
// kept (integers were promoted to the default float dtype by the iterator).
void angle_kernel(TensorIteratorBase& iter) {
  const ScalarType in_dtype = iter.input_dtype();
  if (isComplexType(in_dtype)) {
    AT_DISPATCH_COMPLEX_TYPES(in_dtype, "angle_cpu", [&] {
      using real_t = typename scalar_t::value_type;
      cpu_kernel(iter, [](scalar_t z) -> real_t { return std::arg(z); });
    });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "angle_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel(iter, [](scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      if (std::isnan(a)) {
        return a_;
      }
      return a < 0 ? static_cast<opmath_t>(M_PI) : opmath_t(0);
    });
  });
}

void round_decimals_kernel(TensorIteratorBase& iter, int64_t decimals) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "round_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    bool neg_flag = false;
    if (decimals < 0) {
      decimals = -decimals;
      neg_flag = true;
    }
    const opmath_t ten_pow_decimals = static_cast<opmath_t>(std::pow(10, decimals));
    cpu_kernel_vec(iter, [ten_pow_decimals, neg_flag](scalar_t a) -> scalar_t {
      return neg_flag ? std::nearbyint(static_cast<opmath_t>(a) / ten_pow_decimals) * ten_pow_decimals
                      : std::nearbyint(static_cast<opmath_t>(a) * ten_pow_decimals) / ten_pow_decimals;
    });
  });
}

void bitwise_not_kernel(TensorIteratorBase& iter) {
  if (iter.dtype() == kBool) {
    cpu_kernel_vec(iter, [](bool a) -> bool { return !a; });
    return;
  }
  AT_DISPATCH_INTEGRAL_TYPES(iter.dtype(), "bitwise_not_cpu", [&] {
    cpu_kernel_vec(iter, [](scalar_t a) -> scalar_t { return ~a; });
  });
}

// Input and output dtypes both free: dispatch on each.
void logical_not_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, iter.dtype(1), "logical_not_cpu", [&] {
    using self_t = scalar_t;
    AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, iter.dtype(0), "logical_not_cpu", [&] {
      cpu_kernel_vec(iter, [](self_t a) -> scalar_t { return static_cast<scalar_t>(!static_cast<bool>(a)); });
    });
  });
}

void nan_to_num_kernel(TensorIteratorBase& iter, std::optional<double> nan, std::optional<double> pos_inf,
                       std::optional<double> neg_inf) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.dtype(), "nan_to_num", [&] {
    const auto replacements = nan_to_num_replacements<scalar_t>(nan, pos_inf, neg_inf);
    cpu_kernel_vec(iter, [=](scalar_t a) -> scalar_t { return nan_to_num_value(a, replacements); });
  });
}

// ---- frac, expm1, exp2, logit, signbit ----

FLOATING_UNARY_KERNEL(frac, a - std::trunc(a))

// e^z - 1 for complex z = x + iy, without the cancellation of exp(z) - 1 near 0:
// real part e^x cos y - 1 = expm1(x) cos y - 2 sin^2(y / 2), imaginary part e^x sin y.
template <typename T>
T expm1_impl(T a) {
  return std::expm1(a);
}
template <typename T>
c10::complex<T> expm1_impl(c10::complex<T> z) {
  const T x = z.real(), y = z.imag();
  const T half_sin = std::sin(y / 2);
  return c10::complex<T>(std::expm1(x) * std::cos(y) - 2 * half_sin * half_sin, std::exp(x) * std::sin(y));
}
// 2^z; complex: e^(z ln 2) (there is no complex std::exp2).
template <typename T>
T exp2_impl(T a) {
  return std::exp2(a);
}
template <typename T>
c10::complex<T> exp2_impl(c10::complex<T> z) {
  const T ln2 = static_cast<T>(M_LN2);
  return std::exp(c10::complex<T>(ln2 * z.real(), ln2 * z.imag()));
}
VML_UNARY_KERNEL(expm1, expm1_impl(a))
FLOATING_AND_COMPLEX_UNARY_KERNEL(exp2, exp2_impl(a))

void logit_kernel(TensorIteratorBase& iter, const Scalar& eps_scalar) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "logit_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    const opmath_t eps = eps_scalar.to<opmath_t>();
    if (eps < opmath_t(0)) {
      cpu_kernel(iter, [](scalar_t x_) -> scalar_t {
        const opmath_t x = x_;
        return x == opmath_t(1) ? std::numeric_limits<opmath_t>::infinity() : std::log(x / (opmath_t(1) - x));
      });
    } else {
      // the bounds are rounded to the dtype first, as in PyTorch (in float16, 1 - 1e-6 is 1)
      const opmath_t lo = static_cast<scalar_t>(eps), hi = static_cast<scalar_t>(opmath_t(1) - opmath_t(lo));
      cpu_kernel(iter, [lo, hi](scalar_t x_) -> scalar_t {
        opmath_t x = x_;
        x = x < lo ? lo : (x > hi ? hi : x);  // a NaN compares false and stays NaN
        return x == opmath_t(1) ? std::numeric_limits<opmath_t>::infinity() : std::log(x / (opmath_t(1) - x));
      });
    }
  });
}

// Kept out of line: GCC 12 at -O3 stops with an internal compiler error when it vectorises
// std::signbit of floats inside the loop. The double keeps every sign (of -0.0 and -NaN too).
C10_NOINLINE bool signbit_of(double x) {
  return std::signbit(x);
}

// The dtype switch is over the input's dtype; the output is bool.
void signbit_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.input_dtype(), "signbit_cpu", [&] {
    cpu_kernel(iter, [](scalar_t a) -> bool { return signbit_of(static_cast<double>(a)); });
  });
}

}  // namespace

REGISTER_DISPATCH(frac_stub, &frac_kernel);
REGISTER_DISPATCH(expm1_stub, &expm1_kernel);
REGISTER_DISPATCH(exp2_stub, &exp2_kernel);
REGISTER_DISPATCH(logit_stub, &logit_kernel);
REGISTER_DISPATCH(signbit_stub, &signbit_kernel);
REGISTER_DISPATCH(exp_stub, &exp_kernel);
REGISTER_DISPATCH(log_stub, &log_kernel);
REGISTER_DISPATCH(log1p_stub, &log1p_kernel);
REGISTER_DISPATCH(sqrt_stub, &sqrt_kernel);
REGISTER_DISPATCH(rsqrt_stub, &rsqrt_kernel);
REGISTER_DISPATCH(sin_stub, &sin_kernel);
REGISTER_DISPATCH(cos_stub, &cos_kernel);
REGISTER_DISPATCH(tan_stub, &tan_kernel);
REGISTER_DISPATCH(tanh_stub, &tanh_kernel);
REGISTER_DISPATCH(sigmoid_stub, &sigmoid_kernel);
REGISTER_DISPATCH(erf_stub, &erf_kernel);
REGISTER_DISPATCH(reciprocal_stub, &reciprocal_kernel);
REGISTER_DISPATCH(neg_stub, &neg_kernel);
REGISTER_DISPATCH(abs_stub, &abs_kernel);
REGISTER_DISPATCH(floor_stub, &floor_kernel);
REGISTER_DISPATCH(ceil_stub, &ceil_kernel);
REGISTER_DISPATCH(trunc_stub, &trunc_kernel);
REGISTER_DISPATCH(round_stub, &round_kernel);
REGISTER_DISPATCH(sign_stub, &sign_kernel);
REGISTER_DISPATCH(sgn_stub, &sgn_kernel);
REGISTER_DISPATCH(angle_stub, &angle_kernel);
REGISTER_DISPATCH(round_decimals_stub, &round_decimals_kernel);
REGISTER_DISPATCH(bitwise_not_stub, &bitwise_not_kernel);
REGISTER_DISPATCH(logical_not_stub, &logical_not_kernel);
REGISTER_DISPATCH(nan_to_num_stub, &nan_to_num_kernel);

}  // namespace at::native
