// aten/src/ATen/native/cuda/BinaryMiscBackwardOpsKernels.cu - the backwards of sigmoid and tanh
// from their outputs on CUDA tensors: grad * (1 - y) * y and grad * (1 - y^2), conjugated for
// complex y. Mirrors PyTorch's aten/src/ATen/native/cuda/BinaryMiscBackwardOpsKernels.cu; the
// CPU loops are in cpu/BinaryOpsKernel.cpp. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

void sigmoid_backward_kernel_cuda(TensorIteratorBase& iter) {
  if (isComplexType(iter.common_dtype())) {
    AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "sigmoid_backward_cuda", [&] {
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
        const scalar_t d = (scalar_t(1) - b) * b;
        return a * scalar_t(d.real(), -d.imag());
      });
    });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "sigmoid_backward_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
      const opmath_t y = static_cast<opmath_t>(b);
      return static_cast<scalar_t>(static_cast<opmath_t>(a) * ((opmath_t(1) - y) * y));
    });
  });
}

void tanh_backward_kernel_cuda(TensorIteratorBase& iter) {
  if (isComplexType(iter.common_dtype())) {
    AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "tanh_backward_cuda", [&] {
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
        const scalar_t d = scalar_t(1) - b * b;
        return a * scalar_t(d.real(), -d.imag());
      });
    });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "tanh_backward_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
      const opmath_t y = static_cast<opmath_t>(b);
      return static_cast<scalar_t>(static_cast<opmath_t>(a) * (opmath_t(1) - y * y));
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(sigmoid_backward_stub, &sigmoid_backward_kernel_cuda);
REGISTER_CUDA_DISPATCH(tanh_backward_stub, &tanh_backward_kernel_cuda);

}  // namespace at::native
