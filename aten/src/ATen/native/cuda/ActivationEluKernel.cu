// aten/src/ATen/native/cuda/ActivationEluKernel.cu - elu on CUDA tensors.
// Mirrors PyTorch's aten/src/ATen/native/cuda/ActivationEluKernel.cu; the formula is that of
// this tree's cpu/Activation.cpp. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/Activation.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cmath>

namespace at::native {
namespace {

void elu_kernel_cuda(TensorIteratorBase& iter, const c10::Scalar& alpha, const c10::Scalar& scale,
                     const c10::Scalar& input_scale) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.dtype(), "elu_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const opmath_t negcoef = alpha.to<opmath_t>() * scale.to<opmath_t>();
    const opmath_t poscoef = scale.to<opmath_t>();
    const opmath_t negiptcoef = input_scale.to<opmath_t>();
    gpu_kernel(iter, [negcoef, poscoef, negiptcoef] GPU_LAMBDA(scalar_t x_) -> scalar_t {
      const opmath_t x = x_;
      return static_cast<scalar_t>(x <= opmath_t(0) ? std::expm1(x * negiptcoef) * negcoef : x * poscoef);
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(elu_stub, &elu_kernel_cuda);

}  // namespace at::native
