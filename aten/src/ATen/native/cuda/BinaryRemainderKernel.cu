// aten/src/ATen/native/cuda/BinaryRemainderKernel.cu - remainder (Python's %: the result has the
// divisor's sign) and fmod (C's fmod: the dividend's sign) on CUDA tensors. Mirrors PyTorch's
// aten/src/ATen/native/cuda/BinaryRemainderKernel.cu.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cuda/Loops.cuh>
#include <c10/util/generic_math.h>

#include <cmath>

namespace at::native {
namespace {

void remainder_kernel_cuda(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "remainder_cuda", [&] {
      opmath_gpu_kernel_with_scalars<scalar_t>(
          iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t { return c10::remainder_integer(a, b); });
    });
  } else {
    // Computed from fmod with the CPU kernel's steps (not PyTorch CUDA's a - b * floor(a / b)),
    // so that both devices give the same bits.
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "remainder_cuda", [&] {
      using opmath_t = at::opmath_type<scalar_t>;
      opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
        opmath_t mod = std::fmod(static_cast<opmath_t>(a), static_cast<opmath_t>(b));
        if ((mod != 0) && ((b < 0) != (mod < 0))) {
          mod += static_cast<opmath_t>(b);
        }
        return static_cast<scalar_t>(mod);
      });
    });
  }
}

void fmod_kernel_cuda(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "fmod_cuda", [&] {
      opmath_gpu_kernel_with_scalars<scalar_t>(
          iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t { return c10::int_mod(a, b); });
    });
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "fmod_cuda", [&] {
      using opmath_t = at::opmath_type<scalar_t>;
      opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
        return static_cast<scalar_t>(std::fmod(static_cast<opmath_t>(a), static_cast<opmath_t>(b)));
      });
    });
  }
}

}  // namespace

REGISTER_CUDA_DISPATCH(remainder_stub, &remainder_kernel_cuda);
REGISTER_CUDA_DISPATCH(fmod_stub, &fmod_kernel_cuda);

}  // namespace at::native
