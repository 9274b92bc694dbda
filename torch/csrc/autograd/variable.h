// torch/csrc/autograd/variable.h - what autograd keeps on a tensor: AutogradMeta.
// Mirrors PyTorch's torch/csrc/autograd/variable.h. Guide: docs/source/internals/autograd.rst.
//
// Seed 000, "Autograd": a tensor has data, requires_grad, grad, grad_fn and is_leaf. The
// data is the TensorImpl; the rest is this AutogradMeta, hung on the TensorImpl (through
// c10::AutogradMetaInterface) only once a tensor needs it:
//   - requires_grad: set by the user on a leaf, or implied by having a grad_fn;
//   - grad: where backward() accumulates this tensor's gradient (leaves, retain_grad());
//   - grad_fn + output_nr: the node that made the tensor and which of its outputs it is;
//   - grad_accumulator: for a leaf, the AccumulateGrad node its gradient flows into
//     (held weakly: the graph owns it, the tensor just finds it again);
//   - is_leaf: no grad_fn. The seed's three rules follow: tensors the user made are
//     leaves; results of operations on tensors that need no grad are leaves; results of
//     operations on tensors that require grad are not.
// A view (x[0], x.t()) gets DifferentiableViewMeta: it remembers its base so an in-place
// write through the view can rewrite the base's history (rebase_history).
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/GradMode.h>
#include <torch/csrc/autograd/edge.h>
#include <torch/csrc/autograd/function_hook.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace torch::autograd {

struct Node;
using Variable = at::Tensor;
using variable_list = std::vector<Variable>;

// [marker: AutogradMeta]
struct TORCH_API AutogradMeta : public c10::AutogradMetaInterface {
  std::string name_;
  Variable grad_;
  std::shared_ptr<Node> grad_fn_;
  std::weak_ptr<Node> grad_accumulator_;
  // Hooks registered on a leaf's gradient (AccumulateGrad reads them from here).
  std::vector<std::unique_ptr<FunctionPreHook>> hooks_;
  // The C++ hooks of Tensor::register_hook, by position (a removed hook leaves a null slot).
  std::shared_ptr<std::vector<std::function<at::TensorBase(const at::TensorBase&)>>> cpp_hooks_list_;
  bool requires_grad_ = false;
  bool retains_grad_ = false;
  bool is_view_ = false;
  uint32_t output_nr_ = 0;
  std::mutex mutex_;

  AutogradMeta(at::TensorImpl* self_impl = nullptr, bool requires_grad = false, Edge gradient_edge = Edge());
  ~AutogradMeta() override = default;

  void set_requires_grad(bool requires_grad, at::TensorImpl* self_impl) override;
  bool requires_grad() const override { return requires_grad_ || grad_fn_; }
  Variable& mutable_grad() override { return grad_; }
  const Variable& grad() const override { return grad_; }
};
// [end marker: AutogradMeta]

// The metadata of a view that autograd must be able to replay: its base (the tensor that
// owns the memory, never itself a view), and its geometry relative to the base's storage.
// attr_version is the version counter value when grad_fn was last set: if the base was
// written in place since, the view's grad_fn is stale and grad_fn() rebuilds it.
enum class CreationMeta : uint8_t { DEFAULT, IN_CUSTOM_FUNCTION, MULTI_OUTPUT_NODE, NO_GRAD_MODE, INFERENCE_MODE };

struct TORCH_API DifferentiableViewMeta : public AutogradMeta {
  Variable base_;
  uint32_t attr_version_;
  CreationMeta creation_meta_;
  std::vector<int64_t> view_sizes_, view_strides_;
  int64_t view_offset_;

  DifferentiableViewMeta(at::TensorImpl* self_impl, Variable base, CreationMeta creation_meta);
  bool requires_grad() const override { return requires_grad_ || grad_fn_ || (is_view_ && base_.requires_grad()); }
};

namespace impl {
// The AutogradMeta of a tensor, created if it has none yet (or nullptr from get_...).
TORCH_API AutogradMeta* materialize_autograd_meta(const at::TensorBase&);
TORCH_API AutogradMeta* get_autograd_meta(const at::TensorBase&);
TORCH_API DifferentiableViewMeta* get_view_autograd_meta(const at::TensorBase&);

// Give a tensor its place in the graph: it is output `edge.input_nr` of `edge.function`.
TORCH_API void set_gradient_edge(const Variable&, Edge edge);
// Where this tensor's gradient goes: (grad_fn, output_nr), (grad accumulator, 0), or nothing.
TORCH_API Edge gradient_edge(const Variable&);
// A leaf's AccumulateGrad node, created on first use (nullptr if it does not require grad).
TORCH_API std::shared_ptr<Node> grad_accumulator(const Variable&);
TORCH_API std::shared_ptr<Node> try_get_grad_accumulator(const Variable&);
// For a non-leaf: the node that made it; for a leaf: nullptr.
TORCH_API std::shared_ptr<Node> grad_fn_unsafe(const Variable&);

TORCH_API void bump_version(const Variable&);
TORCH_API const c10::VariableVersion& version_counter(const Variable&);

// A new history for a tensor just written in place (grad_fn = the in-place op's node). For
// a view it also rewrites its base's history (CopySlices), so the base's gradient flows
// through the in-place operation too.
TORCH_API void rebase_history(const Variable& self, Edge gradient_edge);

TORCH_API void add_hook(const at::TensorBase&, std::unique_ptr<FunctionPreHook> hook);
TORCH_API std::vector<std::unique_ptr<FunctionPreHook>>& hooks(const Variable&);
TORCH_API void clear_hooks(const at::TensorBase&);
// tensor.grad_fn with a stale view history rebuilt.
TORCH_API const std::shared_ptr<Node>& grad_fn(const Variable&);
}  // namespace impl

// A tensor that is a differentiable view of `base` (what view operators return).
TORCH_API Variable make_variable_differentiable_view(const at::Tensor& data, const Variable& base,
                                                     CreationMeta creation_meta);
// A tensor with no history over this data (requires_grad as given).
TORCH_API Variable make_variable(at::Tensor data, bool requires_grad = false);

}  // namespace torch::autograd
