// aten/src/ATen/core/TensorBase.cpp - naming a tensor's type in messages.
// Mirrors PyTorch's TensorBase::toString. Guide: docs/source/internals/tensors.rst.
#include <ATen/core/TensorBase.h>
#include <ATen/core/VariableHooksInterface.h>

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

// ---- autograd methods: forwarded to torch/csrc/autograd (VariableHooksInterface) ----
namespace at {

const TensorBase& TensorBase::requires_grad_(bool requires_grad) const {
  impl::GetVariableHooks()->requires_grad_(*this, requires_grad);
  return *this;
}
const std::shared_ptr<torch::autograd::Node>& TensorBase::grad_fn() const {
  return impl::GetVariableHooks()->grad_fn(*this);
}
bool TensorBase::is_leaf() const {
  return impl::GetVariableHooks()->is_leaf(*this);
}
int64_t TensorBase::output_nr() const {
  return impl::GetVariableHooks()->output_nr(*this);
}
void TensorBase::retain_grad() const {
  impl::GetVariableHooks()->retain_grad(*this);
}
bool TensorBase::retains_grad() const {
  return impl::GetVariableHooks()->retains_grad(*this);
}
bool TensorBase::is_view() const {
  return impl::GetVariableHooks()->is_view(*this);
}
const TensorBase& TensorBase::_base() const {
  return impl::GetVariableHooks()->base(*this);
}
TensorBase TensorBase::tensor_data() const {
  return impl::GetVariableHooks()->tensor_data(*this);
}
TensorBase TensorBase::variable_data() const {
  return impl::GetVariableHooks()->variable_data(*this);
}
void TensorBase::set_data(const TensorBase& new_data) const {
  impl::GetVariableHooks()->set_data(*this, new_data);
}

}  // namespace at
