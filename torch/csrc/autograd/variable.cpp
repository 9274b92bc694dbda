// torch/csrc/autograd/variable.cpp - AutogradMeta, gradient edges, views, and autograd's Tensor methods.
// Mirrors PyTorch's torch/csrc/autograd/variable.cpp. Guide: docs/source/internals/autograd.rst.
#include <ATen/TensorOperators.h>
#include <torch/csrc/autograd/variable.h>

#include <ATen/core/VariableHooksInterface.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/cpp_hook.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/functions/accumulate_grad.h>
#include <torch/csrc/autograd/functions/tensor.h>
#include <torch/csrc/autograd/generated/Functions.h>

namespace torch::autograd {

namespace {
// Integral and bool tensors have no gradients.
bool isDifferentiableType(at::ScalarType t) {
  return c10::isFloatingType(t) || c10::isComplexType(t);
}
}  // namespace

AutogradMeta::AutogradMeta(at::TensorImpl* self_impl, bool requires_grad, Edge gradient_edge)
    : grad_fn_(std::move(gradient_edge.function)), output_nr_(gradient_edge.input_nr) {
  if (requires_grad) {
    set_requires_grad(requires_grad, self_impl);
  }
}

void AutogradMeta::set_requires_grad(bool requires_grad, at::TensorImpl* self_impl) {
  TORCH_CHECK(!requires_grad || isDifferentiableType(self_impl->scalar_type()),
              "only Tensors of floating point dtype can require gradients");
  requires_grad_ = requires_grad;
}

DifferentiableViewMeta::DifferentiableViewMeta(at::TensorImpl* self_impl, Variable base, CreationMeta creation_meta)
    : AutogradMeta(self_impl),
      base_(std::move(base)),
      creation_meta_(creation_meta),
      view_sizes_(self_impl->sizes().vec()),
      view_strides_(self_impl->strides().vec()),
      view_offset_(self_impl->storage_offset()) {
  is_view_ = true;
  attr_version_ = self_impl->version_counter().enabled() ? self_impl->version_counter().current_version() : 0;
}

namespace {
// What TensorImpl asks for when a tensor first needs autograd state.
struct AutogradMetaFactoryImpl : public c10::impl::AutogradMetaFactory {
  std::unique_ptr<c10::AutogradMetaInterface> make() const override { return std::make_unique<AutogradMeta>(); }
  const at::Tensor& undefined_tensor() const override {
    static at::Tensor undefined;
    return undefined;
  }
};
AutogradMetaFactoryImpl meta_factory;
c10::impl::AutogradMetaFactoryRegisterer meta_factory_registerer(&meta_factory);
}  // namespace

namespace impl {

AutogradMeta* get_autograd_meta(const at::TensorBase& self) {
  TORCH_CHECK(self.defined(), "cannot call get_autograd_meta() on undefined tensor");
  return static_cast<AutogradMeta*>(self.unsafeGetTensorImpl()->autograd_meta());
}

AutogradMeta* materialize_autograd_meta(const at::TensorBase& self) {
  TORCH_CHECK(self.defined(), "cannot call materialize_autograd_meta() on undefined tensor");
  auto* p = self.unsafeGetTensorImpl();
  if (!p->autograd_meta()) {
    p->set_autograd_meta(std::make_unique<AutogradMeta>());
  }
  return get_autograd_meta(self);
}

DifferentiableViewMeta* get_view_autograd_meta(const at::TensorBase& self) {
  AutogradMeta* meta = get_autograd_meta(self);
  if (meta && meta->is_view_) {
    return static_cast<DifferentiableViewMeta*>(meta);
  }
  return nullptr;
}

void set_gradient_edge(const Variable& self, Edge edge) {
  auto* meta = materialize_autograd_meta(self);
  meta->grad_fn_ = std::move(edge.function);
  meta->output_nr_ = edge.input_nr;
  // A view's grad_fn is now current for its version.
  if (auto* view_meta = get_view_autograd_meta(self)) {
    view_meta->attr_version_ = self._version();
  }
}

std::shared_ptr<Node> grad_fn_unsafe(const Variable& self) {
  auto* meta = get_autograd_meta(self);
  return meta ? meta->grad_fn_ : nullptr;
}

std::shared_ptr<Node> try_get_grad_accumulator(const Variable& self) {
  auto* meta = get_autograd_meta(self);
  return meta ? meta->grad_accumulator_.lock() : nullptr;
}

std::shared_ptr<Node> grad_accumulator(const Variable& self) {
  auto* meta = get_autograd_meta(self);
  if (!meta || !meta->requires_grad_) {
    return nullptr;
  }
  TORCH_CHECK(!meta->grad_fn_, "grad_accumulator() should be only called on leaf Variables");
  std::lock_guard<std::mutex> lock(meta->mutex_);
  auto result = meta->grad_accumulator_.lock();
  if (result) {
    return result;
  }
  // The node holds the tensor (to write .grad into it); the tensor only points back weakly,
  // so no cycle keeps either alive: the graph owns the accumulator.
  result = std::shared_ptr<AccumulateGrad>(new AccumulateGrad(self), deleteNode);
  meta->grad_accumulator_ = result;
  return result;
}

Edge gradient_edge(const Variable& self) {
  if (const auto& gradient = impl::grad_fn(self)) {
    return Edge(gradient, get_autograd_meta(self)->output_nr_);
  }
  return Edge(grad_accumulator(self), 0);
}

void bump_version(const Variable& self) {
  self.unsafeGetTensorImpl()->bump_version();
}

const c10::VariableVersion& version_counter(const Variable& self) {
  return self.unsafeGetTensorImpl()->version_counter();
}

// [marker: rebase_history]
void rebase_history(const Variable& self, Edge gradient_edge) {
  TORCH_INTERNAL_ASSERT(gradient_edge.function != nullptr);
  if (auto* view_meta = get_view_autograd_meta(self)) {
    // An in-place write through a view changed the base too. The base's new history is
    // CopySlices: "take the base's gradient, run the in-place op's backward on the slice
    // the view covers, pass the rest through unchanged".
    TORCH_INTERNAL_ASSERT(gradient_edge.input_nr == 0);
    const Variable& base = view_meta->base_;
    auto copy_slices = std::shared_ptr<CopySlices>(
        new CopySlices(base, at::TensorGeometry(self), std::move(gradient_edge.function)), deleteNode);
    set_gradient_edge(base, Edge(copy_slices, 0));
    // The view's own grad_fn is now stale (attr_version_ < version): grad_fn() rebuilds it
    // as an as_strided of the base's new history.
    impl::grad_fn(self);
    return;
  }
  set_gradient_edge(self, std::move(gradient_edge));
}
// [end marker: rebase_history]

void add_hook(const at::TensorBase& self, std::unique_ptr<FunctionPreHook> hook) {
  materialize_autograd_meta(self)->hooks_.push_back(std::move(hook));
}

std::vector<std::unique_ptr<FunctionPreHook>>& hooks(const Variable& self) {
  return materialize_autograd_meta(self)->hooks_;
}

void clear_hooks(const at::TensorBase& self) {
  materialize_autograd_meta(self)->hooks_.clear();
}

const std::shared_ptr<Node>& grad_fn(const Variable& self) {
  static const std::shared_ptr<Node> none;
  auto* meta = get_autograd_meta(self);
  if (!meta) {
    return none;
  }
  auto* view_meta = get_view_autograd_meta(self);
  if (view_meta && self.unsafeGetTensorImpl()->version_counter().enabled()) {
    const uint32_t current = self._version();
    if (view_meta->attr_version_ != current) {
      // The base was written in place after this view was made: the view's values now come
      // from the base's new history, through an as_strided of the base.
      const Variable& base = view_meta->base_;
      if (base.requires_grad()) {
        auto fn = std::shared_ptr<generated::AsStridedBackward0>(new generated::AsStridedBackward0(), deleteNode);
        fn->self_geometry = at::TensorGeometry(base);
        fn->size = self.sizes().vec();
        fn->stride = self.strides().vec();
        fn->storage_offset = self.storage_offset();
        fn->set_next_edges(collect_next_edges(base));
        fn->add_input_metadata(self);
        meta->grad_fn_ = std::move(fn);
        meta->output_nr_ = 0;
      }
      view_meta->attr_version_ = current;
    }
  }
  return meta->grad_fn_;
}

}  // namespace impl

Variable make_variable_differentiable_view(const at::Tensor& data, const Variable& base, CreationMeta creation_meta) {
  // The base of a view of a view is the first base: views never chain.
  Variable root = base;
  if (auto* base_view_meta = impl::get_view_autograd_meta(base)) {
    root = base_view_meta->base_;
    if (base_view_meta->creation_meta_ != CreationMeta::DEFAULT && creation_meta == CreationMeta::DEFAULT) {
      creation_meta = base_view_meta->creation_meta_;
    }
  }
  auto* impl = data.unsafeGetTensorImpl();
  impl->set_autograd_meta(std::make_unique<DifferentiableViewMeta>(impl, root, creation_meta));
  return data;
}

Variable make_variable(at::Tensor data, bool requires_grad) {
  if (requires_grad) {
    data.unsafeGetTensorImpl()->set_requires_grad(true);
  }
  return data;
}

// The Tensor methods ATen declares and autograd implements (VariableHooksInterface.h).
namespace {

struct VariableHooks final : at::impl::VariableHooksInterface {
  at::TensorBase tensor_data(const at::TensorBase& self) const override {
    // detach(): same data, same version counter (an in-place write to either is seen by
    // autograd through the other), no history.
    return at::TensorBase(self.unsafeGetTensorImpl()->shallow_copy_and_detach(impl::version_counter(self)));
  }
  at::TensorBase variable_data(const at::TensorBase& self) const override {
    // .data: same data, a fresh version counter: writes through it are invisible to
    // autograd (the reason .data is discouraged).
    return at::TensorBase(self.unsafeGetTensorImpl()->shallow_copy_and_detach(c10::VariableVersion(0)));
  }
  const std::shared_ptr<Node>& grad_fn(const at::TensorBase& self) const override {
    return impl::grad_fn(Variable(self));
  }
  bool is_leaf(const at::TensorBase& self) const override {
    return impl::grad_fn(Variable(self)) == nullptr;
  }
  int64_t output_nr(const at::TensorBase& self) const override {
    auto* meta = impl::get_autograd_meta(self);
    return meta ? meta->output_nr_ : 0;
  }
  void retain_grad(const at::TensorBase& self) const override;
  bool retains_grad(const at::TensorBase& self) const override {
    auto* meta = impl::get_autograd_meta(self);
    return meta && meta->retains_grad_;
  }
  bool is_view(const at::TensorBase& self) const override {
    auto* meta = impl::get_autograd_meta(self);
    return meta && meta->is_view_;
  }
  const at::TensorBase& base(const at::TensorBase& self) const override {
    auto* view_meta = impl::get_view_autograd_meta(self);
    TORCH_CHECK(view_meta, "Can't get base of non-view Tensor");
    return view_meta->base_;
  }
  void backward(const at::Tensor& self, const std::optional<at::Tensor>& gradient, std::optional<bool> retain_graph,
                bool create_graph) const override {
    variable_list grads;
    if (gradient.has_value()) {
      grads.push_back(*gradient);
    }
    torch::autograd::backward({self}, grads, retain_graph, create_graph);
  }
  void requires_grad_(const at::TensorBase& self, bool requires_grad) const override {
    TORCH_CHECK(self.is_leaf() || requires_grad,
                "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
                "in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
    self.unsafeGetTensorImpl()->set_requires_grad(requires_grad);
  }
  void set_data(const at::TensorBase& self, const at::TensorBase& new_data) const override;
  unsigned register_hook(const at::TensorBase& self,
                         std::function<at::TensorBase(const at::TensorBase&)> hook) const override;
  void remove_hook(const at::TensorBase& self, unsigned pos) const override;
};

void VariableHooks::retain_grad(const at::TensorBase& self) const {
  TORCH_CHECK(self.requires_grad(), "can't retain_grad on Tensor that has requires_grad=False");
  if (self.is_leaf()) {
    return;  // leaves keep their .grad anyway
  }
  auto* meta = impl::get_autograd_meta(self);
  if (meta->retains_grad_) {
    return;
  }
  // A hook on the node that made this tensor, storing the gradient that arrives for it.
  c10::weak_intrusive_ptr<at::TensorImpl> weak_self(self.getIntrusivePtr());
  auto retain_grad_hook = [weak_self](const at::TensorBase& grad_base) {
    at::Tensor grad{grad_base};
    if (!weak_self.expired() && grad.defined()) {
      auto var = weak_self.lock();
      at::Tensor& slot = var->mutable_grad();
      if (!slot.defined()) {
        // A contiguous copy, whatever the gradient's layout (PyTorch's retain_grad hook).
        slot = grad.clone(at::MemoryFormat::Contiguous);
      } else {
        slot = slot + grad;
      }
    }
    return at::TensorBase{};
  };
  const auto& fn = impl::grad_fn(Variable(self));
  fn->add_retains_grad_hook(std::make_unique<CppFunctionSingleTensorPreHook>(std::move(retain_grad_hook), meta->output_nr_),
                            meta->output_nr_);
  meta->retains_grad_ = true;
}

void VariableHooks::set_data(const at::TensorBase& self, const at::TensorBase& new_data) const {
  TORCH_CHECK(!self.requires_grad() || isDifferentiableType(new_data.scalar_type()),
              "data set to a tensor that requires gradients must be floating point or complex dtype");
  // The AccumulateGrad node of a leaf remembers the old shape and dtype; a new one is made
  // on demand.
  if (auto* meta = impl::get_autograd_meta(self)) {
    std::lock_guard<std::mutex> lock(meta->mutex_);
    auto prior = meta->grad_accumulator_.lock();
    if (prior && (prior->input_metadata(0).dtype() != new_data.scalar_type() ||
                  prior->input_metadata(0).shape() != new_data.sizes() ||
                  prior->input_metadata(0).device() != new_data.device())) {
      meta->grad_accumulator_.reset();
    }
  }
  self.unsafeGetTensorImpl()->shallow_copy_from(*new_data.unsafeGetTensorImpl());
}

unsigned VariableHooks::register_hook(const at::TensorBase& self,
                                      std::function<at::TensorBase(const at::TensorBase&)> hook) const {
  TORCH_CHECK(self.requires_grad(), "cannot register a hook on a variable that doesn't require gradient");
  auto* meta = impl::materialize_autograd_meta(self);
  if (!meta->cpp_hooks_list_) {
    meta->cpp_hooks_list_ = std::make_shared<std::vector<std::function<at::TensorBase(const at::TensorBase&)>>>();
    auto pre_hook = std::make_unique<CppFunctionTensorPreHook>(meta->cpp_hooks_list_, meta->output_nr_);
    const auto& fn = impl::grad_fn(Variable(self));
    if (fn) {
      fn->add_tensor_pre_hook(std::move(pre_hook));
    } else {
      impl::add_hook(self, std::move(pre_hook));
    }
  }
  meta->cpp_hooks_list_->push_back(std::move(hook));
  return static_cast<unsigned>(meta->cpp_hooks_list_->size() - 1);
}

void VariableHooks::remove_hook(const at::TensorBase& self, unsigned pos) const {
  auto* meta = impl::materialize_autograd_meta(self);
  TORCH_CHECK(meta->cpp_hooks_list_ && pos < meta->cpp_hooks_list_->size(), "Invalid index, no hook at position ", pos);
  (*meta->cpp_hooks_list_)[pos] = nullptr;
}

VariableHooks variable_hooks;
at::impl::VariableHooksRegisterer variable_hooks_registerer(&variable_hooks);

}  // namespace

}  // namespace torch::autograd
