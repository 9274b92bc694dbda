// aten/src/ATen/native/cpu/Activation.cpp - the CPU loops of elu, gelu and silu.
// Mirrors PyTorch's aten/src/ATen/native/cpu/Activation.cpp. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/cpu/vec/vec_math.h>
#include <ATen/native/Activation.h>
#include <ATen/native/cpu/Loops.h>

#include <cmath>

namespace at::native {
namespace {

// exp, tanh and erf of float (Half and BFloat16 compute in float) are at::vec's
// (cpu/vec/vec_math.h), which the compiler vectorizes in these loops, as PyTorch's gelu and silu
// use Vectorized<float>'s; for double, at::vec's overloads are libm's.

void GeluKernelImpl(TensorIteratorBase& it, GeluType approximate) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, it.dtype(), "GeluKernelImpl", [&] {
    using opmath_t = opmath_type<scalar_t>;
    if (approximate == GeluType::Tanh) {
      // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
      const opmath_t kBeta = static_cast<opmath_t>(M_SQRT2 * M_2_SQRTPI * 0.5);
      const opmath_t kKappa = static_cast<opmath_t>(0.044715);
      cpu_kernel_vec(it, [=](scalar_t x_) -> scalar_t {
        const opmath_t x = x_;
        const opmath_t inner = kBeta * (x + kKappa * x * x * x);
        return opmath_t(0.5) * x * (opmath_t(1) + at::vec::tanh(inner));
      });
    } else {
      // x * Phi(x) = 0.5 x (1 + erf(x / sqrt(2)))
      const opmath_t kAlpha = static_cast<opmath_t>(M_SQRT1_2);
      cpu_kernel_vec(it, [=](scalar_t x_) -> scalar_t {
        const opmath_t x = x_;
        return x * opmath_t(0.5) * (opmath_t(1) + at::vec::erf(x * kAlpha));
      });
    }
  });
}

// d/dx [x Phi(x)] = Phi(x) + x phi(x), with phi(x) = exp(-x^2 / 2) / sqrt(2 pi).
// The tanh form: with u = beta (x + kappa x^3), d/dx [x (1 + tanh u) / 2] =
// (1 + tanh u) / 2 + x / 2 (1 - tanh^2 u) beta (1 + 3 kappa x^2).
void GeluBackwardKernelImpl(TensorIteratorBase& it, GeluType approximate) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, it.dtype(), "GeluBackwardKernelImpl", [&] {
    using opmath_t = opmath_type<scalar_t>;
    if (approximate == GeluType::Tanh) {
      const opmath_t kBeta = static_cast<opmath_t>(M_SQRT2 * M_2_SQRTPI * 0.5);
      const opmath_t kKappa = static_cast<opmath_t>(0.044715);
      cpu_kernel_vec(it, [=](scalar_t dy_, scalar_t x_) -> scalar_t {
        const opmath_t dy = dy_, x = x_;
        const opmath_t x_sq = x * x;
        const opmath_t inner = kBeta * (x + kKappa * x_sq * x);
        const opmath_t t = at::vec::tanh(inner);
        const opmath_t left_derivative = opmath_t(0.5) * (opmath_t(1) + t);
        const opmath_t inner_derivative = kBeta * (opmath_t(1) + opmath_t(3) * kKappa * x_sq);
        return dy * (left_derivative + opmath_t(0.5) * x * (opmath_t(1) - t * t) * inner_derivative);
      });
    } else {
      const opmath_t kAlpha = static_cast<opmath_t>(M_SQRT1_2);
      const opmath_t kBeta = static_cast<opmath_t>(M_2_SQRTPI * M_SQRT1_2 * 0.5);
      cpu_kernel_vec(it, [=](scalar_t dy_, scalar_t x_) -> scalar_t {
        const opmath_t dy = dy_, x = x_;
        const opmath_t cdf = opmath_t(0.5) * (opmath_t(1) + at::vec::erf(x * kAlpha));
        const opmath_t pdf = kBeta * at::vec::exp(x * x * opmath_t(-0.5));
        return dy * (cdf + x * pdf);
      });
    }
  });
}

void silu_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.dtype(), "silu_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel_vec(iter, [](scalar_t x_) -> scalar_t {
      const opmath_t x = x_;
      return x / (opmath_t(1) + at::vec::exp(-x));
    });
  });
}

void elu_kernel(TensorIteratorBase& iter, const c10::Scalar& alpha, const c10::Scalar& scale,
                const c10::Scalar& input_scale) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.dtype(), "elu_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    const opmath_t negcoef = alpha.to<opmath_t>() * scale.to<opmath_t>();
    const opmath_t poscoef = scale.to<opmath_t>();
    const opmath_t negiptcoef = input_scale.to<opmath_t>();
    // expm1, not exp - 1: near 0 the difference of two numbers close to 1 loses the digits.
    cpu_kernel(iter, [=](scalar_t x_) -> scalar_t {
      const opmath_t x = x_;
      return x <= opmath_t(0) ? std::expm1(x * negiptcoef) * negcoef : x * poscoef;
    });
  });
}

void threshold_backward_kernel(TensorIteratorBase& iter, const c10::Scalar& threshold_scalar) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.dtype(), "threshold_backward_cpu", [&] {
    const scalar_t threshold = threshold_scalar.to<scalar_t>();
    cpu_kernel(iter, [=](scalar_t x, scalar_t grad) -> scalar_t { return x <= threshold ? scalar_t(0) : grad; });
  });
}

}  // namespace

REGISTER_DISPATCH(GeluKernel, &GeluKernelImpl);
REGISTER_DISPATCH(GeluBackwardKernel, &GeluBackwardKernelImpl);
REGISTER_DISPATCH(threshold_backward_stub, &threshold_backward_kernel);
REGISTER_DISPATCH(silu_stub, &silu_kernel);
REGISTER_DISPATCH(elu_stub, &elu_kernel);

}  // namespace at::native
