// aten/src/ATen/native/cuda/BinaryBitwiseOpsKernels.cu - bitwise_and, bitwise_or and bitwise_xor
// (&, |, ^) on CUDA tensors of integer or bool dtype. Mirrors PyTorch's
// aten/src/ATen/native/cuda/BinaryBitwiseOpsKernels.cu.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

// Floating and complex dtypes are refused by the dispatch, as on the CPU:
// '"bitwise_and_cuda" not implemented for 'Float''.
#define BITWISE_KERNEL_CUDA(name, op)                                                                      \
  void name##_kernel_cuda(TensorIteratorBase& iter) {                                                      \
    AT_DISPATCH_INTEGRAL_TYPES_AND(kBool, iter.common_dtype(), #name "_cuda", [&] {                        \
      opmath_gpu_kernel_with_scalars<scalar_t>(                                                            \
          iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t { return static_cast<scalar_t>(a op b); }); \
    });                                                                                                    \
  }

BITWISE_KERNEL_CUDA(bitwise_and, &)
BITWISE_KERNEL_CUDA(bitwise_or, |)
BITWISE_KERNEL_CUDA(bitwise_xor, ^)

#undef BITWISE_KERNEL_CUDA

}  // namespace

REGISTER_CUDA_DISPATCH(bitwise_and_stub, &bitwise_and_kernel_cuda);
REGISTER_CUDA_DISPATCH(bitwise_or_stub, &bitwise_or_kernel_cuda);
REGISTER_CUDA_DISPATCH(bitwise_xor_stub, &bitwise_xor_kernel_cuda);

}  // namespace at::native
