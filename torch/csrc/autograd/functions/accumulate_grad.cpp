// torch/csrc/autograd/functions/accumulate_grad.cpp - writing a leaf's gradient into .grad.
// Mirrors PyTorch's torch/csrc/autograd/functions/accumulate_grad.cpp. Guide: docs/source/internals/autograd.rst.
#include <torch/csrc/autograd/functions/accumulate_grad.h>

#include <ATen/Functions.h>
#include <ATen/TensorOperators.h>
#include <c10/core/GradMode.h>

#include <limits>

namespace torch::autograd {

AccumulateGrad::AccumulateGrad(Variable variable_)
    : Node(/*sequence_nr=*/std::numeric_limits<uint64_t>::max()), variable(std::move(variable_)) {
  add_input_metadata(variable);
}

void AccumulateGrad::accumulateGrad(const Variable& variable, at::Tensor& variable_grad, const at::Tensor& new_grad,
                                    size_t num_expected_refs) {
  if (!variable_grad.defined()) {
    if (!c10::GradMode::is_enabled() && new_grad.use_count() <= num_expected_refs && new_grad.is_contiguous()) {
      // Nobody else holds this gradient: take it without copying.
      variable_grad = at::Tensor(new_grad.tensor_data());
    } else {
      variable_grad = new_grad.clone();
    }
  } else if (!c10::GradMode::is_enabled()) {
    variable_grad.add_(new_grad);
  } else {
    variable_grad = variable_grad + new_grad;
  }
}

variable_list AccumulateGrad::apply(variable_list&& grads) {
  TORCH_CHECK(grads.size() == 1, "AccumulateGrad expected 1 gradient, got ", grads.size());
  if (!grads[0].defined()) {
    return {};
  }
  if (!variable.requires_grad()) {
    return {};
  }
  at::Tensor new_grad = std::move(grads[0]);
  // num_expected_refs: this local plus the one the engine's buffer may still hold.
  accumulateGrad(variable, variable.mutable_grad(), new_grad, 1 + !post_hooks().empty());
  return variable_list();
}

}  // namespace torch::autograd
