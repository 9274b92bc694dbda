// aten/src/ATen/native/cpu/TensorCompareKernel.cpp - the CPU loops of where and clamp.
// Mirrors PyTorch's aten/src/ATen/native/cpu/TensorCompareKernel.cpp (where) and
// UnaryOpsKernel.cpp / BinaryOpsKernel.cpp (clamp). Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/TensorCompare.h>
#include <ATen/native/cpu/Loops.h>

#include <algorithm>
#include <limits>

namespace at::native {
namespace {

void where_kernel_impl(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND4(kBool, kHalf, kBFloat16, kComplexHalf, iter.dtype(), "where_cpu", [&] {
    cpu_kernel_vec(iter, [](bool cond, scalar_t a, scalar_t b) -> scalar_t { return cond ? a : b; });
  });
}

// std::min(std::max(a, lo), hi) keeps a NaN `a` (both comparisons are false). A bound goes
// through Scalar::to<scalar_t>, checked: one the dtype cannot hold (70000 for Half, 300 for
// int8) is PyTorch's "value cannot be converted to type c10::Half without overflow".
void clamp_scalar_kernel_impl(TensorIteratorBase& iter, Scalar min_, Scalar max_) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "clamp_scalar_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    const opmath_t min = min_.to<scalar_t>();
    const opmath_t max = max_.to<scalar_t>();
    cpu_kernel_vec(iter, [=](scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return std::min(std::max(a, min), max);
    });
  });
}

void clamp_min_scalar_kernel_impl(TensorIteratorBase& iter, Scalar min_) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "clamp_min_scalar_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    const opmath_t min = min_.to<scalar_t>();
    cpu_kernel_vec(iter, [=](scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return std::max(a, min);
    });
  });
}

void clamp_max_scalar_kernel_impl(TensorIteratorBase& iter, Scalar max_) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "clamp_max_scalar_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    const opmath_t max = max_.to<scalar_t>();
    cpu_kernel_vec(iter, [=](scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      return std::min(a, max);
    });
  });
}

void clamp_kernel_impl(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "clamp_cpu", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel_vec(iter, [](scalar_t a_, scalar_t min_, scalar_t max_) -> scalar_t {
      const opmath_t a = a_, min = min_, max = max_;
      if (min != min || max != max) {
        return std::numeric_limits<opmath_t>::quiet_NaN();
      }
      return std::min(std::max(a, min), max);
    });
  });
}

}  // namespace

REGISTER_DISPATCH(where_kernel, &where_kernel_impl);
REGISTER_DISPATCH(clamp_scalar_stub, &clamp_scalar_kernel_impl);
REGISTER_DISPATCH(clamp_min_scalar_stub, &clamp_min_scalar_kernel_impl);
REGISTER_DISPATCH(clamp_max_scalar_stub, &clamp_max_scalar_kernel_impl);
REGISTER_DISPATCH(clamp_stub, &clamp_kernel_impl);

}  // namespace at::native
