// torch/csrc/autograd/input_buffer.h - the gradients waiting for a node, summed as they arrive.
// Mirrors PyTorch's torch/csrc/autograd/input_buffer.h. Guide: docs/source/internals/autograd.rst.
//
// y = x * x uses x twice: two gradients arrive at x's node, one per use, and must be added
// before it runs. The engine keeps one InputBuffer per node that is not ready yet.
#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

namespace torch::autograd {

using Variable = at::Tensor;
using variable_list = std::vector<Variable>;

struct InputBuffer {
  explicit InputBuffer(size_t size) : buffer(size) {}
  InputBuffer(const InputBuffer& other) = delete;
  InputBuffer(InputBuffer&& other) = default;
  explicit InputBuffer(variable_list&& inputs) : buffer(std::move(inputs)) {}
  InputBuffer& operator=(InputBuffer&& other) = default;

  // Add var to the gradient at pos (an undefined var is no gradient and changes nothing).
  void add(size_t pos, Variable&& var);

  Variable operator[](size_t pos) { return buffer[pos]; }
  size_t size() const { return buffer.size(); }

  static std::vector<Variable> variables(InputBuffer&& g) { return std::move(g.buffer); }

  // The device whose queue the node runs from: that of its first non-CPU gradient, else the
  // CPU (PyTorch's rule: a node with CUDA inputs runs on that device's worker thread).
  at::Device device() const;

  std::vector<Variable> buffer;
};

}  // namespace torch::autograd
