// torch/csrc/autograd/saved_variable.cpp - saving, checking and restoring tensors for backward.
// Mirrors PyTorch's torch/csrc/autograd/saved_variable.cpp. Guide: docs/source/internals/autograd.rst.
#include <torch/csrc/autograd/saved_variable.h>

#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/variable.h>

#include <sstream>

namespace torch::autograd {

const char* ERR_BACKWARD_TWICE =
    "Trying to backward through the graph a second time (or directly access saved tensors after they have already "
    "been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). "
    "Specify retain_graph=True if you need to backward through the graph a second time or if you need to access "
    "saved tensors after calling backward.";

SavedVariable::SavedVariable(const Variable& variable, bool is_output, bool is_inplace_on_view) {
  if (!variable.defined()) {
    return;
  }
  TORCH_CHECK(!variable.is_inference(),
              "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
              "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and "
              "use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.");
  was_default_constructed_ = false;
  is_output_ = is_output;
  is_inplace_on_view_ = is_inplace_on_view;
  is_leaf_ = variable.is_leaf();
  requires_grad_ = variable.requires_grad();
  output_nr_ = static_cast<uint32_t>(variable.output_nr());
  version_counter_ = impl::version_counter(variable);
  saved_version_ = version_counter_.current_version();

  if (!is_output || is_leaf_) {
    // An input (or a leaf): keep the tensor itself; it holds no reference to this node.
    saved_original_ = true;
    data_ = variable;
    return;
  }
  // An output of the node that saves it: keep the data only (the full tensor's grad_fn is
  // the saving node, a cycle that would keep the graph alive forever).
  data_ = at::Tensor(variable.tensor_data());
}

SavedVariable::SavedVariable(const std::optional<Variable>& variable, bool is_output, bool is_inplace_on_view)
    : SavedVariable(variable.has_value() ? *variable : Variable(), is_output, is_inplace_on_view) {}

// [marker: SavedVariable::unpack]
Variable SavedVariable::unpack(std::shared_ptr<Node> saved_for) const {
  if (was_default_constructed_) {
    return Variable();
  }
  TORCH_CHECK(data_.defined(), ERR_BACKWARD_TWICE);

  const uint32_t current_version = version_counter_.current_version();
  if (saved_version_ != current_version) {
    // "[torch.FloatTensor [2]], which is output 0 of ExpBackward0" names the tensor the way
    // PyTorch's message does.
    std::shared_ptr<Node> grad_fn = is_output_ ? saved_for : (saved_original_ ? impl::grad_fn_unsafe(data_) : nullptr);
    std::stringstream message;
    message << "one of the variables needed for gradient computation has been modified by an inplace operation: ["
            << "torch." << c10::toString(data_.scalar_type()) << "Tensor [";
    for (size_t i = 0; i < data_.sizes().size(); ++i) {
      message << (i ? ", " : "") << data_.sizes()[i];
    }
    message << "]]";
    if (grad_fn) {
      message << ", which is output " << output_nr_ << " of " << forward_name_of(grad_fn->name()) << ",";
    }
    message << " is at version " << current_version << "; expected version " << saved_version_
            << " instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
               "with torch.autograd.set_detect_anomaly(True, check_nan=False).";
    TORCH_CHECK(false, message.str());
  }

  if (saved_original_) {
    return data_;
  }
  // An output: a new tensor over the saved data whose history is the saving node.
  Variable var = at::Tensor(data_.tensor_data());
  if (requires_grad_ && saved_for) {
    impl::set_gradient_edge(var, Edge(std::move(saved_for), output_nr_));
  }
  return var;
}
// [end marker: SavedVariable::unpack]

void SavedVariable::reset_data() {
  data_.reset();
}

}  // namespace torch::autograd
