// aten/src/ATen/native/PointwiseOps.cpp - addcmul (self + value * t1 * t2) and addcdiv
// (self + value * t1 / t2): three inputs promoted together (ternary_op).
// Mirrors PyTorch's aten/src/ATen/native/PointwiseOps.cpp. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/native/PointwiseOps.h>

#include <ATen/NativeFunctions.h>
#include <ATen/TensorIterator.h>

namespace at::native {

DEFINE_DISPATCH(addcmul_stub);
DEFINE_DISPATCH(addcdiv_stub);

Tensor& addcmul_out(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value, Tensor& out) {
  auto iter = TensorIterator::ternary_op(out, self, tensor1, tensor2);
  addcmul_stub(iter.device_type(), iter, value);
  return out;
}
Tensor addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  auto iter = TensorIterator::ternary_op(Tensor(), self, tensor1, tensor2);
  addcmul_stub(iter.device_type(), iter, value);
  return iter.output();
}
Tensor& addcmul_(Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  return at::native::addcmul_out(self, tensor1, tensor2, value, self);
}

namespace {
void addcdiv_check(const Tensor& tensor1, const Tensor& tensor2) {
  if (isIntegralType(tensor1.scalar_type(), /*includeBool=*/true) &&
      isIntegralType(tensor2.scalar_type(), /*includeBool=*/true)) {
    TORCH_CHECK(false,
                "Integer division with addcdiv is no longer supported, and in a future  ",
                "release addcdiv will perform a true division of tensor1 and tensor2. ",
                "The historic addcdiv behavior can be implemented as ",
                "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) ",
                "for integer inputs and as ",
                "(input + value * tensor1 / tensor2) for float inputs. ",
                "The future addcdiv behavior is just the latter implementation: ",
                "(input + value * tensor1 / tensor2), for all dtypes.");
  }
}
}  // namespace

Tensor& addcdiv_out(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value, Tensor& out) {
  addcdiv_check(tensor1, tensor2);
  auto iter = TensorIterator::ternary_op(out, self, tensor1, tensor2);
  addcdiv_stub(iter.device_type(), iter, value);
  return out;
}
Tensor addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  addcdiv_check(tensor1, tensor2);
  auto iter = TensorIterator::ternary_op(Tensor(), self, tensor1, tensor2);
  addcdiv_stub(iter.device_type(), iter, value);
  return iter.output();
}
Tensor& addcdiv_(Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  return at::native::addcdiv_out(self, tensor1, tensor2, value, self);
}

}  // namespace at::native
