// aten/src/ATen/native/cuda/PowKernel.cu - pow on CUDA tensors: tensor ** tensor (a CPU scalar
// base, 2 ** t, comes here too) and tensor ** number. Mirrors PyTorch's
// aten/src/ATen/native/cuda/PowKernel.cu. Guide: docs/source/internals/cuda_simulated_device.rst.
//
// Complex dtypes are not dispatched: their pow is exp(exp * log(base)), and c10::complex's
// exp and log are host functions in this tree.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cuda/Loops.cuh>
#include <c10/util/generic_math.h>

#include <cmath>
#include <type_traits>

namespace at::native {
namespace {

using c10::powi;  // c10/util/generic_math.h, shared with the CPU kernel

void pow_tensor_tensor_kernel_cuda(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "pow_cuda", [&] {
      opmath_gpu_kernel_with_scalars<scalar_t>(
          iter, [] GPU_LAMBDA(scalar_t base, scalar_t exp) -> scalar_t { return powi(base, exp); });
    });
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "pow_cuda", [&] {
      using opmath_t = at::opmath_type<scalar_t>;
      opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t base, scalar_t exp) -> scalar_t {
        return static_cast<scalar_t>(std::pow(static_cast<opmath_t>(base), static_cast<opmath_t>(exp)));
      });
    });
  }
}

// The exponent is a number, read once on the host; the iterator has one input, the base
// already converted to the result dtype (BinaryOps.cpp).
void pow_tensor_scalar_kernel_cuda(TensorIteratorBase& iter, const Scalar& exp_scalar) {
  const auto dtype = iter.common_dtype();
  if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "pow_cuda", [&] {
      const auto exp = exp_scalar.to<scalar_t>();
      gpu_kernel(iter, [exp] GPU_LAMBDA(scalar_t base) -> scalar_t { return powi(base, exp); });
    });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "pow_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const auto exp = exp_scalar.to<opmath_t>();
    // The exponents the CPU kernel special-cases get the same exact forms here, so that both
    // devices agree to the bit (x ** 2 is x * x, not std::pow's approximation).
    if (exp == opmath_t(2)) {
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t base_) -> scalar_t {
        const opmath_t base = base_;
        return static_cast<scalar_t>(base * base);
      });
    } else if (exp == opmath_t(0.5)) {
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t base) -> scalar_t {
        return static_cast<scalar_t>(std::sqrt(static_cast<opmath_t>(base)));
      });
    } else if (exp == opmath_t(-1)) {
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t base) -> scalar_t {
        return static_cast<scalar_t>(opmath_t(1) / static_cast<opmath_t>(base));
      });
    } else {
      gpu_kernel(iter, [exp] GPU_LAMBDA(scalar_t base) -> scalar_t {
        return static_cast<scalar_t>(std::pow(static_cast<opmath_t>(base), exp));
      });
    }
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(pow_tensor_tensor_stub, &pow_tensor_tensor_kernel_cuda);
REGISTER_CUDA_DISPATCH(pow_tensor_scalar_stub, &pow_tensor_scalar_kernel_cuda);

}  // namespace at::native
