// aten/src/ATen/core/dispatch/DispatchKeyExtractor.h - the union of the arguments' key sets.
// Mirrors PyTorch's aten/src/ATen/core/dispatch/DispatchKeyExtractor.h. Guide: docs/source/internals/dispatch.rst.
#pragma once

#include <ATen/core/TensorBase.h>
#include <c10/core/DispatchKeySet.h>

#include <optional>
#include <type_traits>
#include <vector>

namespace at {
class Tensor;
}

namespace c10::detail {

// Visits every argument; only tensors (plain, optional, lists) contribute keys.
struct MultiDispatchKeySet {
  DispatchKeySet ts;
  void operator()(const at::TensorBase& x) { ts = ts | x.key_set(); }
  void operator()(const std::optional<at::Tensor>& x);
  void operator()(c10::ArrayRef<at::Tensor> xs);
  void operator()(c10::ArrayRef<std::optional<at::Tensor>> xs);  // Tensor?[] (index, index_put_)
  template <class T, std::enable_if_t<!std::is_base_of_v<at::TensorBase, std::decay_t<T>>, int> = 0>
  void operator()(const T&) {}
};

// [marker: computeKeySetFromArgs]
template <class... Args>
DispatchKeySet computeKeySetFromArgs(const Args&... args) {
  MultiDispatchKeySet visitor;
  (visitor(args), ...);
  return visitor.ts;
}
// [end marker: computeKeySetFromArgs]

}  // namespace c10::detail
