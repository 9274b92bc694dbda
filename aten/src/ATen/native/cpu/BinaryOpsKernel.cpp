// aten/src/ATen/native/cpu/BinaryOpsKernel.cpp - the CPU loops of the binary operators: one
// lambda per operator and dtype, run by cpu_kernel. Mirrors PyTorch's
// aten/src/ATen/native/cpu/BinaryOpsKernel.cpp (and PowKernel.cpp). Guide: docs/source/internals/one_call.rst.
//
// The dtype switch (AT_DISPATCH_*) is over iter.common_dtype(): TensorIterator has already
// converted every input to it, so `scalar_t` is the type of every operand (comparisons
// excepted: their output may be bool). Which AT_DISPATCH_* a kernel uses is the list of
// dtypes it supports; any other dtype is PyTorch's '"bitwise_and_cpu" not implemented for 'Float''.
// Half and BFloat16 compute in float (opmath_t) and round once when stored.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cpu/Loops.h>
#include <ATen/native/cpu/fmadd.h>
#include <c10/util/generic_math.h>

#include <cmath>
#include <limits>
#include <type_traits>

namespace at::native {
namespace {

// complex32 (torch.chalf): PyTorch's CPU kernels take it only in add, sub and mul (and in
// the ops that move bytes: copy, cat, where, indexing); the arithmetic is done in
// complex<float> and rounded once, as for Half.
using chalf_t = c10::complex<c10::Half>;
using cfloat_t = c10::complex<float>;

// [marker: add_kernel]
void add_kernel(TensorIteratorBase& iter, const Scalar& alpha_scalar) {
  if (iter.common_dtype() == kComplexHalf) {
    const auto alpha = static_cast<cfloat_t>(alpha_scalar.toComplexDouble());
    cpu_kernel(iter, [alpha](chalf_t a, chalf_t b) -> chalf_t {
      return chalf_t(cfloat_t(a) + alpha * cfloat_t(b));
    });
    return;
  }
  if (iter.common_dtype() == kBool) {
    // bool + bool is "or" (PyTorch stores any nonzero sum as true).
    const bool alpha = alpha_scalar.to<bool>();
    cpu_kernel_vec(iter, [alpha](bool a, bool b) -> bool { return a || (alpha && b); });
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16, iter.common_dtype(), "add_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    const auto alpha = alpha_scalar.to<opmath_t>();
    if (alpha == opmath_t(1)) {
      cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t { return static_cast<opmath_t>(a) + static_cast<opmath_t>(b); });
    } else {
      cpu_kernel_vec(iter, [alpha](scalar_t a, scalar_t b) -> scalar_t {
        return fmadd<opmath_t>(alpha, static_cast<opmath_t>(b), static_cast<opmath_t>(a));  // a + alpha * b, one rounding
      });
    }
  });
}
// [end marker: add_kernel]

// One product. A bool product is a logical and, as in PyTorch's mul_kernel for kBool; a
// template, so that the arithmetic branch is never compiled for bool.
template <typename scalar_t, typename opmath_t>
C10_ALWAYS_INLINE scalar_t mul_value(scalar_t a, scalar_t b) {
  if constexpr (std::is_same_v<scalar_t, bool>) {
    return a && b;
  } else {
    return static_cast<opmath_t>(a) * static_cast<opmath_t>(b);
  }
}

void mul_kernel(TensorIteratorBase& iter) {
  if (iter.common_dtype() == kComplexHalf) {
    cpu_kernel(iter, [](chalf_t a, chalf_t b) -> chalf_t { return chalf_t(cfloat_t(a) * cfloat_t(b)); });
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.common_dtype(), "mul_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t { return mul_value<scalar_t, opmath_t>(a, b); });
  });
}

void div_true_kernel(TensorIteratorBase& iter) {
  // True division of complex numbers: c10::complex's operator/ (scaled, no overflow).
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "div_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t { return static_cast<opmath_t>(a) / static_cast<opmath_t>(b); });
  });
}

// Integer division, floor division and powi: c10/util/generic_math.h, shared with the CUDA kernels.
using c10::div_floor_floating;
using c10::div_floor_integer;
using c10::int_div;
using c10::int_mod;
using c10::powi;
using c10::remainder_integer;

void div_trunc_kernel(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "div_trunc_cpu", [&] {
      cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        TORCH_CHECK(b != 0, "ZeroDivisionError");
        return int_div(a, b);
      });
    });
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "div_trunc_cpu", [&] {
      using opmath_t = opmath_type<scalar_t>;
      cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        return std::trunc(static_cast<opmath_t>(a) / static_cast<opmath_t>(b));
      });
    });
  }
}

void div_floor_kernel(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "div_floor_cpu", [&] {
      cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        TORCH_CHECK(b != 0, "ZeroDivisionError");
        return div_floor_integer(a, b);
      });
    });
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "div_floor_cpu", [&] {
      using opmath_t = opmath_type<scalar_t>;
      cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        return div_floor_floating<opmath_t>(a, b);
      });
    });
  }
}

// Python's %: the result has the divisor's sign.
void remainder_kernel(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "remainder_cpu", [&] {
      cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        TORCH_CHECK(b != 0, "ZeroDivisionError");
        return remainder_integer(a, b);
      });
    });
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "remainder_cpu", [&] {
      using opmath_t = opmath_type<scalar_t>;
      cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        opmath_t mod = std::fmod(static_cast<opmath_t>(a), static_cast<opmath_t>(b));
        if ((mod != 0) && ((b < 0) != (mod < 0))) {
          mod += static_cast<opmath_t>(b);
        }
        return mod;
      });
    });
  }
}

// C's fmod: the result has the dividend's sign.
void fmod_kernel(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "fmod_cpu", [&] {
      cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        TORCH_CHECK(b != 0, "ZeroDivisionError");
        return int_mod(a, b);
      });
    });
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "fmod_cpu", [&] {
      using opmath_t = opmath_type<scalar_t>;
      cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        return std::fmod(static_cast<opmath_t>(a), static_cast<opmath_t>(b));
      });
    });
  }
}

// mse_loss's elementwise part, (a - b)^2; Loss.cpp reduces it.
void mse_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "mse_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
      const opmath_t diff = static_cast<opmath_t>(a) - static_cast<opmath_t>(b);
      return diff * diff;
    });
  });
}

// [marker: sigmoid_backward_kernel]
// grad * (1 - y) * y and grad * (1 - y^2); for complex y the derivative is conjugated, as
// PyTorch's autograd takes gradients of complex functions (grad * conj(f'(z))).
void sigmoid_backward_kernel(TensorIteratorBase& iter) {
  if (isComplexType(iter.common_dtype())) {
    AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "sigmoid_backward_cpu", [&] {
      cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t { return a * std::conj((scalar_t(1) - b) * b); });
    });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "sigmoid_backward_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t {
      const opmath_t y = static_cast<opmath_t>(b);
      return static_cast<opmath_t>(a) * ((opmath_t(1) - y) * y);
    });
  });
}

void tanh_backward_kernel(TensorIteratorBase& iter) {
  if (isComplexType(iter.common_dtype())) {
    AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "tanh_backward_cpu", [&] {
      cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t { return a * std::conj(scalar_t(1) - b * b); });
    });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "tanh_backward_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t {
      const opmath_t y = static_cast<opmath_t>(b);
      return static_cast<opmath_t>(a) * (opmath_t(1) - y * y);
    });
  });
}
// [end marker: sigmoid_backward_kernel]

void atan2_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "atan2_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t {
      return std::atan2(static_cast<opmath_t>(a), static_cast<opmath_t>(b));
    });
  });
}

// maximum/minimum propagate NaN (unlike std::max, whose answer depends on argument order).
void maximum_kernel(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (dtype == kBool) {
    cpu_kernel_vec(iter, [](bool a, bool b) -> bool { return a || b; });
  } else if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "maximum_cpu", [&] {
      cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t { return std::max(a, b); });
    });
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "maximum_cpu", [&] {
      using opmath_t = opmath_type<scalar_t>;
      cpu_kernel_vec(iter, [](scalar_t a_, scalar_t b_) -> scalar_t {
        const opmath_t a = a_, b = b_;
        if (a != a || b != b) {
          return std::numeric_limits<opmath_t>::quiet_NaN();
        }
        return std::max(a, b);
      });
    });
  }
}

void minimum_kernel(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (dtype == kBool) {
    cpu_kernel_vec(iter, [](bool a, bool b) -> bool { return a && b; });
  } else if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "minimum_cpu", [&] {
      cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t { return std::min(a, b); });
    });
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "minimum_cpu", [&] {
      using opmath_t = opmath_type<scalar_t>;
      cpu_kernel_vec(iter, [](scalar_t a_, scalar_t b_) -> scalar_t {
        const opmath_t a = a_, b = b_;
        if (a != a || b != b) {
          return std::numeric_limits<opmath_t>::quiet_NaN();
        }
        return std::min(a, b);
      });
    });
  }
}

// Bitwise operators: integers and bool only.
#define BITWISE_KERNEL(name, op)                                                          \
  void name##_kernel(TensorIteratorBase& iter) {                                          \
    AT_DISPATCH_SWITCH(iter.common_dtype(), #name "_cpu",                                 \
                       AT_DISPATCH_CASE_INTEGRAL_TYPES([&] {                              \
                         cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t { return a op b; }); \
                       }) AT_DISPATCH_CASE(kBool, [&] {                                   \
                         cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t { return a op b; }); \
                       }));                                                               \
  }
BITWISE_KERNEL(bitwise_and, &)
BITWISE_KERNEL(bitwise_or, |)
BITWISE_KERNEL(bitwise_xor, ^)

// Comparisons and logical operators read the common dtype and write bool - or, for an out=
// of another dtype, the common dtype (TensorIterator then casts it to out).
//
// Complex numbers are unordered: lt/le/gt/ge leave them out of their dtype list, so they
// raise PyTorch's '"lt_cpu" not implemented for 'ComplexFloat''; eq/ne and the logical
// operators (a complex number is true when either part is nonzero) take them.
#define COMPARISON_KERNEL_BODY(DISPATCH, fn, name, expr)                                               \
  void fn(TensorIteratorBase& iter) {                                                                  \
    DISPATCH(kBool, kHalf, kBFloat16, iter.common_dtype(), #name "_cpu", [&] {                          \
      if (iter.dtype(0) == kBool) {                                                                    \
        cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> bool { return expr; });                         \
      } else {                                                                                         \
        cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t { return static_cast<scalar_t>(expr); }); \
      }                                                                                                \
    });                                                                                                \
  }
#define COMPARISON_KERNEL(name, expr) \
  COMPARISON_KERNEL_BODY(AT_DISPATCH_ALL_TYPES_AND3, name##_kernel, name, expr)
#define COMPARISON_KERNEL_WITH_COMPLEX(name, expr) \
  COMPARISON_KERNEL_BODY(AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3, name##_kernel, name, expr)
COMPARISON_KERNEL(lt, a < b)
COMPARISON_KERNEL(le, a <= b)
COMPARISON_KERNEL(gt, a > b)
COMPARISON_KERNEL(ge, a >= b)
COMPARISON_KERNEL_BODY(AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3, eq_other_kernel, eq, a == b)
COMPARISON_KERNEL_BODY(AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3, ne_other_kernel, ne, a != b)
// eq and ne also take complex32, compared exactly (bool output only).
void eq_kernel(TensorIteratorBase& iter) {
  if (iter.common_dtype() == kComplexHalf && iter.dtype(0) == kBool) {
    cpu_kernel(iter, [](chalf_t a, chalf_t b) -> bool { return cfloat_t(a) == cfloat_t(b); });
    return;
  }
  eq_other_kernel(iter);
}
void ne_kernel(TensorIteratorBase& iter) {
  if (iter.common_dtype() == kComplexHalf && iter.dtype(0) == kBool) {
    cpu_kernel(iter, [](chalf_t a, chalf_t b) -> bool { return cfloat_t(a) != cfloat_t(b); });
    return;
  }
  ne_other_kernel(iter);
}
COMPARISON_KERNEL_WITH_COMPLEX(logical_and, static_cast<bool>(a) && static_cast<bool>(b))
COMPARISON_KERNEL_WITH_COMPLEX(logical_or, static_cast<bool>(a) || static_cast<bool>(b))
COMPARISON_KERNEL_WITH_COMPLEX(logical_xor, static_cast<bool>(a) != static_cast<bool>(b))

// ---- pow (PyTorch: cpu/PowKernel.cpp) ----

void pow_tensor_tensor_kernel(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "pow", [&] {
      cpu_kernel_vec(iter, [](scalar_t base, scalar_t exp) -> scalar_t { return powi(base, exp); });
    });
  } else {
    // Complex: the principal value exp(exp * log(base)) (std::pow overload in c10/util/complex.h).
    AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, dtype, "pow", [&] {
      using opmath_t = opmath_type<scalar_t>;
      cpu_kernel_vec(iter, [](scalar_t base, scalar_t exp) -> scalar_t {
        return std::pow(static_cast<opmath_t>(base), static_cast<opmath_t>(exp));
      });
    });
  }
}

void pow_tensor_scalar_kernel(TensorIteratorBase& iter, const Scalar& exp_scalar) {
  const auto dtype = iter.common_dtype();
  if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "pow", [&] {
      const auto exp = exp_scalar.to<scalar_t>();
      cpu_kernel_vec(iter, [exp](scalar_t base) -> scalar_t { return powi(base, exp); });
    });
    return;
  }
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, dtype, "pow", [&] {
    using opmath_t = opmath_type<scalar_t>;
    const auto exp = exp_scalar.to<opmath_t>();
    // The common exponents get exact, fast forms (PyTorch does the same).
    if (exp == opmath_t(2)) {
      cpu_kernel_vec(iter, [](scalar_t base) -> scalar_t { return static_cast<opmath_t>(base) * static_cast<opmath_t>(base); });
    } else if (exp == opmath_t(0.5)) {
      cpu_kernel_vec(iter, [](scalar_t base) -> scalar_t { return std::sqrt(static_cast<opmath_t>(base)); });
    } else if (exp == opmath_t(-1)) {
      cpu_kernel_vec(iter, [](scalar_t base) -> scalar_t { return opmath_t(1) / static_cast<opmath_t>(base); });
    } else {
      cpu_kernel_vec(iter, [exp](scalar_t base) -> scalar_t { return std::pow(static_cast<opmath_t>(base), exp); });
    }
  });
}

// ---- copysign, gcd, lcm, heaviside, hypot, logaddexp, logaddexp2, fmax, fmin ----

void copysign_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "copysign_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t {
      return std::copysign(static_cast<opmath_t>(a), static_cast<opmath_t>(b));
    });
  });
}

// Euclid's algorithm on |a| and |b|; gcd(0, 0) is 0.
template <typename T>
T calc_gcd(T a_, T b_) {
  T a = a_ < 0 ? static_cast<T>(-a_) : a_;
  T b = b_ < 0 ? static_cast<T>(-b_) : b_;
  while (a != 0) {
    const T c = a;
    a = static_cast<T>(b % a);
    b = c;
  }
  return b;
}

void gcd_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_INTEGRAL_TYPES(iter.common_dtype(), "gcd_cpu", [&] {
    cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t { return calc_gcd(a, b); });
  });
}

// lcm = |a / gcd * b| (dividing first keeps the product in range); 0 when either is 0.
void lcm_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_INTEGRAL_TYPES(iter.common_dtype(), "lcm_cpu", [&] {
    cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
      const scalar_t g = calc_gcd(a, b);
      if (g == 0) {
        return 0;
      }
      const auto r = a / g * b;  // int for the small types: the absolute value is taken before narrowing
      return static_cast<scalar_t>(r < 0 ? -r : r);
    });
  });
}

void heaviside_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBool, kBFloat16, iter.common_dtype(), "heaviside_cpu", [&] {
    cpu_kernel(iter, [](scalar_t a, scalar_t b) -> scalar_t {
      return a == scalar_t(0) ? b : static_cast<scalar_t>(a > scalar_t(0));
    });
  });
}

void hypot_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "hypot_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t {
      return std::hypot(static_cast<opmath_t>(a), static_cast<opmath_t>(b));
    });
  });
}

// [marker: logaddexp_kernel]
// log(e^a + e^b) = max(a, b) + log1p(e^-|a - b|): the exponential never overflows. Equal
// infinities are returned as they are (inf - inf would be NaN).
void logaddexp_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "logaddexp_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel(iter, [](scalar_t a_, scalar_t b_) -> scalar_t {
      const opmath_t a = a_, b = b_;
      if (std::isinf(a) && a == b) {
        return a;
      }
      const opmath_t m = std::max(a, b);
      return m + std::log1p(std::exp(-std::abs(a - b)));
    });
  });
}
// [end marker: logaddexp_kernel]

// The same in base 2: log2(2^a + 2^b) = max + log1p(2^-|a - b|) / ln 2.
void logaddexp2_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "logaddexp2_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    const opmath_t inv_log_2 = static_cast<opmath_t>(1.0 / M_LN2);
    cpu_kernel(iter, [inv_log_2](scalar_t a_, scalar_t b_) -> scalar_t {
      const opmath_t a = a_, b = b_;
      if (std::isinf(a) && a == b) {
        return a;
      }
      const opmath_t m = std::max(a, b);
      return m + std::log1p(std::exp2(-std::abs(a - b))) * inv_log_2;
    });
  });
}

// fmax/fmin: std::fmax/fmin for floating dtypes (a NaN loses to a number); integers and
// bool have no NaN, so they are maximum/minimum.
void fmax_kernel(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (isFloatingType(dtype)) {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "fmax_cpu", [&] {
      using opmath_t = opmath_type<scalar_t>;
      cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        return std::fmax(static_cast<opmath_t>(a), static_cast<opmath_t>(b));
      });
    });
  } else {
    maximum_kernel(iter);
  }
}

void fmin_kernel(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (isFloatingType(dtype)) {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "fmin_cpu", [&] {
      using opmath_t = opmath_type<scalar_t>;
      cpu_kernel_vec(iter, [](scalar_t a, scalar_t b) -> scalar_t {
        return std::fmin(static_cast<opmath_t>(a), static_cast<opmath_t>(b));
      });
    });
  } else {
    minimum_kernel(iter);
  }
}

}  // namespace

REGISTER_DISPATCH(copysign_stub, &copysign_kernel);
REGISTER_DISPATCH(gcd_stub, &gcd_kernel);
REGISTER_DISPATCH(lcm_stub, &lcm_kernel);
REGISTER_DISPATCH(heaviside_stub, &heaviside_kernel);
REGISTER_DISPATCH(hypot_stub, &hypot_kernel);
REGISTER_DISPATCH(logaddexp_stub, &logaddexp_kernel);
REGISTER_DISPATCH(logaddexp2_stub, &logaddexp2_kernel);
REGISTER_DISPATCH(fmax_stub, &fmax_kernel);
REGISTER_DISPATCH(fmin_stub, &fmin_kernel);
REGISTER_DISPATCH(add_stub, &add_kernel);
REGISTER_DISPATCH(mul_stub, &mul_kernel);
REGISTER_DISPATCH(div_true_stub, &div_true_kernel);
REGISTER_DISPATCH(div_trunc_stub, &div_trunc_kernel);
REGISTER_DISPATCH(div_floor_stub, &div_floor_kernel);
REGISTER_DISPATCH(remainder_stub, &remainder_kernel);
REGISTER_DISPATCH(fmod_stub, &fmod_kernel);
REGISTER_DISPATCH(atan2_stub, &atan2_kernel);
REGISTER_DISPATCH(mse_stub, &mse_kernel);
REGISTER_DISPATCH(sigmoid_backward_stub, &sigmoid_backward_kernel);
REGISTER_DISPATCH(tanh_backward_stub, &tanh_backward_kernel);
REGISTER_DISPATCH(maximum_stub, &maximum_kernel);
REGISTER_DISPATCH(minimum_stub, &minimum_kernel);
REGISTER_DISPATCH(bitwise_and_stub, &bitwise_and_kernel);
REGISTER_DISPATCH(bitwise_or_stub, &bitwise_or_kernel);
REGISTER_DISPATCH(bitwise_xor_stub, &bitwise_xor_kernel);
REGISTER_DISPATCH(logical_and_stub, &logical_and_kernel);
REGISTER_DISPATCH(logical_or_stub, &logical_or_kernel);
REGISTER_DISPATCH(logical_xor_stub, &logical_xor_kernel);
REGISTER_DISPATCH(lt_stub, &lt_kernel);
REGISTER_DISPATCH(le_stub, &le_kernel);
REGISTER_DISPATCH(gt_stub, &gt_kernel);
REGISTER_DISPATCH(ge_stub, &ge_kernel);
REGISTER_DISPATCH(eq_stub, &eq_kernel);
REGISTER_DISPATCH(ne_stub, &ne_kernel);
REGISTER_DISPATCH(pow_tensor_tensor_stub, &pow_tensor_tensor_kernel);
REGISTER_DISPATCH(pow_tensor_scalar_stub, &pow_tensor_scalar_kernel);

}  // namespace at::native
