// torch/csrc/autograd/functions/basic_ops.h - nodes that are not operators: the root, errors.
// Mirrors PyTorch's torch/csrc/autograd/functions/basic_ops.h. Guide: docs/source/internals/autograd.rst.
#pragma once

#include <torch/csrc/autograd/function.h>

#include <string>

namespace torch::autograd {

// A node whose backward is an error (an operator without a derivative formula).
struct TORCH_API Error : public Node {
  Error(std::string msg, edge_list&& next_edges) : Node(std::move(next_edges)), msg(std::move(msg)) {}
  explicit Error(std::string msg) : msg(std::move(msg)) {}
  variable_list apply(variable_list&& inputs) override;
  std::string msg;
};

// "the derivative for 'aten::foo' is not implemented".
struct TORCH_API NotImplemented : public Error {
  NotImplemented(const std::string& forward_fn, edge_list&& next_edges)
      : Error("derivative for " + forward_fn + " is not implemented", std::move(next_edges)) {}
  explicit NotImplemented(const std::string& forward_fn) : Error("derivative for " + forward_fn + " is not implemented") {}
};

// Where a backward pass with several roots starts: it "computes" the given gradients of
// the outputs and sends each along the output's gradient edge.
struct TORCH_API GraphRoot : public Node {
  GraphRoot(edge_list functions, variable_list inputs) : Node(std::move(functions)), outputs(std::move(inputs)) {}
  variable_list apply(variable_list&& inputs) override { return outputs; }
  variable_list outputs;
};

}  // namespace torch::autograd
