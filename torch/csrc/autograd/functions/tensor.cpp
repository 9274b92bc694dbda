// torch/csrc/autograd/functions/tensor.cpp - CopySlices::apply.
// Mirrors PyTorch's torch/csrc/autograd/functions/tensor.cpp. Guide: docs/source/internals/autograd.rst.
#include <torch/csrc/autograd/functions/tensor.h>

#include <ATen/Functions.h>
#include <torch/csrc/autograd/variable.h>

namespace torch::autograd {

CopySlices::CopySlices(const Variable& base_var, at::TensorGeometry view_, std::shared_ptr<Node> fn_)
    : Node(), base(base_var), view(std::move(view_)), fn(std::move(fn_)) {
  // Inherit the in-place op's edges, except the first (self), which becomes the base's old
  // history: the part of base the view does not cover flows there unchanged.
  add_next_edge(impl::gradient_edge(base_var));
  for (size_t i = 1; i < fn->num_outputs(); i++) {
    add_next_edge(fn->next_edge(i));
  }
  add_input_metadata(base_var);
}

// [marker: CopySlices::apply]
variable_list CopySlices::apply(variable_list&& inputs) {
  TORCH_CHECK(fn, "Trying to backward through the graph a second time (or directly access saved tensors after "
                  "they have already been freed). Saved intermediate values of the graph are freed when you call "
                  ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
                  "graph a second time or if you need to access saved tensors after calling backward.");
  auto& grad = inputs[0];
  if (!grad.defined()) {
    return variable_list(num_outputs());
  }
  // The gradient of the whole base, laid out like the base, and the window the view covered.
  at::Tensor result = at::empty_strided(base.sizes(), base.strides(), grad.scalar_type(), std::nullopt, grad.device());
  result.copy_(grad);
  const int64_t offset = view.storage_offset() - base.storage_offset();
  at::Tensor grad_slice = result.as_strided(view.sizes(), view.strides(), result.storage_offset() + offset);

  // Run the in-place op's backward on that window; its gradient for self replaces the window.
  auto res = (*fn)({grad_slice.clone()});

  variable_list grad_inputs(num_outputs());
  for (size_t i = 0; i < res.size(); i++) {
    if (should_compute_output(i)) {
      if (i == 0) {
        if (res[0].defined()) {
          grad_slice.copy_(res[0]);
        } else {
          grad_slice.zero_();
        }
        grad_inputs[0] = std::move(result);
      } else {
        grad_inputs[i] = std::move(res[i]);
      }
    }
  }
  return grad_inputs;
}
// [end marker: CopySlices::apply]

void CopySlices::release_variables() {
  fn = nullptr;
}

}  // namespace torch::autograd
