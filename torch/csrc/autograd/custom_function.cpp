// torch/csrc/autograd/custom_function.cpp - AutogradContext and _wrap_outputs, the untemplated half of Function<T>.
// Mirrors PyTorch's torch/csrc/autograd/custom_function.cpp. Guide: docs/source/internals/cpp_extensions.rst.
#include <torch/csrc/autograd/custom_function.h>

#include <ATen/Functions.h>
#include <torch/csrc/autograd/VariableTypeUtils.h>

namespace torch::autograd {

// ---- AutogradContext ----

void AutogradContext::save_for_backward(variable_list to_save) {
  to_save_ = std::move(to_save);
}

// Called by apply once the outputs have their history: a saved output (its grad_fn is this
// node) is kept without its grad_fn, or node and tensor would own each other.
void AutogradContext::save_variables() {
  saved_variables_.clear();
  auto ptr = grad_fn_.lock();
  for (const auto& var : to_save_) {
    if (var.defined()) {
      const bool is_output = var.grad_fn().get() == ptr.get();
      saved_variables_.emplace_back(var, is_output);
    } else {
      saved_variables_.emplace_back();  // saving an undefined tensor is allowed
    }
  }
  to_save_.clear();
}

variable_list AutogradContext::get_saved_variables() const {
  TORCH_CHECK(!has_freed_buffers_, ERR_BACKWARD_TWICE);
  auto ptr = grad_fn_.lock();
  TORCH_INTERNAL_ASSERT(ptr);
  variable_list saved;
  saved.reserve(saved_variables_.size());
  for (const auto& var : saved_variables_) {
    saved.push_back(var.unpack(ptr));  // the version check: raises if modified in place
  }
  return saved;
}

void AutogradContext::mark_dirty(const variable_list& inputs) {
  dirty_inputs_.clear();
  for (const auto& var : inputs) {
    dirty_inputs_.insert(var.unsafeGetTensorImpl());
  }
}

void AutogradContext::mark_non_differentiable(const variable_list& outputs) {
  non_differentiable_.clear();
  for (const auto& var : outputs) {
    non_differentiable_.insert(var.unsafeGetTensorImpl());
  }
}

void AutogradContext::set_materialize_grads(bool value) {
  materialize_grads_ = value;
}

// The in-place write forward did is seen by other users of the tensor: tensors that saved
// the old version now fail their check.
const std::unordered_set<at::TensorImpl*>& AutogradContext::get_and_bump_dirty() const {
  for (auto* impl : dirty_inputs_) {
    impl->bump_version();
  }
  return dirty_inputs_;
}

const std::unordered_set<at::TensorImpl*>& AutogradContext::get_non_differentiable() const {
  return non_differentiable_;
}

// PyTorch asks task_should_compute_output, which also knows which inputs a grad() call
// asked for; this engine does not expose its graph task to nodes, so: "requires grad".
bool AutogradContext::needs_input_grad(size_t output_edge_index) const {
  auto ptr = grad_fn_.lock();
  TORCH_INTERNAL_ASSERT(ptr);
  return ptr->should_compute_output(output_edge_index);
}

bool AutogradContext::needs_input_grad(std::initializer_list<IndexRange> idxs) const {
  auto ptr = grad_fn_.lock();
  TORCH_INTERNAL_ASSERT(ptr);
  return ptr->should_compute_output(idxs);
}

// ---- Function::apply's helpers ----

edge_list collect_function_next_edges(const variable_list& input_vars) {
  edge_list edges;
  edges.reserve(input_vars.size());
  for (const auto& var : input_vars) {
    edges.push_back(var.defined() ? gradient_edge_of(var) : Edge());
  }
  return edges;
}

Variable zeros_like_output(const InputMetadata& info) {
  if (!info.is_defined()) {
    return Variable();
  }
  return at::zeros(info.shape(), info.dtype(), std::nullopt, info.device());
}

variable_list _wrap_outputs(const variable_list& input_vars,
                            const std::unordered_set<at::TensorImpl*>& non_differentiable,
                            const std::unordered_set<at::TensorImpl*>& dirty_inputs,
                            const variable_list& raw_outputs, const std::shared_ptr<Node>& cdata) {
  std::unordered_set<at::TensorImpl*> inputs_set;
  for (const auto& var : input_vars) {
    if (var.defined()) inputs_set.insert(var.unsafeGetTensorImpl());
  }
  const size_t num_outputs = raw_outputs.size();

  // Output `output_nr` of cdata: its grad_fn and output_nr, or no history at all.
  auto set_history = [&](Variable& var, uint32_t output_nr, bool is_input, bool is_modified, bool is_differentiable) {
    if (!is_differentiable) {
      if (!var.requires_grad()) {
        // An input returned as is: a new alias, so output and input stay separate tensors.
        if (is_input && !is_modified) var = var.view_as(var);
        return;
      }
      // A detached alias of an input, rather than changing the input's requires_grad.
      if (is_input) {
        var = var.detach();
      } else if (!var.is_view()) {
        var.detach_();
      }
    } else if (is_modified) {
      // mark_dirty: the input was written in place, its history now goes through this node.
      TORCH_CHECK(!(var.is_leaf() && var.requires_grad()),
                  "a leaf Variable that requires grad has been used in an in-place operation.");
      if (!is_input) {
        TORCH_WARN("Only input Tensors should be given to ctx.mark_dirty(). If a Tensor is not an input, there "
                   "is no need to pass it to mark_dirty().");
      }
      // Rebasing a view rewrites its base's history (CopySlices), which takes the node's
      // only output.
      TORCH_CHECK(!(var.is_view() && num_outputs > 1),
                  "If your Function modifies inplace an input that is a view of another Tensor, your Function "
                  "cannot return more than one Tensor. This is not supported by the current autograd engine. You "
                  "should either make sure the input is not a view (using .clone() for example) or make your "
                  "Function only return one Tensor (potentially splitting it into two Functions: one doing the "
                  "inplace that returns a single Tensor and a second one that does the other operations). You can "
                  "ask on the forum https://discuss.pytorch.org/ if you need help to do this change.");
      impl::rebase_history(var, Edge(cdata, output_nr));
    } else if (is_input) {
      // An input returned unchanged: the history goes on a new alias, not on the input.
      var = var.view_as(var);
      impl::set_gradient_edge(var, Edge(cdata, output_nr));
    } else {
      impl::set_gradient_edge(var, Edge(cdata, output_nr));
    }
  };

  variable_list outputs;
  outputs.reserve(num_outputs);
  std::unordered_set<at::TensorImpl*> outputs_impl;
  for (size_t i = 0; i < num_outputs; ++i) {
    Variable var = raw_outputs[i];
    if (!var.defined()) {
      // Keeps its slot, so the outputs after it keep their output_nr.
      if (cdata) cdata->add_input_metadata_undefined();
      outputs.emplace_back();
      continue;
    }
    auto* out_tensor_impl = var.unsafeGetTensorImpl();
    const bool is_input = inputs_set.count(out_tensor_impl) > 0;
    const bool is_modified = dirty_inputs.count(out_tensor_impl) > 0;
    const bool is_differentiable =
        cdata && non_differentiable.count(out_tensor_impl) == 0 && isDifferentiableType(var.scalar_type());
    uint32_t output_nr = 0;
    if (cdata) {
      output_nr = is_differentiable ? cdata->add_input_metadata(var) : cdata->add_input_metadata_undefined();
      TORCH_INTERNAL_ASSERT(output_nr == i);
    }
    set_history(var, output_nr, is_input, is_modified, is_differentiable);
    outputs_impl.insert(out_tensor_impl);
    outputs.push_back(std::move(var));
  }

  // The rewrite of a dirty input's history is only valid if forward returned it.
  for (auto* dirty_input : dirty_inputs) {
    TORCH_CHECK(outputs_impl.count(dirty_input) > 0,
                "Some elements marked as dirty during the forward method were not returned as output. The inputs "
                "that are modified inplace must all be outputs of the Function.");
  }
  return outputs;
}

}  // namespace torch::autograd
