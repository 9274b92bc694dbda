// aten/src/ATen/native/TensorAdvancedIndexing.h - stubs of gather / scatter / scatter_add.
// Mirrors PyTorch's aten/src/ATen/native/TensorAdvancedIndexing.h. Guide: docs/source/internals/tensors.rst.
#pragma once

#include <ATen/native/DispatchStub.h>
#include <c10/core/Scalar.h>

namespace at {
struct TensorIterator;
class Tensor;
}

namespace at::native {

// scatter's reduce= (scatter_add is ADD): how a written value meets the one already there.
enum class ReductionType { NONE, ADD, MULTIPLY };

// Each kernel runs over an iterator in the index's shape. `dim` is the scattered/gathered
// dimension: along it the restrided self (or src) has stride 0 and the kernel adds
// index * dim_stride (bytes) to the pointer, after checking 0 <= index < dim_size.
// gather:       iter = (out, self restrided, index)
// scatter:      iter = (self restrided, src restrided, index)
// scatter_fill: iter = (self restrided, index), writes value
using gather_fn = void (*)(TensorIterator&, int64_t dim, int64_t dim_size, int64_t dim_stride);
using scatter_fn = void (*)(TensorIterator&, int64_t dim, int64_t dim_size, int64_t dim_stride, ReductionType);
using scatter_fill_fn = void (*)(TensorIterator&, int64_t dim, int64_t dim_size, int64_t dim_stride,
                                 const Scalar& value, ReductionType);
DECLARE_DISPATCH(gather_fn, gather_stub);
DECLARE_DISPATCH(scatter_fn, scatter_stub);
DECLARE_DISPATCH(scatter_fill_fn, scatter_fill_stub);

// index_add_'s argument checks with PyTorch's messages, for both devices; returns dim wrapped.
TORCH_API int64_t index_add_check(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source);

}  // namespace at::native
