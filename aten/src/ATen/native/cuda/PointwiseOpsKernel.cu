// aten/src/ATen/native/cuda/PointwiseOpsKernel.cu - addcmul (self + value * t1 * t2), addcdiv
// (self + value * t1 / t2) and mse_loss_backward on CUDA tensors. Mirrors PyTorch's
// aten/src/ATen/native/cuda/PointwiseOpsKernel.cu; the arithmetic is that of this tree's
// cpu/PointwiseOpsKernel.cpp. Guide: docs/source/internals/cuda_simulated_device.rst.
//
// The iterator (ternary_op) admits no CPU scalar, so gpu_kernel sees three device inputs; they
// may still differ in dtype (promoted to the common dtype, converted as they are loaded).
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/PointwiseOps.h>
#include <ATen/native/cpu/fmadd.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

void addcmul_kernel_cuda(TensorIteratorBase& iter, const Scalar& value) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "addcmul_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const auto scalar_val = value.to<opmath_t>();
    gpu_kernel(iter, [scalar_val] GPU_LAMBDA(scalar_t self_val, scalar_t t1_val, scalar_t t2_val) -> scalar_t {
      // The last multiply-add rounded once, as on the CPU.
      return static_cast<scalar_t>(fmadd<opmath_t>(scalar_val * static_cast<opmath_t>(t1_val),
                                                   static_cast<opmath_t>(t2_val), static_cast<opmath_t>(self_val)));
    });
  });
}

// Integer tensor1 and tensor2 were refused by PointwiseOps.cpp (integer division).
void addcdiv_kernel_cuda(TensorIteratorBase& iter, const Scalar& value) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "addcdiv_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const auto scalar_val = value.to<opmath_t>();
    gpu_kernel(iter, [scalar_val] GPU_LAMBDA(scalar_t self_val, scalar_t t1_val, scalar_t t2_val) -> scalar_t {
      return static_cast<scalar_t>(static_cast<opmath_t>(self_val) +
                                   scalar_val * static_cast<opmath_t>(t1_val) / static_cast<opmath_t>(t2_val));
    });
  });
}

// mse_loss_backward: norm * (input - target) * grad_output, norm = 2 (or 2 / numel for 'mean').
void mse_backward_kernel_cuda(TensorIteratorBase& iter, const Scalar& value) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, iter.common_dtype(), "mse_backward_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const auto norm = value.to<opmath_t>();
    gpu_kernel(iter, [norm] GPU_LAMBDA(scalar_t input, scalar_t target, scalar_t grad_output) -> scalar_t {
      return static_cast<scalar_t>(norm * (static_cast<opmath_t>(input) - static_cast<opmath_t>(target)) *
                                   static_cast<opmath_t>(grad_output));
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(mse_backward_stub, &mse_backward_kernel_cuda);
REGISTER_CUDA_DISPATCH(addcmul_stub, &addcmul_kernel_cuda);
REGISTER_CUDA_DISPATCH(addcdiv_stub, &addcdiv_kernel_cuda);

}  // namespace at::native
