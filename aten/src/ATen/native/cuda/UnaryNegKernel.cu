// aten/src/ATen/native/cuda/UnaryNegKernel.cu - neg on CUDA tensors (also the backward of sub
// and div). Mirrors PyTorch's aten/src/ATen/native/cuda/UnarySignKernels.cu (neg_kernel_cuda).
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

void neg_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16, iter.dtype(), "neg_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t { return -a; });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(neg_stub, &neg_kernel_cuda);

}  // namespace at::native
