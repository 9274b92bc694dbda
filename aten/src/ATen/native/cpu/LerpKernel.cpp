// aten/src/ATen/native/cpu/LerpKernel.cpp - the CPU loops of lerp.
// Mirrors PyTorch's aten/src/ATen/native/cpu/LerpKernel.cpp. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/Lerp.h>
#include <ATen/native/cpu/Loops.h>

namespace at::native {
namespace {

void lerp_scalar_kernel(TensorIteratorBase& iter, const Scalar& weight) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "lerp_kernel_scalar", [&] {
    using opmath_t = opmath_type<scalar_t>;
    const auto weight_val = weight.to<opmath_t>();
    cpu_kernel_vec(iter, [weight_val](scalar_t self, scalar_t end) -> scalar_t { return lerp(self, end, weight_val); });
  });
}

void lerp_tensor_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "lerp_kernel_tensor", [&] {
    using opmath_t = opmath_type<scalar_t>;
    cpu_kernel_vec(iter, [](scalar_t self, scalar_t end, scalar_t weight) -> scalar_t {
      return lerp(self, end, static_cast<opmath_t>(weight));
    });
  });
}

}  // namespace

REGISTER_DISPATCH(lerp_kernel_scalar_weight, &lerp_scalar_kernel);
REGISTER_DISPATCH(lerp_kernel_tensor_weight, &lerp_tensor_kernel);

}  // namespace at::native
