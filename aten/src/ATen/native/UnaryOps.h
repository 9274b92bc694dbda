// aten/src/ATen/native/UnaryOps.h - the stubs of the unary elementwise operators.
// Mirrors PyTorch's aten/src/ATen/native/UnaryOps.h. Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <ATen/native/DispatchStub.h>
#include <c10/core/Scalar.h>

#include <optional>

namespace at {
struct TensorIteratorBase;
}

namespace at::native {

using unary_fn = void (*)(TensorIteratorBase&);

#define AT_FORALL_UNARY_STUBS(_) \
  _(neg) _(abs) _(exp) _(log) _(log1p) _(sqrt) _(rsqrt) _(sin) _(cos) _(tan) _(tanh) _(sigmoid) _(erf) \
  _(sign) _(floor) _(ceil) _(round) _(trunc) _(reciprocal) _(logical_not) _(bitwise_not) \
  _(sgn) _(angle)

#define DECLARE_UNARY_STUB(name) DECLARE_DISPATCH(unary_fn, name##_stub);
AT_FORALL_UNARY_STUBS(DECLARE_UNARY_STUB)
#undef DECLARE_UNARY_STUB

DECLARE_DISPATCH(void (*)(TensorIteratorBase&, int64_t), round_decimals_stub);
DECLARE_DISPATCH(void (*)(TensorIteratorBase&, std::optional<double>, std::optional<double>, std::optional<double>),
                 nan_to_num_stub);

}  // namespace at::native
