// aten/src/ATen/native/IndexKernel.h - stubs of the indexing kernels (masked_fill so far).
// Mirrors PyTorch's aten/src/ATen/native/IndexKernel.h. Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <ATen/native/DispatchStub.h>
#include <c10/core/Scalar.h>

namespace at {
struct TensorIterator;
}

namespace at::native {

DECLARE_DISPATCH(void (*)(TensorIterator&, const Scalar& value), masked_fill_stub);

}  // namespace at::native
