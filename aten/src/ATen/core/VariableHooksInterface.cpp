// aten/src/ATen/core/VariableHooksInterface.cpp - where autograd's Tensor methods are registered.
// Mirrors PyTorch's aten/src/ATen/core/VariableHooksInterface.cpp. Guide: docs/source/internals/autograd.rst.
#include <ATen/core/VariableHooksInterface.h>
#include <c10/util/Exception.h>

namespace at::impl {

namespace {
VariableHooksInterface* hooks = nullptr;
}

void SetVariableHooks(VariableHooksInterface* h) {
  hooks = h;
}

VariableHooksInterface* GetVariableHooks() {
  TORCH_CHECK(hooks, "Support for autograd has not been loaded; have you linked against libtorch_cpu.so?");
  return hooks;
}

}  // namespace at::impl

// at::Tensor's autograd methods (declared in the generated TensorBody.h).
#include <ATen/core/Tensor.h>

namespace at {

void Tensor::backward(const Tensor& gradient, std::optional<bool> retain_graph, bool create_graph) const {
  std::optional<Tensor> g;
  if (gradient.defined()) {
    g = gradient;
  }
  impl::GetVariableHooks()->backward(*this, g, retain_graph, create_graph);
}

unsigned Tensor::register_hook(std::function<TensorBase(const TensorBase&)> hook) const {
  return impl::GetVariableHooks()->register_hook(*this, std::move(hook));
}

void Tensor::remove_hook(unsigned pos) const {
  impl::GetVariableHooks()->remove_hook(*this, pos);
}

}  // namespace at
