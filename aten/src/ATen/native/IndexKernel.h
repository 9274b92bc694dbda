// aten/src/ATen/native/IndexKernel.h - stubs of the indexing kernels: masked_fill, index
// (t[idx]), index_put_ (t[idx] = v), take.
// Mirrors PyTorch's aten/src/ATen/native/IndexKernel.h. Guide: docs/source/internals/tensors.rst.
#pragma once

#include <ATen/native/DispatchStub.h>
#include <c10/core/Scalar.h>
#include <c10/util/ArrayRef.h>

namespace at {
struct TensorIterator;
class Tensor;
}  // namespace at

namespace at::native {

DECLARE_DISPATCH(void (*)(TensorIterator&, const Scalar& value), masked_fill_stub);
// iter: (out, src restrided, index...); indexed_sizes / indexed_strides (bytes) of the
// indexed dimensions of src, one per index tensor.
using index_fn = void (*)(TensorIterator&, c10::IntArrayRef indexed_sizes, c10::IntArrayRef indexed_strides);
using index_put_fn = void (*)(TensorIterator&, c10::IntArrayRef indexed_sizes, c10::IntArrayRef indexed_strides,
                              bool accumulate);
DECLARE_DISPATCH(index_fn, index_stub);
DECLARE_DISPATCH(index_put_fn, index_put_stub);
// iter: (out, index); src is the contiguous input read as a flat array.
DECLARE_DISPATCH(void (*)(TensorIterator&, const Tensor& src), take_stub);

}  // namespace at::native
