// aten/src/ATen/native/cuda/BinaryDivFloorKernel.cu - div(a, b, rounding_mode="floor") and
// floor_divide (Python's //) on CUDA tensors. Mirrors PyTorch's
// aten/src/ATen/native/cuda/BinaryDivFloorKernel.cu.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cuda/Loops.cuh>
#include <c10/util/generic_math.h>

namespace at::native {
namespace {

void div_floor_kernel_cuda(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "div_floor_cuda", [&] {
      opmath_gpu_kernel_with_scalars<scalar_t>(
          iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t { return c10::div_floor_integer(a, b); });
    });
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "div_floor_cuda", [&] {
      using opmath_t = at::opmath_type<scalar_t>;
      opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
        return c10::div_floor_floating<opmath_t>(a, b);
      });
    });
  }
}

}  // namespace

REGISTER_CUDA_DISPATCH(div_floor_stub, &div_floor_kernel_cuda);

}  // namespace at::native
