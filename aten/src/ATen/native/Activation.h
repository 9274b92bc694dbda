// aten/src/ATen/native/Activation.h - stubs of the activation functions.
// Mirrors PyTorch's aten/src/ATen/native/Activation.h. Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <ATen/native/DispatchStub.h>
#include <c10/core/Scalar.h>

#include <cstdint>

namespace at {
struct TensorIteratorBase;
}

namespace at::native {

// approximate="none" (exact, with erf) or "tanh".
enum class GeluType { None, Tanh, END };

DECLARE_DISPATCH(void (*)(TensorIteratorBase&, GeluType), GeluKernel);
// gelu's backward (inputs: grad_output, self).
DECLARE_DISPATCH(void (*)(TensorIteratorBase&, GeluType), GeluBackwardKernel);
DECLARE_DISPATCH(void (*)(TensorIteratorBase&), silu_stub);
// elu: x > 0 ? scale * x : alpha * scale * (exp(input_scale * x) - 1).
DECLARE_DISPATCH(void (*)(TensorIteratorBase&, const c10::Scalar& alpha, const c10::Scalar& scale,
                          const c10::Scalar& input_scale),
                 elu_stub);
// relu's backward: grad where self > threshold, else 0 (inputs: self, grad).
DECLARE_DISPATCH(void (*)(TensorIteratorBase&, const c10::Scalar&), threshold_backward_stub);

}  // namespace at::native
