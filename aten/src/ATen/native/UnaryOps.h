// aten/src/ATen/native/UnaryOps.h - the stubs of the unary elementwise operators.
// Mirrors PyTorch's aten/src/ATen/native/UnaryOps.h. Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <ATen/native/DispatchStub.h>
#include <ATen/core/Generator.h>
#include <c10/core/Scalar.h>

#include <cstdint>
#include <optional>

namespace at {
class TensorBase;
struct TensorIteratorBase;
}

namespace at::native {

using unary_fn = void (*)(TensorIteratorBase&);

#define AT_FORALL_UNARY_STUBS(_) \
  _(neg) _(abs) _(exp) _(log) _(log1p) _(sqrt) _(rsqrt) _(sin) _(cos) _(tan) _(tanh) _(sigmoid) _(erf) \
  _(sign) _(floor) _(ceil) _(round) _(trunc) _(reciprocal) _(logical_not) _(bitwise_not) \
  _(sgn) _(angle) _(frac) _(expm1) _(exp2) _(signbit)

#define DECLARE_UNARY_STUB(name) DECLARE_DISPATCH(unary_fn, name##_stub);
AT_FORALL_UNARY_STUBS(DECLARE_UNARY_STUB)
#undef DECLARE_UNARY_STUB

DECLARE_DISPATCH(void (*)(TensorIteratorBase&, int64_t), round_decimals_stub);
// logit(x, eps): eps < 0 stands for eps=None (no clamping).
DECLARE_DISPATCH(void (*)(TensorIteratorBase&, const c10::Scalar& eps), logit_stub);
DECLARE_DISPATCH(void (*)(TensorIteratorBase&, std::optional<double>, std::optional<double>, std::optional<double>),
                 nan_to_num_stub);

// The random fills whose CPU and CUDA kernels differ only in how they draw: the checks and
// the argument handling are in Distributions.cpp, once for both devices.
// random_(from, to): each element becomes base + (random bits % range).
DECLARE_DISPATCH(void (*)(TensorIteratorBase&, uint64_t range, int64_t base, std::optional<Generator>),
                 random_from_to_stub);
// bernoulli_(p): 1 with probability p; p a number, or a tensor of probabilities (broadcast to self).
DECLARE_DISPATCH(void (*)(const TensorBase& self, double p, std::optional<Generator>), bernoulli_scalar_stub);
DECLARE_DISPATCH(void (*)(const TensorBase& self, const TensorBase& p, std::optional<Generator>),
                 bernoulli_tensor_stub);

}  // namespace at::native
