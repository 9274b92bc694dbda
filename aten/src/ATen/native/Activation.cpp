// aten/src/ATen/native/Activation.cpp - relu, elu, gelu, silu. Mirrors PyTorch's
// aten/src/ATen/native/Activation.cpp. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/native/Activation.h>

#include <ATen/Functions.h>
#include <ATen/TensorOperators.h>
#include <ATen/NativeFunctions.h>
#include <ATen/TensorIterator.h>

namespace at::native {

DEFINE_DISPATCH(GeluKernel);
DEFINE_DISPATCH(GeluBackwardKernel);
DEFINE_DISPATCH(silu_stub);
DEFINE_DISPATCH(elu_stub);
DEFINE_DISPATCH(threshold_backward_stub);

// The gradient of relu (and threshold): one pass over (self, grad), keeping grad where
// self > threshold. autograd's ReluBackward0 calls it (tools/autograd/derivatives.yaml).
Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, const Scalar& threshold) {
  auto iter = TensorIterator::binary_op(Tensor(), self, grad_output);
  threshold_backward_stub(iter.device_type(), iter, threshold);
  return iter.output();
}

// relu is clamp_min(x, 0): no kernel of its own.
Tensor relu(const Tensor& self) {
  TORCH_CHECK(self.scalar_type() != kBool, "Boolean inputs not supported for relu");
  return at::clamp_min(self, 0);
}

Tensor& relu_(Tensor& self) {
  TORCH_CHECK(self.scalar_type() != kBool, "Boolean inputs not supported for relu");
  return at::clamp_min_(self, 0);
}

namespace {
GeluType get_gelutype_enum(c10::string_view approximate) {
  if (approximate == "none") {
    return GeluType::None;
  }
  if (approximate == "tanh") {
    return GeluType::Tanh;
  }
  TORCH_CHECK(false, "approximate argument must be either none or tanh.");
}
}  // namespace

Tensor& gelu_out(const Tensor& self, c10::string_view approximate, Tensor& out) {
  auto iter = TensorIterator::unary_op(out, self);
  GeluKernel(iter.device_type(), iter, get_gelutype_enum(approximate));
  return out;
}
Tensor gelu(const Tensor& self, c10::string_view approximate) {
  auto iter = TensorIterator::unary_op(Tensor(), self);
  GeluKernel(iter.device_type(), iter, get_gelutype_enum(approximate));
  return iter.output();
}
Tensor& gelu_(Tensor& self, c10::string_view approximate) {
  return at::native::gelu_out(self, approximate, self);
}

// One pass over (grad, x): grad * (Phi(x) + x phi(x)), or its tanh form. autograd's
// GeluBackward0 calls it (tools/autograd/derivatives.yaml).
Tensor gelu_backward(const Tensor& grad_output, const Tensor& self, c10::string_view approximate) {
  auto iter = TensorIterator::binary_op(Tensor(), grad_output, self);
  GeluBackwardKernel(iter.device_type(), iter, get_gelutype_enum(approximate));
  return iter.output();
}

Tensor& elu_out(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale, Tensor& out) {
  auto iter = TensorIterator::unary_op(out, self);
  elu_stub(iter.device_type(), iter, alpha, scale, input_scale);
  return out;
}
Tensor elu(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  auto iter = TensorIterator::unary_op(Tensor(), self);
  elu_stub(iter.device_type(), iter, alpha, scale, input_scale);
  return iter.output();
}
Tensor& elu_(Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  return at::native::elu_out(self, alpha, scale, input_scale, self);
}

// d elu / dx from x: scale where x > 0, else input_scale * alpha * scale * exp(input_scale * x);
// from the result y of an in-place elu_: input_scale * (y + alpha * scale) where y <= 0.
Tensor elu_backward(const Tensor& grad_output, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale,
                    bool is_result, const Tensor& self_or_result) {
  const double negcoef = alpha.toDouble() * scale.toDouble();
  const double poscoef = scale.toDouble();
  const double negiptcoef = input_scale.toDouble();
  if (is_result) {
    TORCH_CHECK(alpha.toDouble() >= 0, "In-place elu backward calculation is triggered with a negative slope which is "
                "not supported. This is caused by calling in-place forward function with a negative slope, please "
                "call out-of-place version instead.");
    return at::where(self_or_result <= 0, grad_output * negiptcoef * (self_or_result + negcoef),
                     grad_output * poscoef);
  }
  return at::where(self_or_result <= 0, grad_output * negiptcoef * negcoef * at::exp(self_or_result * negiptcoef),
                   grad_output * poscoef);
}

Tensor& silu_out(const Tensor& self, Tensor& out) {
  auto iter = TensorIterator::unary_op(out, self);
  silu_stub(iter.device_type(), iter);
  return out;
}
Tensor silu(const Tensor& self) {
  auto iter = TensorIterator::unary_op(Tensor(), self);
  silu_stub(iter.device_type(), iter);
  return iter.output();
}
Tensor& silu_(Tensor& self) {
  return at::native::silu_out(self, self);
}

}  // namespace at::native
