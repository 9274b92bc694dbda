// aten/src/ATen/native/Scalar.cpp - Tensor.item(): the one element of a tensor as a Scalar.
// Mirrors PyTorch's aten/src/ATen/native/Scalar.cpp. Guide: docs/source/internals/tensors.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>

namespace at::native {

Scalar item(const Tensor& self) {
  const int64_t numel = self.numel();
  TORCH_CHECK(numel == 1, "a Tensor with ", numel, " elements cannot be converted to Scalar");
  return at::_local_scalar_dense(self);
}

Scalar _local_scalar_dense_cpu(const Tensor& self) {
  Scalar r;
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "_local_scalar_dense_cpu", [&] {
    const scalar_t value = *static_cast<const scalar_t*>(self.const_data_ptr());
    r = Scalar(value);
  });
  return r;
}

}  // namespace at::native
