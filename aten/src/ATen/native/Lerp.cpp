// aten/src/ATen/native/Lerp.cpp - lerp(self, end, weight): linear interpolation.
// Mirrors PyTorch's aten/src/ATen/native/Lerp.cpp. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/native/Lerp.h>

#include <ATen/NativeFunctions.h>
#include <ATen/TensorIterator.h>

namespace at::native {

DEFINE_DISPATCH(lerp_kernel_scalar_weight);
DEFINE_DISPATCH(lerp_kernel_tensor_weight);

namespace {

// No promotion: self and end (and a tensor weight) must already share a dtype.
TensorIterator lerp_iter(const Tensor& out, const Tensor& self, const Tensor& end, const Tensor* weight) {
  TORCH_CHECK(self.dtype() == end.dtype(), "expected dtype ", self.dtype(), " for `end` but got dtype ", end.dtype());
  auto config = TensorIteratorConfig().add_output(out).add_const_input(self).add_const_input(end);
  if (weight != nullptr) {
    TORCH_CHECK(self.dtype() == weight->dtype(), "expected dtype ", self.dtype(), " for `weight` but got dtype ",
                weight->dtype());
    config.add_const_input(*weight);
  }
  return config.allow_cpu_scalars(true).build();
}

}  // namespace

Tensor& lerp_out(const Tensor& self, const Tensor& end, const Scalar& weight, Tensor& out) {
  auto iter = lerp_iter(out, self, end, nullptr);
  lerp_kernel_scalar_weight(iter.device_type(), iter, weight);
  return out;
}
Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight) {
  auto iter = lerp_iter(Tensor(), self, end, nullptr);
  lerp_kernel_scalar_weight(iter.device_type(), iter, weight);
  return iter.output();
}
Tensor& lerp_(Tensor& self, const Tensor& end, const Scalar& weight) {
  return at::native::lerp_out(self, end, weight, self);
}

Tensor& lerp_out(const Tensor& self, const Tensor& end, const Tensor& weight, Tensor& out) {
  auto iter = lerp_iter(out, self, end, &weight);
  lerp_kernel_tensor_weight(iter.device_type(), iter);
  return out;
}
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight) {
  auto iter = lerp_iter(Tensor(), self, end, &weight);
  lerp_kernel_tensor_weight(iter.device_type(), iter);
  return iter.output();
}
Tensor& lerp_(Tensor& self, const Tensor& end, const Tensor& weight) {
  return at::native::lerp_out(self, end, weight, self);
}

}  // namespace at::native
