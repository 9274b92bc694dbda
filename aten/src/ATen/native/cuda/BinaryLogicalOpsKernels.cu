// aten/src/ATen/native/cuda/BinaryLogicalOpsKernels.cu - logical_and, logical_or and logical_xor
// on CUDA tensors: any dtype in, bool (or out='s dtype) out; a complex number is true when
// either part is nonzero. Mirrors PyTorch's aten/src/ATen/native/cuda/BinaryLogicalOpsKernels.cu.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

// The inputs are read as the common dtype and the lambda returns bool; gpu_kernel's store
// converts it to the output's dtype, which is bool unless out= says otherwise (the CPU computes
// 0/1 in the common dtype and casts: the same values).
#define LOGICAL_KERNEL_CUDA(name, expr)                                                                     \
  void name##_kernel_cuda(TensorIteratorBase& iter) {                                                       \
    AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.common_dtype(), #name "_cuda", [&] { \
      opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> bool {         \
        return expr;                                                                                        \
      });                                                                                                   \
    });                                                                                                     \
  }

LOGICAL_KERNEL_CUDA(logical_and, static_cast<bool>(a) && static_cast<bool>(b))
LOGICAL_KERNEL_CUDA(logical_or, static_cast<bool>(a) || static_cast<bool>(b))
LOGICAL_KERNEL_CUDA(logical_xor, static_cast<bool>(a) != static_cast<bool>(b))

#undef LOGICAL_KERNEL_CUDA

}  // namespace

REGISTER_CUDA_DISPATCH(logical_and_stub, &logical_and_kernel_cuda);
REGISTER_CUDA_DISPATCH(logical_or_stub, &logical_or_kernel_cuda);
REGISTER_CUDA_DISPATCH(logical_xor_stub, &logical_xor_kernel_cuda);

}  // namespace at::native
