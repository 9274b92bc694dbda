// aten/src/ATen/native/cuda/BinaryDivTruncKernel.cu - div(a, b, rounding_mode="trunc") on CUDA
// tensors: the quotient rounded toward zero, integer dtypes kept. Mirrors PyTorch's
// aten/src/ATen/native/cuda/BinaryDivTruncKernel.cu.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cuda/Loops.cuh>
#include <c10/util/generic_math.h>

#include <cmath>

namespace at::native {
namespace {

void div_trunc_kernel_cuda(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "div_trunc_cuda", [&] {
      opmath_gpu_kernel_with_scalars<scalar_t>(
          iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t { return c10::int_div(a, b); });
    });
  } else {
    // The lambda takes scalar_t, not opmath_t: a CPU scalar is rounded to the tensor's dtype
    // first (x_half // 0.1 divides by half(0.1)), as the CPU kernel sees it.
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "div_trunc_cuda", [&] {
      using opmath_t = at::opmath_type<scalar_t>;
      opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
        return std::trunc(static_cast<opmath_t>(a) / static_cast<opmath_t>(b));
      });
    });
  }
}

}  // namespace

REGISTER_CUDA_DISPATCH(div_trunc_stub, &div_trunc_kernel_cuda);

}  // namespace at::native
