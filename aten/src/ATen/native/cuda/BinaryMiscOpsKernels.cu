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

}  // namespace

REGISTER_CUDA_DISPATCH(atan2_stub, &atan2_kernel_cuda);
REGISTER_CUDA_DISPATCH(mse_stub, &mse_kernel_cuda);

}  // namespace at::native
