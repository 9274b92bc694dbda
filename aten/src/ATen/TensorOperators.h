// aten/src/ATen/TensorOperators.h - a + b, a * 2, -a, a <= 0 ... on at::Tensor in C++.
// Mirrors PyTorch's aten/src/ATen/TensorOperators.h. Guide: docs/source/internals/autograd.rst.
//
// Each operator is the at:: function it spells (a + b is at::add(a, b)), so it goes through
// the dispatcher like any call: the derivative formulas of derivatives.yaml, written with
// these, are recorded when create_graph=True.
#pragma once

#include <ATen/Functions.h>

namespace at {

inline Tensor operator-(const Tensor& t) {
  return at::neg(t);
}

#define AT_FORALL_BINARY_OPS(_) \
  _(+, add)                     \
  _(-, sub)                     \
  _(*, mul)                     \
  _(/, div)

#define DEFINE_OPERATOR(op, name)                                \
  inline Tensor operator op(const Tensor& x, const Tensor& y) {  \
    return at::name(x, y);                                       \
  }                                                              \
  inline Tensor operator op(const Tensor& x, const Scalar& y) {  \
    return at::name(x, y);                                       \
  }
AT_FORALL_BINARY_OPS(DEFINE_OPERATOR)
#undef DEFINE_OPERATOR
#undef AT_FORALL_BINARY_OPS

// Scalar on the left: 2 + t, 1 - t, 2 * t, 1 / t.
inline Tensor operator+(const Scalar& x, const Tensor& y) {
  return at::add(y, x);
}
inline Tensor operator-(const Scalar& x, const Tensor& y) {
  return at::neg(at::sub(y, x));
}
inline Tensor operator*(const Scalar& x, const Tensor& y) {
  return at::mul(y, x);
}
inline Tensor operator/(const Scalar& x, const Tensor& y) {
  return at::mul(at::reciprocal(y), x);
}

#define AT_FORALL_COMPARISONS(_) \
  _(<, lt)                       \
  _(<=, le)                      \
  _(>, gt)                       \
  _(>=, ge)                      \
  _(==, eq)                      \
  _(!=, ne)

#define DEFINE_COMPARISON(op, name)                              \
  inline Tensor operator op(const Tensor& x, const Tensor& y) {  \
    return at::name(x, y);                                       \
  }                                                              \
  inline Tensor operator op(const Tensor& x, const Scalar& y) {  \
    return at::name(x, y);                                       \
  }
AT_FORALL_COMPARISONS(DEFINE_COMPARISON)
#undef DEFINE_COMPARISON
#undef AT_FORALL_COMPARISONS

}  // namespace at
