// aten/src/ATen/native/TensorCompare.h - stubs of where and clamp.
// Mirrors PyTorch's aten/src/ATen/native/TensorCompare.h. Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <ATen/native/DispatchStub.h>
#include <c10/core/Scalar.h>

namespace at {
struct TensorIterator;
struct TensorIteratorBase;
}  // namespace at

namespace at::native {

DECLARE_DISPATCH(void (*)(TensorIterator&), where_kernel);
DECLARE_DISPATCH(void (*)(TensorIteratorBase&), clamp_stub);
DECLARE_DISPATCH(void (*)(TensorIteratorBase&, Scalar, Scalar), clamp_scalar_stub);
DECLARE_DISPATCH(void (*)(TensorIteratorBase&, Scalar), clamp_min_scalar_stub);
DECLARE_DISPATCH(void (*)(TensorIteratorBase&, Scalar), clamp_max_scalar_stub);

}  // namespace at::native
