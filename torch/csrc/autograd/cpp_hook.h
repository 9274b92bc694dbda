// torch/csrc/autograd/cpp_hook.h - C++ tensor hooks (Tensor::register_hook, retain_grad).
// Mirrors PyTorch's torch/csrc/autograd/cpp_hook.h. Guide: docs/source/internals/autograd.rst.
#pragma once

#include <torch/csrc/autograd/function_hook.h>

#include <functional>
#include <memory>
#include <vector>

namespace torch::autograd {

using hooks_list = std::vector<std::function<at::TensorBase(const at::TensorBase&)>>;

// The hooks of one tensor, run in order on the gradient that arrives at input value_idx of
// the node; each may return a replacement gradient (or an undefined tensor to keep it).
struct TORCH_API CppFunctionTensorPreHook : public FunctionPreHook {
  CppFunctionTensorPreHook(std::shared_ptr<hooks_list> hooks, size_t value_idx)
      : hooks_(std::move(hooks)), value_idx_(value_idx) {}
  variable_list operator()(const variable_list& values) override;

  std::shared_ptr<hooks_list> hooks_;
  size_t value_idx_;
};

// One hook (retain_grad's), same contract.
struct TORCH_API CppFunctionSingleTensorPreHook : public FunctionPreHook {
  CppFunctionSingleTensorPreHook(std::function<at::TensorBase(const at::TensorBase&)> hook, size_t value_idx)
      : hook_(std::move(hook)), value_idx_(value_idx) {}
  variable_list operator()(const variable_list& values) override;

  std::function<at::TensorBase(const at::TensorBase&)> hook_;
  size_t value_idx_;
};

}  // namespace torch::autograd
