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

// The layout contract (PyTorch's torch/csrc/autograd/utils/grad_layout_contract.h): a
// stored .grad has the strides of its parameter when the parameter is dense and
// non-overlapping (sizes-1 dimensions aside), else it is contiguous. Optimizers (LBFGS's
// flat gradient, foreach kernels) rely on p.grad.view(-1) and on grad and param walking
// memory in step. A backward formula may produce a transposed gradient (mm's for a
// weight used as w.t()), so it is copied into that layout when it does not obey.
static bool obeys_layout_contract(const at::Tensor& grad, const at::Tensor& variable) {
  if (variable.is_non_overlapping_and_dense()) {
    if (grad.dim() != variable.dim()) return false;
    for (int64_t i = 0; i < grad.dim(); i++) {
      if (grad.size(i) != 1 && grad.stride(i) != variable.stride(i)) return false;
    }
    return true;
  }
  return grad.is_contiguous();
}

static at::Tensor clone_obey_contract(const at::Tensor& new_grad, const at::Tensor& variable) {
  if (variable.is_non_overlapping_and_dense()) {
    return at::empty_strided(variable.sizes(), variable.strides(), new_grad.options()).copy_(new_grad);
  }
  return new_grad.clone(at::MemoryFormat::Contiguous);
}

void AccumulateGrad::accumulateGrad(const Variable& variable, at::Tensor& variable_grad, const at::Tensor& new_grad,
                                    size_t num_expected_refs) {
  if (!variable_grad.defined()) {
    if (!c10::GradMode::is_enabled() && new_grad.use_count() <= num_expected_refs &&
        obeys_layout_contract(new_grad, variable)) {
      // Nobody else holds this gradient: take it without copying.
      variable_grad = at::Tensor(new_grad.tensor_data());
    } else {
      variable_grad = clone_obey_contract(new_grad, variable);
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
