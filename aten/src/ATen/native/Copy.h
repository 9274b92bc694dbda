// aten/src/ATen/native/Copy.h - copy_stub, the per-device loop behind Tensor.copy_.
// Mirrors PyTorch's aten/src/ATen/native/Copy.h. Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <ATen/native/DispatchStub.h>

namespace at {
struct TensorIterator;
}

namespace at::native {

using copy_fn = void (*)(TensorIterator&, bool non_blocking);
DECLARE_DISPATCH(copy_fn, copy_stub);

}  // namespace at::native
