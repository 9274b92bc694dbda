// aten/src/ATen/native/cpu/PointwiseOpsKernel.cpp - the CPU loops of addcmul, addcdiv and
// mse_loss_backward.
// Mirrors PyTorch's aten/src/ATen/native/cpu/PointwiseOpsKernel.cpp. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/PointwiseOps.h>
#include <ATen/native/cpu/Loops.h>
#include <ATen/native/cpu/fmadd.h>

namespace at::native {
namespace {

void addcmul_cpu_kernel(TensorIteratorBase& iter, const Scalar& value) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "addcmul_cpu_out", [&] {
    using opmath_t = opmath_type<scalar_t>;
    const auto scalar_val = value.to<opmath_t>();
    cpu_kernel_vec(iter, [=](scalar_t self_val, scalar_t t1_val, scalar_t t2_val) -> scalar_t {
      // self + (value * t1) * t2, the last multiply-add rounded once (as PyTorch's FMA build).
      return fmadd<opmath_t>(scalar_val * static_cast<opmath_t>(t1_val), static_cast<opmath_t>(t2_val),
                   static_cast<opmath_t>(self_val));
    });
  });
}

void addcdiv_cpu_kernel(TensorIteratorBase& iter, const Scalar& value) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "addcdiv_cpu_out", [&] {
    using opmath_t = opmath_type<scalar_t>;
    const auto scalar_val = value.to<opmath_t>();
    cpu_kernel_vec(iter, [=](scalar_t self_val, scalar_t t1_val, scalar_t t2_val) -> scalar_t {
      return static_cast<opmath_t>(self_val) +
             scalar_val * static_cast<opmath_t>(t1_val) / static_cast<opmath_t>(t2_val);
    });
  });
}

// mse_loss_backward: norm * (input - target) * grad_output, norm = 2 (or 2 / numel for 'mean').
void mse_backward_cpu_kernel(TensorIteratorBase& iter, const Scalar& value) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "mse_backward_cpu_out", [&] {
    using opmath_t = opmath_type<scalar_t>;
    const auto norm = value.to<opmath_t>();
    cpu_kernel(iter, [=](scalar_t input, scalar_t target, scalar_t grad_output) -> scalar_t {
      return norm * (static_cast<opmath_t>(input) - static_cast<opmath_t>(target)) *
             static_cast<opmath_t>(grad_output);
    });
  });
}

}  // namespace

REGISTER_DISPATCH(mse_backward_stub, &mse_backward_cpu_kernel);
REGISTER_DISPATCH(addcmul_stub, &addcmul_cpu_kernel);
REGISTER_DISPATCH(addcdiv_stub, &addcdiv_cpu_kernel);

}  // namespace at::native
