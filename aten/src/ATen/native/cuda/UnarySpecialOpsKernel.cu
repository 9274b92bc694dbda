// aten/src/ATen/native/cuda/UnarySpecialOpsKernel.cu - sigmoid and erf on CUDA tensors. Mirrors
// PyTorch's aten/src/ATen/native/cuda/UnarySpecialOpsKernel.cu.
// Guide: docs/source/internals/cuda_simulated_device.rst.
//
// Computed in opmath_t (float for Half and BFloat16) and rounded once, as in
// cpu/UnaryOpsKernel.cpp; an integer input was promoted to the default float dtype by the
// iterator (unary_float_op) and is converted as it is loaded. sigmoid takes complex dtypes
// too (c10::complex's std::exp), erf only real ones, as on the CPU.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cmath>

namespace at::native {
namespace {

void sigmoid_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "sigmoid_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(opmath_t(1) / (opmath_t(1) + std::exp(-a)));
    });
  });
}

void erf_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "erf_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(std::erf(a));
    });
  });
}

// logit: x clamped to [eps, 1 - eps] first when eps >= 0 (eps < 0 stands for None).
void logit_kernel_cuda(TensorIteratorBase& iter, const Scalar& eps_scalar) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "logit_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const opmath_t eps = eps_scalar.to<opmath_t>();
    const opmath_t lo = static_cast<scalar_t>(eps), hi = static_cast<scalar_t>(opmath_t(1) - lo);
    const bool clamp = eps >= opmath_t(0);
    gpu_kernel(iter, [lo, hi, clamp] GPU_LAMBDA(scalar_t x_) -> scalar_t {
      opmath_t x = x_;
      if (clamp) {
        x = x < lo ? lo : (x > hi ? hi : x);
      }
      return static_cast<scalar_t>(std::log(x / (opmath_t(1) - x)));
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(sigmoid_stub, &sigmoid_kernel_cuda);
REGISTER_CUDA_DISPATCH(erf_stub, &erf_kernel_cuda);
REGISTER_CUDA_DISPATCH(logit_stub, &logit_kernel_cuda);

}  // namespace at::native
