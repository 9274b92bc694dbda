// c10/core/WrapDimMinimal.h - turn a possibly negative dimension into an index.
// Mirrors PyTorch's c10/core/WrapDimMinimal.h. Guide: docs/source/internals/tensors.rst.
#pragma once

#include <c10/util/Exception.h>

#include <cstdint>

namespace c10 {

// dim in [-dim_post_expr, dim_post_expr) -> [0, dim_post_expr); a 0-d tensor accepts 0 and -1.
// Out of range is an IndexError: "Dimension out of range (expected to be in range of [-2, 1], but got 5)".
inline int64_t maybe_wrap_dim(int64_t dim, int64_t dim_post_expr, bool wrap_scalar = true) {
  if (dim_post_expr <= 0) {
    TORCH_CHECK_INDEX(wrap_scalar, "Dimension specified as ", dim, " but tensor has no dimensions");
    dim_post_expr = 1;  // a scalar behaves like a 1-d tensor here
  }
  const int64_t min = -dim_post_expr;
  const int64_t max = dim_post_expr - 1;
  TORCH_CHECK_INDEX(min <= dim && dim <= max, "Dimension out of range (expected to be in range of [",
                    min, ", ", max, "], but got ", dim, ")");
  return dim < 0 ? dim + dim_post_expr : dim;
}

}  // namespace c10
