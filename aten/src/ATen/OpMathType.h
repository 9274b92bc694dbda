// aten/src/ATen/OpMathType.h - the type arithmetic on a dtype is done in: float for
// float16/bfloat16 (16 bits are for storage; sums and products need float's precision), the
// type itself otherwise. Mirrors PyTorch's aten/src/ATen/OpMathType.h.
// Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

namespace at {

template <typename scalar_t>
struct OpMathType {
  using type = scalar_t;
};
template <>
struct OpMathType<c10::Half> {
  using type = float;
};
template <>
struct OpMathType<c10::BFloat16> {
  using type = float;
};

template <typename T>
using opmath_type = typename OpMathType<T>::type;

}  // namespace at
