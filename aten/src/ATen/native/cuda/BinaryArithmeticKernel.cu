// aten/src/ATen/native/cuda/BinaryArithmeticKernel.cu - add (and sub, which is add with -alpha),
// mul and true division on CUDA tensors: one GPU_LAMBDA per operator, computed in opmath_t
// (float for Half and BFloat16). Mirrors PyTorch's binary-op kernels in aten/src/ATen/native/cuda
// (BinaryMulKernel.cu, BinaryDivTrueKernel.cu and the CUDA add_kernel), gathered in one file.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <type_traits>

namespace at::native {
namespace {

// bool arithmetic is logic: + is or, * is and (what the integer arithmetic gives, cast back
// to bool, without the compiler's "'*' in boolean context" warning).
template <typename T>
__host__ __device__ T multiply(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else {
    return a * b;
  }
}

// [marker: add_kernel_cuda]
void add_kernel_cuda(TensorIteratorBase& iter, const Scalar& alpha_scalar) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.common_dtype(), "add_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const auto alpha = alpha_scalar.to<opmath_t>();
    opmath_gpu_kernel_with_scalars<opmath_t>(iter, [alpha] GPU_LAMBDA(opmath_t a, opmath_t b) -> scalar_t {
      return static_cast<scalar_t>(a + multiply(alpha, b));
    });
  });
}
// [end marker: add_kernel_cuda]

void mul_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.common_dtype(), "mul_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    opmath_gpu_kernel_with_scalars<opmath_t>(
        iter, [] GPU_LAMBDA(opmath_t a, opmath_t b) -> scalar_t { return static_cast<scalar_t>(multiply(a, b)); });
  });
}

void div_true_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "div_true_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    opmath_gpu_kernel_with_scalars<opmath_t>(
        iter, [] GPU_LAMBDA(opmath_t a, opmath_t b) -> scalar_t { return static_cast<scalar_t>(a / b); });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(add_stub, &add_kernel_cuda);
REGISTER_CUDA_DISPATCH(mul_stub, &mul_kernel_cuda);
REGISTER_CUDA_DISPATCH(div_true_stub, &div_true_kernel_cuda);

}  // namespace at::native
