// aten/src/ATen/native/cuda/UnaryLogKernels.cu - log and log1p on CUDA tensors. Mirrors PyTorch's
// aten/src/ATen/native/cuda/UnaryLogKernels.cu.
// Guide: docs/source/internals/cuda_simulated_device.rst.
//
// Floating and complex dtypes, computed in opmath_t (float for Half and BFloat16) and rounded
// once, as in cpu/UnaryOpsKernel.cpp; an integer input was promoted to the default float dtype
// by the iterator (unary_float_op) and is converted as it is loaded. A complex element uses
// c10::complex's std::sin, std::log ... (c10/util/complex.h: thrust's under nvcc).
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/Math.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cmath>

namespace at::native {
namespace {

void log_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "log_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(std::log(a));
    });
  });
}

void log1p_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "log1p_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(log1p_any(a));
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(log_stub, &log_kernel_cuda);
REGISTER_CUDA_DISPATCH(log1p_stub, &log1p_kernel_cuda);

}  // namespace at::native
