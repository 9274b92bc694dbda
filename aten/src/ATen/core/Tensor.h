// aten/src/ATen/core/Tensor.h - at::Tensor: the generated class plus what needs it complete.
// Mirrors PyTorch's aten/src/ATen/core/Tensor.h. Guide: docs/source/internals/tensors.rst.
#pragma once

#include <ATen/core/TensorBody.h>
#include <ATen/core/dispatch/DispatchKeyExtractor.h>

namespace c10::detail {

inline void MultiDispatchKeySet::operator()(const std::optional<at::Tensor>& x) {
  if (x.has_value()) {
    ts = ts | x->key_set();
  }
}

inline void MultiDispatchKeySet::operator()(c10::ArrayRef<at::Tensor> xs) {
  for (const auto& x : xs) {
    ts = ts | x.key_set();
  }
}

inline void MultiDispatchKeySet::operator()(c10::ArrayRef<std::optional<at::Tensor>> xs) {
  for (const auto& x : xs) {
    if (x.has_value()) {
      ts = ts | x->key_set();
    }
  }
}

}  // namespace c10::detail
