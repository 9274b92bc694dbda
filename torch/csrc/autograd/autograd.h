// torch/csrc/autograd/autograd.h - backward() and grad(), the two ways to run the engine.
// Mirrors PyTorch's torch/csrc/autograd/autograd.h. Guide: docs/source/internals/autograd.rst.
#pragma once

#include <torch/csrc/autograd/variable.h>

#include <optional>

namespace torch::autograd {

using tensor_list = std::vector<at::Tensor>;

// Accumulate d(tensors)/d(leaf) into every leaf's .grad (or only into `inputs`' .grad).
// grad_tensors may be empty for scalar outputs (a gradient of one is made).
TORCH_API void backward(const variable_list& tensors, const variable_list& grad_tensors = {},
                        std::optional<bool> retain_graph = std::nullopt, bool create_graph = false,
                        const variable_list& inputs = {});

// Return d(outputs)/d(inputs) without touching .grad.
TORCH_API variable_list grad(const variable_list& outputs, const variable_list& inputs,
                             const variable_list& grad_outputs = {}, std::optional<bool> retain_graph = std::nullopt,
                             bool create_graph = false, bool allow_unused = false);

// What both share (and the Python bindings call): the checks and messages PyTorch gives.
TORCH_API variable_list run_backward(const variable_list& outputs, const variable_list& grad_outputs, bool keep_graph,
                                     bool create_graph, const variable_list& inputs, bool allow_unused,
                                     bool accumulate_grad);

}  // namespace torch::autograd
