// torch/csrc/autograd/edge.h - an arrow of the backward graph: (node, which of its inputs).
// Mirrors PyTorch's torch/csrc/autograd/edge.h. Guide: docs/source/internals/autograd.rst.
//
// A tensor made by an operator points at the node that will compute its gradient's
// consumers: x = a * b gives x the edge (MulBackward0, 0). A node's next_edges say where
// each gradient it computes goes: MulBackward0's are the edges of a and of b.
#pragma once

#include <cstdint>
#include <memory>

namespace torch::autograd {

struct Node;

struct Edge {
  Edge() noexcept : function(nullptr), input_nr(0) {}
  Edge(std::shared_ptr<Node> function_, uint32_t input_nr_) noexcept
      : function(std::move(function_)), input_nr(input_nr_) {}

  // An edge to nothing: the input it stands for needs no gradient.
  bool is_valid() const noexcept { return function != nullptr; }

  bool operator==(const Edge& other) const noexcept {
    return function == other.function && input_nr == other.input_nr;
  }
  bool operator!=(const Edge& other) const noexcept { return !(*this == other); }

  // The node the gradient flows into, and which of its inputs it arrives at.
  std::shared_ptr<Node> function;
  uint32_t input_nr;
};

}  // namespace torch::autograd
