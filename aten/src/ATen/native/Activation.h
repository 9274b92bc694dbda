// aten/src/ATen/native/Activation.h - stubs of the activation functions.
// Mirrors PyTorch's aten/src/ATen/native/Activation.h. Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <ATen/native/DispatchStub.h>

#include <cstdint>

namespace at {
struct TensorIteratorBase;
}

namespace at::native {

// approximate="none" (exact, with erf) or "tanh".
enum class GeluType { None, Tanh, END };

DECLARE_DISPATCH(void (*)(TensorIteratorBase&, GeluType), GeluKernel);
DECLARE_DISPATCH(void (*)(TensorIteratorBase&), silu_stub);

}  // namespace at::native
