// aten/src/ATen/native/cuda/UnarySpecialOpsKernel.cu - sigmoid and erf on CUDA tensors. Mirrors
// PyTorch's aten/src/ATen/native/cuda/UnarySpecialOpsKernel.cu.
// Guide: docs/source/internals/cuda_simulated_device.rst.
//
// Computed in opmath_t (float for Half and BFloat16) and rounded once, as in
// cpu/UnaryOpsKernel.cpp; an integer input was promoted to the default float dtype by the
// iterator (unary_float_op) and is converted as it is loaded. sigmoid takes complex dtypes
// too (c10::complex's std::exp), erf only real ones, as on the CPU.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cmath>

namespace at::native {
namespace {

void sigmoid_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "sigmoid_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(opmath_t(1) / (opmath_t(1) + std::exp(-a)));
    });
  });
}

void erf_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "erf_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(std::erf(a));
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(sigmoid_stub, &sigmoid_kernel_cuda);
REGISTER_CUDA_DISPATCH(erf_stub, &erf_kernel_cuda);

}  // namespace at::native
