// torch/csrc/autograd/function_hook.h - hooks that run around a node of the backward graph.
// Mirrors PyTorch's torch/csrc/autograd/function_hook.h. Guide: docs/source/internals/autograd.rst.
//
// A pre-hook sees (and may replace) the gradients a node receives: tensor.register_hook and
// grad_fn.register_prehook are pre-hooks. A post-hook sees what a node returned, with what
// it received: grad_fn.register_hook.
#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

namespace torch::autograd {

using Variable = at::Tensor;
using variable_list = std::vector<Variable>;

struct TORCH_API FunctionPreHook {
  virtual ~FunctionPreHook() = default;
  virtual variable_list operator()(const variable_list& grads) = 0;
};

struct TORCH_API FunctionPostHook {
  virtual ~FunctionPostHook() = default;
  virtual variable_list operator()(const variable_list& outputs, const variable_list& inputs) = 0;
};

}  // namespace torch::autograd
