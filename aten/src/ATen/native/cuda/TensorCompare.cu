// aten/src/ATen/native/cuda/TensorCompare.cu - where and clamp (with number or tensor bounds,
// clamp_min, clamp_max, and through clamp_min relu) on CUDA tensors. Mirrors PyTorch's
// aten/src/ATen/native/cuda/TensorCompare.cu (where) and the clamp kernels of its
// UnaryOpsKernel.cu / TensorCompare.cu; the semantics are those of this tree's
// cpu/TensorCompareKernel.cpp. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/NumericUtils.h>
#include <ATen/OpMathType.h>
#include <ATen/native/TensorCompare.h>
#include <ATen/native/cuda/Loops.cuh>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace at::native {
namespace {

// TensorCompare.cpp has already converted self and other to the output's dtype and the
// condition to bool, and its iterator admits no CPU scalar: the loads need no conversion.
// Selecting moves bytes only, so complex dtypes are dispatched too.
void where_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "where_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(bool cond, scalar_t a, scalar_t b) -> scalar_t { return cond ? a : b; });
  });
}

// std::min(std::max(a, lo), hi) keeps a NaN `a` (both comparisons are false). The bounds go
// through Scalar::to<scalar_t> on the host, checked: one the dtype cannot hold raises PyTorch's
// "value cannot be converted to type c10::Half without overflow", as on the CPU.
void clamp_scalar_kernel_cuda(TensorIteratorBase& iter, Scalar min_, Scalar max_) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "clamp_scalar_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const opmath_t min = min_.to<scalar_t>();
    const opmath_t max = max_.to<scalar_t>();
    gpu_kernel(iter, [=] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(std::min(std::max(a, min), max));
    });
  });
}

void clamp_min_scalar_kernel_cuda(TensorIteratorBase& iter, Scalar min_) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "clamp_min_scalar_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const opmath_t min = min_.to<scalar_t>();
    gpu_kernel(iter, [=] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(std::max(a, min));
    });
  });
}

void clamp_max_scalar_kernel_cuda(TensorIteratorBase& iter, Scalar max_) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "clamp_max_scalar_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const opmath_t max = max_.to<scalar_t>();
    gpu_kernel(iter, [=] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return static_cast<scalar_t>(std::min(a, max));
    });
  });
}

// Both bounds are tensors (one bound alone is maximum/minimum, MaxMinElementwiseKernel.cu). The
// operands may differ in dtype: each is converted to the common dtype as it is loaded. A NaN
// bound makes the element NaN.
void clamp_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "clamp_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a_, scalar_t min_, scalar_t max_) -> scalar_t {
      const opmath_t a = a_, min = min_, max = max_;
      if (at::_isnan(min) || at::_isnan(max)) {
        return static_cast<scalar_t>(std::numeric_limits<opmath_t>::quiet_NaN());
      }
      return static_cast<scalar_t>(std::min(std::max(a, min), max));
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(where_kernel, &where_kernel_cuda);
REGISTER_CUDA_DISPATCH(clamp_scalar_stub, &clamp_scalar_kernel_cuda);
REGISTER_CUDA_DISPATCH(clamp_min_scalar_stub, &clamp_min_scalar_kernel_cuda);
REGISTER_CUDA_DISPATCH(clamp_max_scalar_stub, &clamp_max_scalar_kernel_cuda);
REGISTER_CUDA_DISPATCH(clamp_stub, &clamp_kernel_cuda);

}  // namespace at::native
