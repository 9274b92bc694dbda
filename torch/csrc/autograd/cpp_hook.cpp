// torch/csrc/autograd/cpp_hook.cpp - running C++ tensor hooks on a gradient.
// Mirrors PyTorch's torch/csrc/autograd/cpp_hook.cpp. Guide: docs/source/internals/autograd.rst.
#include <torch/csrc/autograd/cpp_hook.h>

namespace torch::autograd {

variable_list CppFunctionTensorPreHook::operator()(const variable_list& values) {
  variable_list value = values;
  for (const auto& hook : *hooks_) {
    if (!hook) {
      continue;  // a removed hook
    }
    auto res = hook(value[value_idx_]);
    if (res.defined()) {
      value[value_idx_] = at::Tensor(res);
    }
  }
  return value;
}

variable_list CppFunctionSingleTensorPreHook::operator()(const variable_list& values) {
  variable_list value = values;
  auto res = hook_(value[value_idx_]);
  if (res.defined()) {
    value[value_idx_] = at::Tensor(res);
  }
  return value;
}

}  // namespace torch::autograd
