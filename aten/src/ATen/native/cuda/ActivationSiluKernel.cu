// aten/src/ATen/native/cuda/ActivationSiluKernel.cu - silu (x * sigmoid(x)) on CUDA tensors.
// Mirrors PyTorch's aten/src/ATen/native/cuda/ActivationSiluKernel.cu; the formula is that of
// this tree's cpu/Activation.cpp. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/Activation.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cmath>

namespace at::native {
namespace {

void silu_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.dtype(), "silu_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x_) -> scalar_t {
      const opmath_t x = x_;
      return static_cast<scalar_t>(x / (opmath_t(1) + std::exp(-x)));
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(silu_stub, &silu_kernel_cuda);

}  // namespace at::native
