// aten/src/ATen/ScalarOps.cpp - scalar_to_tensor and wrapped_scalar_tensor.
// Mirrors PyTorch's aten/src/ATen/ScalarOps.cpp. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/ScalarOps.h>

#include <ATen/Dispatch.h>
#include <ATen/EmptyTensor.h>
#include <ATen/Functions.h>

namespace c10 {

at::Tensor scalar_to_tensor(const Scalar& s, const Device device) {
  if (!device.is_cpu()) {
    // On another device (where(cond, x_cuda, 0) wraps the 0 on x's device, because where's
    // iterator takes no CPU scalar): an empty 0-dim tensor there, filled by its fill_ kernel,
    // as PyTorch's at::scalar_tensor does.
    return at::empty({}, s.type(), std::nullopt, device, std::nullopt, std::nullopt).fill_(s);
  }
  // Written directly, not through fill_ and the dispatcher: this runs once per Python number
  // in every a + 2, and PyTorch keeps it off the dispatcher for the same reason.
  at::Tensor t = at::detail::empty_cpu({}, s.type());
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(at::kBool, at::kHalf, at::kBFloat16, s.type(), "scalar_to_tensor", [&] {
    *static_cast<scalar_t*>(t.data_ptr()) = s.to<scalar_t>();
  });
  return t;
}

}  // namespace c10

namespace at::native {

Tensor wrapped_scalar_tensor(const Scalar& scalar, const Device device) {
  auto tensor = c10::scalar_to_tensor(scalar, device);
  tensor.unsafeGetTensorImpl()->set_wrapped_number(true);
  return tensor;
}

}  // namespace at::native
