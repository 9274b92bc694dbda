// aten/src/ATen/native/cuda/MaxMinElementwiseKernel.cu - maximum and minimum on CUDA tensors
// (also clamp with only one tensor bound, TensorCompare.cpp). NaN propagates, unlike std::max,
// whose answer depends on the argument order. Mirrors PyTorch's
// aten/src/ATen/native/cuda/MaxMinElementwiseKernel.cu.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <algorithm>
#include <limits>

namespace at::native {
namespace {

void maximum_kernel_cuda(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (dtype == kBool) {
    opmath_gpu_kernel_with_scalars<bool>(iter, [] GPU_LAMBDA(bool a, bool b) -> bool { return a || b; });
  } else if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "maximum_cuda", [&] {
      opmath_gpu_kernel_with_scalars<scalar_t>(
          iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t { return std::max(a, b); });
    });
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "maximum_cuda", [&] {
      using opmath_t = at::opmath_type<scalar_t>;
      opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a_, scalar_t b_) -> scalar_t {
        const opmath_t a = a_, b = b_;
        if (a != a || b != b) {
          return std::numeric_limits<opmath_t>::quiet_NaN();
        }
        return std::max(a, b);
      });
    });
  }
}

void minimum_kernel_cuda(TensorIteratorBase& iter) {
  const auto dtype = iter.common_dtype();
  if (dtype == kBool) {
    opmath_gpu_kernel_with_scalars<bool>(iter, [] GPU_LAMBDA(bool a, bool b) -> bool { return a && b; });
  } else if (isIntegralType(dtype, /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(dtype, "minimum_cuda", [&] {
      opmath_gpu_kernel_with_scalars<scalar_t>(
          iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t { return std::min(a, b); });
    });
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, dtype, "minimum_cuda", [&] {
      using opmath_t = at::opmath_type<scalar_t>;
      opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a_, scalar_t b_) -> scalar_t {
        const opmath_t a = a_, b = b_;
        if (a != a || b != b) {
          return std::numeric_limits<opmath_t>::quiet_NaN();
        }
        return std::min(a, b);
      });
    });
  }
}

// fmax/fmin: a NaN loses to a number (std::fmax); integers and bool are maximum/minimum.
void fmax_kernel_cuda(TensorIteratorBase& iter) {
  if (isFloatingType(iter.common_dtype())) {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "fmax_cuda", [&] {
      using opmath_t = at::opmath_type<scalar_t>;
      opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
        return static_cast<scalar_t>(std::fmax(static_cast<opmath_t>(a), static_cast<opmath_t>(b)));
      });
    });
  } else {
    maximum_kernel_cuda(iter);
  }
}

void fmin_kernel_cuda(TensorIteratorBase& iter) {
  if (isFloatingType(iter.common_dtype())) {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "fmin_cuda", [&] {
      using opmath_t = at::opmath_type<scalar_t>;
      opmath_gpu_kernel_with_scalars<scalar_t>(iter, [] GPU_LAMBDA(scalar_t a, scalar_t b) -> scalar_t {
        return static_cast<scalar_t>(std::fmin(static_cast<opmath_t>(a), static_cast<opmath_t>(b)));
      });
    });
  } else {
    minimum_kernel_cuda(iter);
  }
}

}  // namespace

REGISTER_CUDA_DISPATCH(maximum_stub, &maximum_kernel_cuda);
REGISTER_CUDA_DISPATCH(minimum_stub, &minimum_kernel_cuda);
REGISTER_CUDA_DISPATCH(fmax_stub, &fmax_kernel_cuda);
REGISTER_CUDA_DISPATCH(fmin_stub, &fmin_kernel_cuda);

}  // namespace at::native
