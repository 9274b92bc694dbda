// aten/src/ATen/core/VariableHooksInterface.h - the Tensor methods that autograd implements.
// Mirrors PyTorch's aten/src/ATen/core/VariableHooksInterface.h. Guide: docs/source/internals/autograd.rst.
//
// t.grad_fn(), t.is_leaf(), t.backward() ... are methods of at::TensorBase, but their work is
// done by torch/csrc/autograd (variable.cpp), which sits above ATen. ATen calls through this
// interface; autograd registers the implementation when its library loads.
#pragma once

#include <ATen/core/TensorBase.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace torch::autograd {
struct Node;
}

namespace at {
class Tensor;

namespace impl {

struct TORCH_API VariableHooksInterface {
  virtual ~VariableHooksInterface() = default;
  // The same data without autograd history (detach()), sharing or not the version counter.
  virtual TensorBase tensor_data(const TensorBase&) const = 0;
  virtual TensorBase variable_data(const TensorBase&) const = 0;
  virtual const std::shared_ptr<torch::autograd::Node>& grad_fn(const TensorBase&) const = 0;
  virtual bool is_leaf(const TensorBase&) const = 0;
  virtual int64_t output_nr(const TensorBase&) const = 0;
  virtual void retain_grad(const TensorBase&) const = 0;
  virtual bool retains_grad(const TensorBase&) const = 0;
  virtual bool is_view(const TensorBase&) const = 0;
  virtual const TensorBase& base(const TensorBase&) const = 0;
  virtual void backward(const Tensor& self, const std::optional<Tensor>& gradient,
                        std::optional<bool> retain_graph, bool create_graph) const = 0;
  virtual void requires_grad_(const TensorBase&, bool requires_grad) const = 0;
  virtual void set_data(const TensorBase& self, const TensorBase& new_data) const = 0;
  // A C++ hook on the gradient of this tensor; returns its position (for removal).
  virtual unsigned register_hook(const TensorBase&, std::function<TensorBase(const TensorBase&)> hook) const = 0;
  virtual void remove_hook(const TensorBase&, unsigned pos) const = 0;
};

TORCH_API void SetVariableHooks(VariableHooksInterface* hooks);
TORCH_API VariableHooksInterface* GetVariableHooks();

struct TORCH_API VariableHooksRegisterer {
  explicit VariableHooksRegisterer(VariableHooksInterface* hooks) { SetVariableHooks(hooks); }
};

}  // namespace impl
}  // namespace at
