// aten/src/ATen/native/cuda/UnaryFractionKernels.cu - floor, ceil, round (also with decimals),
// trunc and reciprocal on CUDA tensors. Mirrors PyTorch's
// aten/src/ATen/native/cuda/UnaryFractionKernels.cu; the semantics are those of this tree's
// cpu/UnaryOpsKernel.cpp. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cmath>
#include <type_traits>

namespace at::native {
namespace {

// floor/ceil/round/trunc of an integer is the integer itself; a floating value is rounded in
// opmath_t. (A template, so that `if constexpr` drops the std::floor(int) branch.) round is
// std::nearbyint, which rounds half to even in the default rounding mode, on the GPU too:
// round(2.5) == 2, as in PyTorch.
#define ROUNDING_KERNEL_CUDA(name, fn)                                                       \
  template <typename scalar_t>                                                               \
  __host__ __device__ scalar_t name##_one(scalar_t a) {                                      \
    if constexpr (std::is_integral_v<scalar_t>) {                                            \
      return a;                                                                              \
    } else {                                                                                 \
      return static_cast<scalar_t>(fn(static_cast<at::opmath_type<scalar_t>>(a)));          \
    }                                                                                        \
  }                                                                                          \
  void name##_kernel_cuda(TensorIteratorBase& iter) {                                        \
    AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), #name "_cuda", [&] {   \
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t { return name##_one(a); });     \
    });                                                                                      \
  }

ROUNDING_KERNEL_CUDA(floor, std::floor)
ROUNDING_KERNEL_CUDA(ceil, std::ceil)
ROUNDING_KERNEL_CUDA(trunc, std::trunc)
ROUNDING_KERNEL_CUDA(round, std::nearbyint)

#undef ROUNDING_KERNEL_CUDA

// round(x, decimals=d): nearbyint(x * 10^d) / 10^d, or for d < 0 nearbyint(x / 10^-d) * 10^-d
// (dividing by the exact 10^-d rather than multiplying by the inexact 10^d). 10^|d| is
// computed once, on the host.
void round_decimals_kernel_cuda(TensorIteratorBase& iter, int64_t decimals) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "round_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const bool neg_flag = decimals < 0;
    const opmath_t ten_pow_decimals = static_cast<opmath_t>(std::pow(10, neg_flag ? -decimals : decimals));
    gpu_kernel(iter, [ten_pow_decimals, neg_flag] GPU_LAMBDA(scalar_t a) -> scalar_t {
      return static_cast<scalar_t>(
          neg_flag ? std::nearbyint(static_cast<opmath_t>(a) / ten_pow_decimals) * ten_pow_decimals
                   : std::nearbyint(static_cast<opmath_t>(a) * ten_pow_decimals) / ten_pow_decimals);
    });
  });
}

// 1 / a: plain division, so complex dtypes are dispatched too (c10::complex's operator/ is
// constexpr and runs on the device).
void reciprocal_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "reciprocal_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t {
      return static_cast<scalar_t>(opmath_t(1) / static_cast<opmath_t>(a));
    });
  });
}

// frac(x) = x - trunc(x), floating dtypes only (as on the CPU).
void frac_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "frac_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(a - std::trunc(a));
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(floor_stub, &floor_kernel_cuda);
REGISTER_CUDA_DISPATCH(ceil_stub, &ceil_kernel_cuda);
REGISTER_CUDA_DISPATCH(trunc_stub, &trunc_kernel_cuda);
REGISTER_CUDA_DISPATCH(round_stub, &round_kernel_cuda);
REGISTER_CUDA_DISPATCH(round_decimals_stub, &round_decimals_kernel_cuda);
REGISTER_CUDA_DISPATCH(reciprocal_stub, &reciprocal_kernel_cuda);
REGISTER_CUDA_DISPATCH(frac_stub, &frac_kernel_cuda);

}  // namespace at::native
