// aten/src/ATen/native/cuda/UnaryGeometricKernels.cu - sin, cos, tan and tanh on CUDA tensors.
// Mirrors PyTorch's aten/src/ATen/native/cuda/UnaryGeometricKernels.cu (split into
// UnaryGeometric*Kernel.cu in later versions).
// Guide: docs/source/internals/cuda_simulated_device.rst.
//
// Floating and complex dtypes, computed in opmath_t (float for Half and BFloat16) and rounded
// once, as in cpu/UnaryOpsKernel.cpp; an integer input was promoted to the default float dtype
// by the iterator (unary_float_op) and is converted as it is loaded. A complex element uses
// c10::complex's std::sin, std::log ... (c10/util/complex.h: thrust's under nvcc).
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cmath>

namespace at::native {
namespace {

void sin_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "sin_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(std::sin(a));
    });
  });
}

void cos_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "cos_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(std::cos(a));
    });
  });
}

void tan_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "tan_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(std::tan(a));
    });
  });
}

void tanh_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "tanh_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(std::tanh(a));
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(sin_stub, &sin_kernel_cuda);
REGISTER_CUDA_DISPATCH(cos_stub, &cos_kernel_cuda);
REGISTER_CUDA_DISPATCH(tan_stub, &tan_kernel_cuda);
REGISTER_CUDA_DISPATCH(tanh_stub, &tanh_kernel_cuda);

}  // namespace at::native
