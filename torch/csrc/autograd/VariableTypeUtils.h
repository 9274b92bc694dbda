// torch/csrc/autograd/VariableTypeUtils.h - what the generated autograd kernels call.
// Mirrors PyTorch's torch/csrc/autograd/VariableTypeUtils.h. Guide: docs/source/internals/autograd.rst.
//
// Each kernel in the generated VariableType.cpp has the same shape (see the guide):
//     if (compute_requires_grad(self, other)) { make the node, set_next_edges, save inputs }
//     { AutoDispatchBelow...; result = redispatch below autograd }
//     if (grad_fn) { set_history(result, grad_fn); save outputs }
// These are the pieces.
#pragma once

#include <ATen/core/LegacyTypeDispatch.h>
#include <ATen/core/Tensor.h>
#include <c10/core/GradMode.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/functions/basic_ops.h>
#include <torch/csrc/autograd/variable.h>

#include <optional>
#include <tuple>
#include <vector>

namespace torch::autograd {

inline bool isDifferentiableType(at::ScalarType t) {
  return c10::isFloatingType(t) || c10::isComplexType(t);
}

// ---- does this call need a node? ----
inline bool any_requires_grad(const at::Tensor& t) {
  return t.defined() && t.requires_grad();
}
inline bool any_requires_grad(const std::optional<at::Tensor>& t) {
  return t.has_value() && any_requires_grad(*t);
}
inline bool any_requires_grad(at::ArrayRef<at::Tensor> ts) {
  for (const auto& t : ts) {
    if (any_requires_grad(t)) return true;
  }
  return false;
}
inline bool any_requires_grad(at::ArrayRef<std::optional<at::Tensor>> ts) {
  for (const auto& t : ts) {
    if (any_requires_grad(t)) return true;
  }
  return false;
}
template <typename... Args>
inline bool compute_requires_grad(const Args&... args) {
  if (!c10::GradMode::is_enabled()) {
    return false;
  }
  return (any_requires_grad(args) || ...);
}

// In-place writes autograd cannot allow: into a leaf that requires grad (its .grad would
// belong to values that no longer exist), or through views it cannot replay.
inline void check_inplace(const at::Tensor& tensor, bool requires_grad) {
  if (!requires_grad || !c10::GradMode::is_enabled()) {
    return;
  }
  if (auto* view_meta = impl::get_view_autograd_meta(tensor)) {
    const auto& base = view_meta->base_;
    TORCH_CHECK(!(base.requires_grad() && base.is_leaf()),
                "a view of a leaf Variable that requires grad is being used in an in-place operation.");
    if (view_meta->creation_meta_ == CreationMeta::MULTI_OUTPUT_NODE) {
      const auto& fn = tensor.grad_fn();
      TORCH_CHECK(false, "Output ", tensor.output_nr(), " of ", fn ? forward_name_of(fn->name()) : std::string("a function"),
                  " is a view and is being modified inplace. This view is the output of a function that returns "
                  "multiple views. Such functions do not allow the output views to be modified inplace. You should "
                  "replace the inplace operation by an out-of-place one.");
    }
    if (view_meta->creation_meta_ == CreationMeta::NO_GRAD_MODE) {
      TORCH_CHECK(false, "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
                         "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
                         "your code by moving both the view and the inplace either both inside the no_grad block "
                         "(if you don't want the inplace to be tracked) or both outside (if you want the inplace to "
                         "be tracked).");
    }
  }
  TORCH_CHECK(!(tensor.requires_grad() && tensor.is_leaf()),
              "a leaf Variable that requires grad is being used in an in-place operation.");
}

// out= writes into a tensor the user gave: no graph can lead through it.
inline void throw_error_out_requires_grad(const char* name) {
  TORCH_CHECK(false, name, "(): functions with out=... arguments don't support automatic differentiation, but one of "
                           "the arguments requires grad.");
}

// ---- recording the result ----
inline void set_history(const at::Tensor& variable, const std::shared_ptr<Node>& grad_fn) {
  if (variable.defined() && isDifferentiableType(variable.scalar_type())) {
    auto output_nr = grad_fn->add_input_metadata(variable);
    impl::set_gradient_edge(variable, Edge(grad_fn, output_nr));
  } else {
    // No gradient can flow into an undefined or integral output (the indices of max):
    // keep its slot so the outputs after it keep their numbers.
    grad_fn->add_input_metadata_undefined();
  }
}
inline void set_history(const std::vector<at::Tensor>& variables, const std::shared_ptr<Node>& grad_fn) {
  for (const auto& v : variables) {
    set_history(v, grad_fn);
  }
}

// An in-place result: the tensor's (and, for a view, its base's) history is rewritten.
inline void rebase_history(const at::Tensor& var, const std::shared_ptr<Node>& grad_fn) {
  if (grad_fn && var.defined()) {
    grad_fn->add_input_metadata(var);
    impl::rebase_history(var, Edge(grad_fn, 0));
  }
}

inline void increment_version(const at::Tensor& t) {
  if (t.defined()) {
    impl::bump_version(t);
  }
}

// What ADInplaceOrView does for a view operator: the result remembers its base, so an
// in-place write through it can be replayed on the base's history.
inline at::Tensor as_view(const at::Tensor& base, const at::Tensor& tensor, bool is_bw_differentiable,
                          CreationMeta creation_meta = CreationMeta::DEFAULT) {
  if (!is_bw_differentiable || !isDifferentiableType(tensor.scalar_type())) {
    return tensor;
  }
  if (!c10::GradMode::is_enabled()) {
    creation_meta = CreationMeta::NO_GRAD_MODE;
  }
  return make_variable_differentiable_view(tensor, base, creation_meta);
}
inline std::vector<at::Tensor> as_view(const at::Tensor& base, std::vector<at::Tensor> tensors,
                                       bool is_bw_differentiable) {
  for (auto& t : tensors) {
    t = as_view(base, t, is_bw_differentiable, CreationMeta::MULTI_OUTPUT_NODE);
  }
  return tensors;
}

}  // namespace torch::autograd
