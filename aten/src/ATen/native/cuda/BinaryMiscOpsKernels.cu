// aten/src/ATen/native/cuda/BinaryMiscOpsKernels.cu - atan2 (integer inputs were promoted to the
// default float dtype by the iterator) and mse_loss's (a - b)^2 on CUDA tensors. Mirrors PyTorch's
// aten/src/ATen/native/cuda/BinaryMiscOpsKernels.cu (and atan2 of BinaryGeometricKernels.cu).
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cmath>

namespace at::native {
namespace {

void atan2_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "atan2_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
      return static_cast<scalar_t>(std::atan2(static_cast<opmath_t>(a), static_cast<opmath_t>(b)));
    });
  });
}

// mse_loss's elementwise part, (a - b)^2; Loss.cpp reduces it (PyTorch's mse_kernel_cuda).
void mse_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "mse_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
      const opmath_t diff = static_cast<opmath_t>(a) - static_cast<opmath_t>(b);
      return static_cast<scalar_t>(diff * diff);
    });
  });
}


void hypot_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "hypot_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
      return static_cast<scalar_t>(std::hypot(static_cast<opmath_t>(a), static_cast<opmath_t>(b)));
    });
  });
}

void copysign_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "copysign_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
      return static_cast<scalar_t>(std::copysign(static_cast<opmath_t>(a), static_cast<opmath_t>(b)));
    });
  });
}

// max + log1p(e^-|a - b|) (log base 2: 2^-|a - b|, divided by ln 2); equal infinities pass through.
void logaddexp_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "logaddexp_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a_, scalar_t b_) -> scalar_t {
      const opmath_t a = a_, b = b_;
      if (std::isinf(a) && a == b) {
        return static_cast<scalar_t>(a);
      }
      const opmath_t m = a > b ? a : b;
      return static_cast<scalar_t>(m + std::log1p(std::exp(-std::abs(a - b))));
    });
  });
}

void logaddexp2_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "logaddexp2_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a_, scalar_t b_) -> scalar_t {
      const opmath_t a = a_, b = b_;
      if (std::isinf(a) && a == b) {
        return static_cast<scalar_t>(a);
      }
      const opmath_t m = a > b ? a : b;
      return static_cast<scalar_t>(m + std::log1p(std::exp2(-std::abs(a - b))) / static_cast<opmath_t>(M_LN2));
    });
  });
}

template <typename T>
C10_HOST_DEVICE T calc_gcd_cuda(T a_, T b_) {
  T a = a_ < 0 ? static_cast<T>(-a_) : a_;
  T b = b_ < 0 ? static_cast<T>(-b_) : b_;
  while (a != 0) {
    const T c = a;
    a = static_cast<T>(b % a);
    b = c;
  }
  return b;
}

void gcd_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_INTEGRAL_TYPES(iter.common_dtype(), "gcd_cuda", [&] {
    opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
      return calc_gcd_cuda(a, b);
    });
  });
}

void lcm_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_INTEGRAL_TYPES(iter.common_dtype(), "lcm_cuda", [&] {
    opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
      const scalar_t g = calc_gcd_cuda(a, b);
      if (g == 0) {
        return scalar_t(0);
      }
      const auto r = a / g * b;
      return static_cast<scalar_t>(r < 0 ? -r : r);
    });
  });
}

void heaviside_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBool, kBFloat16, iter.common_dtype(), "heaviside_cuda", [&] {
    opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
      return a == scalar_t(0) ? b : static_cast<scalar_t>(a > scalar_t(0));
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(atan2_stub, &atan2_kernel_cuda);
REGISTER_CUDA_DISPATCH(mse_stub, &mse_kernel_cuda);
REGISTER_CUDA_DISPATCH(hypot_stub, &hypot_kernel_cuda);
REGISTER_CUDA_DISPATCH(copysign_stub, &copysign_kernel_cuda);
REGISTER_CUDA_DISPATCH(logaddexp_stub, &logaddexp_kernel_cuda);
REGISTER_CUDA_DISPATCH(logaddexp2_stub, &logaddexp2_kernel_cuda);
REGISTER_CUDA_DISPATCH(gcd_stub, &gcd_kernel_cuda);
REGISTER_CUDA_DISPATCH(lcm_stub, &lcm_kernel_cuda);
REGISTER_CUDA_DISPATCH(heaviside_stub, &heaviside_kernel_cuda);

}  // namespace at::native
