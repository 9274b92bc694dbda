// aten/src/ATen/native/ReduceOpsUtils.h - the shared front half of every reduction: which
// dims, what result shape and dtype, and the TensorIterator that walks input and result.
// Mirrors PyTorch's aten/src/ATen/native/ReduceOpsUtils.h.
// Guide: docs/source/internals/tensor_iterator.rst ("Reductions").
//
// A reduction over `dim` is an elementwise iteration in disguise: the result is given the
// input's rank with size 1 in each reduced dimension (review_reduce_result), and
// TensorIterator::reduce_op broadcasts it over the input - stride 0 along the reduced dims -
// so the kernel sees pairs (input element, the output element it folds into).
#pragma once

#include <ATen/Functions.h>
#include <ATen/TensorIterator.h>
#include <ATen/native/Resize.h>
#include <c10/core/WrapDimMinimal.h>

#include <bitset>
#include <optional>

namespace at::native {

using DimMask = std::bitset<64>;

// The reduced dims as a bit mask; no dims (None or []) means all of them.
inline DimMask make_dim_mask(OptionalIntArrayRef opt_dims, int64_t ndim, bool allow_empty_dims = false) {
  DimMask mask;
  if (!opt_dims.has_value() || (opt_dims->empty() && !allow_empty_dims)) {
    mask.flip();
    return mask;
  }
  for (int64_t d : *opt_dims) {
    const int64_t pos = c10::maybe_wrap_dim(d, ndim);
    TORCH_CHECK(pos < 64, "PyTorch doesn't support reduction operations for dim>=64");
    TORCH_CHECK(!mask[pos], "dim ", pos, " appears multiple times in the list of dims");
    mask.set(pos);
  }
  return mask;
}

// The result's shape: reduced dims dropped, or kept as 1.
inline DimVector shape_from_dim_mask(const Tensor& self, DimMask mask, bool keepdim) {
  DimVector shape;
  for (int64_t d = 0; d < self.dim(); d++) {
    if (mask[d]) {
      if (keepdim) {
        shape.push_back(1);
      }
    } else {
      shape.push_back(self.size(d));
    }
  }
  return shape;
}

// Allocate the result (or resize an out= tensor) to the reduced shape.
inline void resize_reduction_result(Tensor& result, const Tensor& self, DimMask mask, bool keepdim,
                                    ScalarType dtype) {
  auto shape = shape_from_dim_mask(self, mask, keepdim);
  if (!result.defined()) {
    result = at::empty(shape, dtype, std::nullopt, self.device(), std::nullopt, std::nullopt);
  } else {
    TORCH_CHECK(result.scalar_type() == dtype, "Expected out tensor to have dtype ", dtype, ", but got ",
                result.scalar_type(), " instead");
    resize_output(result, shape);
  }
}

// A view of the result with the input's rank: a size-1 dimension for every reduced one.
inline Tensor review_reduce_result(const Tensor& result, int64_t ndim, DimMask mask, bool keepdim) {
  if (keepdim) {
    return result;
  }
  Tensor viewed = result;
  for (int64_t d = 0; d < ndim; d++) {
    if (mask[d]) {
      viewed = viewed.unsqueeze(d);
    }
  }
  return viewed;
}

// sum/prod of integers and bools accumulate in int64; otherwise the input's dtype.
inline ScalarType get_dtype_from_self(const Tensor& self, std::optional<ScalarType> dtype, bool promote_integers) {
  if (dtype.has_value()) {
    return *dtype;
  }
  ScalarType src = self.scalar_type();
  if (promote_integers && c10::isIntegralType(src, /*includeBool=*/true)) {
    return kLong;
  }
  return src;
}

// The iterator of a one-output reduction; result is allocated (or resized) here. The input is
// converted to in_dtype first, so the kernel reads one dtype.
inline TensorIterator make_reduction(const char* name, Tensor& result, const Tensor& self, OptionalIntArrayRef dim,
                                     bool keepdim, ScalarType in_dtype, ScalarType out_dtype) {
  (void)name;
  const int64_t ndim = self.dim();
  auto mask = make_dim_mask(dim, ndim);
  resize_reduction_result(result, self, mask, keepdim, out_dtype);
  auto viewed_result = review_reduce_result(result, ndim, mask, keepdim);
  if (self.scalar_type() == in_dtype) {
    return TensorIterator::reduce_op(viewed_result, self);
  }
  return TensorIterator::reduce_op(viewed_result, self.to(in_dtype));
}

inline TensorIterator make_reduction(const char* name, Tensor& result, const Tensor& self, OptionalIntArrayRef dim,
                                     bool keepdim, ScalarType out_dtype) {
  return make_reduction(name, result, self, dim, keepdim, out_dtype, out_dtype);
}

// Two outputs (values and indices of max(dim), or var and mean).
inline TensorIterator make_reduction(const char* name, Tensor& result1, Tensor& result2, const Tensor& self,
                                     OptionalIntArrayRef dim, bool keepdim, ScalarType dtype1, ScalarType dtype2) {
  (void)name;
  const int64_t ndim = self.dim();
  auto mask = make_dim_mask(dim, ndim);
  resize_reduction_result(result1, self, mask, keepdim, dtype1);
  resize_reduction_result(result2, self, mask, keepdim, dtype2);
  auto viewed1 = review_reduce_result(result1, ndim, mask, keepdim);
  auto viewed2 = review_reduce_result(result2, ndim, mask, keepdim);
  // var_mean of a complex input has a real var (dtype1) and a complex mean: read it as is.
  const bool read_as_is = self.scalar_type() == dtype1 || self.scalar_type() == dtype2;
  return TensorIterator::reduce_op(viewed1, viewed2, read_as_is ? self : self.to(dtype1));
}

// max(dim) and friends have no identity: an empty reduced dimension is an IndexError.
inline void zero_numel_check_dims(const Tensor& self, int64_t dim, const char* fn_name) {
  if (self.dim() == 0) {
    TORCH_CHECK_INDEX(dim == 0 || dim == -1, fn_name, "(): Expected reduction dim -1 or 0 for scalar but got ", dim);
  } else {
    TORCH_CHECK_INDEX(self.size(dim) != 0, fn_name, "(): Expected reduction dim ", dim, " to have non-zero size.");
  }
}

inline void zero_numel_check_dims(const Tensor& self, IntArrayRef dim, const char* fn_name) {
  TORCH_CHECK(!dim.empty(), fn_name, "(): Expected reduction dim to be specified for input.numel() == 0. ",
              "Specify the reduction dim with the 'dim' argument.");
  for (int64_t d : dim) {
    zero_numel_check_dims(self, c10::maybe_wrap_dim(d, self.dim()), fn_name);
  }
}

}  // namespace at::native
