// aten/src/ATen/core/TensorBase.cpp - naming a tensor's type in messages.
// Mirrors PyTorch's TensorBase::toString. Guide: docs/source/internals/tensors.rst.
#include <ATen/core/TensorBase.h>

namespace at {

std::string TensorBase::toString() const {
  if (!defined()) {
    return "UndefinedType";
  }
  return c10::DeviceTypeName(device().type(), /*lower_case=*/false) + c10::toString(scalar_type()) + "Type";
}

std::ostream& operator<<(std::ostream& out, const TensorBase& t) {
  if (!t.defined()) {
    return out << "[ Tensor (undefined) ]";
  }
  return out << "[ " << t.toString() << "{" << t.sizes() << "} ]";
}

}  // namespace at
