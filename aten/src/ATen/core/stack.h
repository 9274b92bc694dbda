// aten/src/ATen/core/stack.h - the Stack of a boxed call: the arguments go in, the kernel pops
// them and pushes its returns. Mirrors PyTorch's aten/src/ATen/core/stack.h.
// Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <ATen/core/ivalue.h>

#include <vector>

namespace torch::jit {

using Stack = std::vector<c10::IValue>;

inline void drop(Stack& stack, size_t n) {
  stack.erase(stack.end() - static_cast<std::ptrdiff_t>(n), stack.end());
}
inline c10::IValue pop(Stack& stack) {
  c10::IValue v = std::move(stack.back());
  stack.pop_back();
  return v;
}
// The i-th of the last n values (the i-th argument of an operator taking n).
inline c10::IValue& peek(Stack& stack, size_t i, size_t n) {
  return *(stack.end() - static_cast<std::ptrdiff_t>(n - i));
}

}  // namespace torch::jit

namespace c10 {
using torch::jit::Stack;
}
