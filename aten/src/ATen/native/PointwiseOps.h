// aten/src/ATen/native/PointwiseOps.h - stubs of addcmul and addcdiv.
// Mirrors PyTorch's aten/src/ATen/native/PointwiseOps.h. Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <ATen/native/DispatchStub.h>
#include <c10/core/Scalar.h>

namespace at {
struct TensorIteratorBase;
}

namespace at::native {

using pointwise_fn = void (*)(TensorIteratorBase&, const Scalar& scalar);
DECLARE_DISPATCH(pointwise_fn, addcmul_stub);
DECLARE_DISPATCH(pointwise_fn, addcdiv_stub);
// norm * (input - target) * grad_output over (grad_input, input, target, grad_output).
DECLARE_DISPATCH(pointwise_fn, mse_backward_stub);

}  // namespace at::native
