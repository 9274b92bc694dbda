// aten/src/ATen/native/cuda/ActivationThresholdKernel.cu - threshold_backward on CUDA tensors:
// relu's gradient (autograd's ReluBackward0 calls it), grad where self > threshold, else 0.
// Mirrors PyTorch's aten/src/ATen/native/cuda/ActivationThresholdKernel.cu (threshold_kernel).
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/native/Activation.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

// The iterator is a binary_op (self, grad), which lets a 0-d CPU tensor through on either
// side: opmath_gpu_kernel_with_scalars reads it on the host. The comparison is in scalar_t,
// with the threshold rounded to the dtype, as on the CPU.
void threshold_backward_kernel_cuda(TensorIteratorBase& iter, const c10::Scalar& threshold_scalar) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.dtype(), "threshold_backward_cuda", [&] {
    const scalar_t threshold = threshold_scalar.to<scalar_t>();
    opmath_gpu_kernel_with_scalars<scalar_t>(iter, [threshold] GPU_LAMBDA(scalar_t x, scalar_t grad) -> scalar_t {
      return x <= threshold ? scalar_t(0) : grad;
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(threshold_backward_stub, &threshold_backward_kernel_cuda);

}  // namespace at::native
