// aten/src/ATen/native/cuda/CompareKernels.cu - the comparisons lt, le, gt, ge, eq and ne on
// CUDA tensors. Mirrors PyTorch's aten/src/ATen/native/cuda/CompareKernels.cu and
// CompareEQKernel.cu. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

// Both inputs are read as the common dtype (x_int < 2.5 compares floats) and the result is
// bool; gpu_kernel's store converts it to out='s dtype if that is not bool. Complex numbers are
// unordered: lt/le/gt/ge leave them out of the dispatch ('"lt_cuda" not implemented for
// 'ComplexFloat''), eq/ne take them.
#define COMPARISON_KERNEL_CUDA(DISPATCH, name, op)                                                      \
  void name##_kernel_cuda(TensorIteratorBase& iter) {                                                   \
    DISPATCH(kBool, kHalf, kBFloat16, iter.common_dtype(), #name "_cuda", [&] {                          \
      opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> bool {     \
        return a op b;                                                                                  \
      });                                                                                               \
    });                                                                                                 \
  }

COMPARISON_KERNEL_CUDA(AT_DISPATCH_ALL_TYPES_AND3, lt, <)
COMPARISON_KERNEL_CUDA(AT_DISPATCH_ALL_TYPES_AND3, le, <=)
COMPARISON_KERNEL_CUDA(AT_DISPATCH_ALL_TYPES_AND3, gt, >)
COMPARISON_KERNEL_CUDA(AT_DISPATCH_ALL_TYPES_AND3, ge, >=)
COMPARISON_KERNEL_CUDA(AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3, eq, ==)
COMPARISON_KERNEL_CUDA(AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3, ne, !=)

#undef COMPARISON_KERNEL_CUDA

}  // namespace

REGISTER_CUDA_DISPATCH(lt_stub, &lt_kernel_cuda);
REGISTER_CUDA_DISPATCH(le_stub, &le_kernel_cuda);
REGISTER_CUDA_DISPATCH(gt_stub, &gt_kernel_cuda);
REGISTER_CUDA_DISPATCH(ge_stub, &ge_kernel_cuda);
REGISTER_CUDA_DISPATCH(eq_stub, &eq_kernel_cuda);
REGISTER_CUDA_DISPATCH(ne_stub, &ne_kernel_cuda);

}  // namespace at::native
