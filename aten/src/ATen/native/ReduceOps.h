// aten/src/ATen/native/ReduceOps.h - the dispatch stubs of the reductions (sum, prod, max...).
// Mirrors PyTorch's aten/src/ATen/native/ReduceOps.h. Guide: docs/source/internals/tensor_iterator.rst.
// The operators (ReduceOps.cpp) build the iterator; the loops are in cpu/ReduceOpsKernel.cpp.
#pragma once

#include <ATen/native/DispatchStub.h>

namespace at {
struct TensorIteratorBase;
class Tensor;
}  // namespace at

namespace at::native {

using reduce_fn = void (*)(TensorIteratorBase&);
DECLARE_DISPATCH(reduce_fn, sum_stub);
DECLARE_DISPATCH(reduce_fn, prod_stub);
DECLARE_DISPATCH(reduce_fn, and_stub);
DECLARE_DISPATCH(reduce_fn, or_stub);
DECLARE_DISPATCH(reduce_fn, max_values_stub);
DECLARE_DISPATCH(reduce_fn, min_values_stub);
DECLARE_DISPATCH(reduce_fn, argmax_stub);
DECLARE_DISPATCH(reduce_fn, argmin_stub);
// Two outputs (values, indices) over one dim (TensorCompare.cpp's max_stub in PyTorch).
DECLARE_DISPATCH(reduce_fn, max_stub);
DECLARE_DISPATCH(reduce_fn, min_stub);

// var/std (one output) or var_mean/std_mean (two): Welford's algorithm.
using reduce_std_var_function = void (*)(TensorIteratorBase&, double correction, bool take_sqrt);
DECLARE_DISPATCH(reduce_std_var_function, std_var_stub);

using reduce_norm_fn = void (*)(TensorIteratorBase&, double p);
DECLARE_DISPATCH(reduce_norm_fn, norm_stub);

// Scans along one dim: result (same shape as self, already of the result dtype) from self.
using cum_fn = void (*)(const Tensor& result, const Tensor& self, int64_t dim);
DECLARE_DISPATCH(cum_fn, cumsum_stub);
DECLARE_DISPATCH(cum_fn, cumprod_stub);

}  // namespace at::native
