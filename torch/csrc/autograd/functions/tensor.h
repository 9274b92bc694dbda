// torch/csrc/autograd/functions/tensor.h - CopySlices: the history of a base written through a view.
// Mirrors PyTorch's torch/csrc/autograd/functions/tensor.h. Guide: docs/source/internals/autograd.rst.
//
//     base = x.clone(); view = base[0]; view.mul_(y)
//
// changed base's first row. base's gradient must now flow through MulBackward0 for that row
// and unchanged for the rest. CopySlices does exactly that: it wraps the in-place op's node
// (fn) and, given base's gradient, runs fn on the part the view covers.
#pragma once

#include <ATen/TensorGeometry.h>
#include <torch/csrc/autograd/function.h>

namespace torch::autograd {

struct TORCH_API CopySlices : public Node {
  CopySlices(const Variable& base_var, at::TensorGeometry view_, std::shared_ptr<Node> fn_);

  variable_list apply(variable_list&& inputs) override;
  void release_variables() override;

  at::TensorGeometry base;
  at::TensorGeometry view;
  std::shared_ptr<Node> fn;
};

}  // namespace torch::autograd
