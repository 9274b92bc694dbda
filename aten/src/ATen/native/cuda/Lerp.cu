// aten/src/ATen/native/cuda/Lerp.cu - lerp(self, end, weight) on CUDA tensors, with a number or a
// tensor as the weight. Mirrors PyTorch's aten/src/ATen/native/cuda/Lerp.cu; the formula is
// Lerp.h's, shared with the CPU kernel. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/Lerp.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

void lerp_scalar_kernel_cuda(TensorIteratorBase& iter, const Scalar& weight) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "lerp_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const auto weight_val = weight.to<opmath_t>();
    gpu_kernel(iter, [weight_val] GPU_LAMBDA(scalar_t self, scalar_t end) -> scalar_t {
      return lerp(self, end, weight_val);
    });
  });
}

void lerp_tensor_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "lerp_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    // Lerp.cpp's iterator lets a 0-d CPU weight through (lerp(a, b, torch.tensor(0.5))): read it
    // on the host and take it out of the iterator, as opmath_gpu_kernel_with_scalars does for
    // binary operators; the kernel then never touches host memory.
    if (iter.is_cpu_scalar(3)) {
      const auto weight_val = static_cast<opmath_t>(c10::fetch_and_cast<scalar_t>(iter.dtype(3), iter.data_ptr(3)));
      iter.remove_operand(3);
      gpu_kernel(iter, [weight_val] GPU_LAMBDA(scalar_t self, scalar_t end) -> scalar_t {
        return lerp(self, end, weight_val);
      });
      return;
    }
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t self, scalar_t end, scalar_t weight) -> scalar_t {
      return lerp(self, end, static_cast<opmath_t>(weight));
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(lerp_kernel_scalar_weight, &lerp_scalar_kernel_cuda);
REGISTER_CUDA_DISPATCH(lerp_kernel_tensor_weight, &lerp_tensor_kernel_cuda);

}  // namespace at::native
