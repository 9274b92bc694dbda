// aten/src/ATen/native/cuda/ActivationGeluKernel.cu - gelu and its backward on CUDA tensors, exact (with erf) or
// with the tanh approximation. Mirrors PyTorch's aten/src/ATen/native/cuda/ActivationGeluKernel.cu;
// the formulas are those of this tree's cpu/Activation.cpp.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/Activation.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cmath>

namespace at::native {
namespace {

// The constants are rounded to opmath_t on the host, as the CPU kernel rounds them, and
// captured by value.
void GeluCUDAKernelImpl(TensorIteratorBase& it, GeluType approximate) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, it.dtype(), "GeluCUDAKernelImpl", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    if (approximate == GeluType::Tanh) {
      // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
      const opmath_t kBeta = static_cast<opmath_t>(M_SQRT2 * M_2_SQRTPI * 0.5);
      const opmath_t kKappa = static_cast<opmath_t>(0.044715);
      gpu_kernel(it, [=] GPU_LAMBDA(scalar_t x_) -> scalar_t {
        const opmath_t x = x_;
        const opmath_t inner = kBeta * (x + kKappa * x * x * x);
        return static_cast<scalar_t>(opmath_t(0.5) * x * (opmath_t(1) + std::tanh(inner)));
      });
    } else {
      // x * Phi(x) = 0.5 x (1 + erf(x / sqrt(2)))
      const opmath_t kAlpha = static_cast<opmath_t>(M_SQRT1_2);
      gpu_kernel(it, [=] GPU_LAMBDA(scalar_t x_) -> scalar_t {
        const opmath_t x = x_;
        return static_cast<scalar_t>(x * opmath_t(0.5) * (opmath_t(1) + std::erf(x * kAlpha)));
      });
    }
  });
}

// The derivative, as cpu/Activation.cpp's GeluBackwardKernelImpl computes it.
void GeluBackwardCUDAKernelImpl(TensorIteratorBase& it, GeluType approximate) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, it.dtype(), "GeluBackwardCUDAKernelImpl", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    if (approximate == GeluType::Tanh) {
      const opmath_t kBeta = static_cast<opmath_t>(M_SQRT2 * M_2_SQRTPI * 0.5);
      const opmath_t kKappa = static_cast<opmath_t>(0.044715);
      gpu_kernel(it, [=] GPU_LAMBDA(scalar_t dy_, scalar_t x_) -> scalar_t {
        const opmath_t dy = dy_, x = x_;
        const opmath_t x_sq = x * x;
        const opmath_t inner = kBeta * (x + kKappa * x_sq * x);
        const opmath_t t = std::tanh(inner);
        const opmath_t left_derivative = opmath_t(0.5) * (opmath_t(1) + t);
        const opmath_t inner_derivative = kBeta * (opmath_t(1) + opmath_t(3) * kKappa * x_sq);
        return static_cast<scalar_t>(dy * (left_derivative + opmath_t(0.5) * x * (opmath_t(1) - t * t) * inner_derivative));
      });
    } else {
      const opmath_t kAlpha = static_cast<opmath_t>(M_SQRT1_2);
      const opmath_t kBeta = static_cast<opmath_t>(M_2_SQRTPI * M_SQRT1_2 * 0.5);
      gpu_kernel(it, [=] GPU_LAMBDA(scalar_t dy_, scalar_t x_) -> scalar_t {
        const opmath_t dy = dy_, x = x_;
        const opmath_t cdf = opmath_t(0.5) * (opmath_t(1) + std::erf(x * kAlpha));
        const opmath_t pdf = kBeta * std::exp(x * x * opmath_t(-0.5));
        return static_cast<scalar_t>(dy * (cdf + x * pdf));
      });
    }
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(GeluKernel, &GeluCUDAKernelImpl);
REGISTER_CUDA_DISPATCH(GeluBackwardKernel, &GeluBackwardCUDAKernelImpl);

}  // namespace at::native
