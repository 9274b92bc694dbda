// torch/csrc/autograd/anomaly_mode.h - extra data a node can carry (grad_fn.metadata).
// Mirrors PyTorch's torch/csrc/autograd/anomaly_mode.h. Guide: docs/source/internals/autograd.rst.
//
// PyTorch keeps here what anomaly detection records about a node; Python code may also
// store its own entries (grad_fn.metadata is a dict). The Python bindings register a
// factory that makes the dict-holding kind.
#pragma once

#include <c10/macros/Export.h>

#include <memory>

namespace torch::autograd {

struct TORCH_API AnomalyMetadata {
  virtual ~AnomalyMetadata() = default;
  // Set by torch._C (python_anomaly_mode.cpp's counterpart in python_cpp_function.cpp).
  static std::unique_ptr<AnomalyMetadata> (*factory)();
  static std::unique_ptr<AnomalyMetadata> make() {
    return factory ? factory() : std::make_unique<AnomalyMetadata>();
  }
};

}  // namespace torch::autograd
