// torch/csrc/autograd/saved_variable.h - a tensor a node keeps for its backward formula.
// Mirrors PyTorch's torch/csrc/autograd/saved_variable.h. Guide: docs/source/internals/autograd.rst.
//
// MulBackward0 needs self and other to compute its gradients. Saving them is more than
// keeping a reference:
//   - the version counter's value is recorded, so that unpacking after an in-place write
//     to the tensor raises "one of the variables needed for gradient computation has been
//     modified by an inplace operation" instead of computing with the new values;
//   - a tensor that is an output of the saving node itself (exp saves its result) is kept
//     without its grad_fn (which is this node: a reference cycle) and given it back on
//     unpack;
//   - after backward the data is released (reset_data), so the memory goes; unpacking then
//     raises "Trying to backward through the graph a second time".
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/TensorImpl.h>

#include <memory>
#include <optional>

namespace torch::autograd {

using Variable = at::Tensor;
struct Node;

TORCH_API extern const char* ERR_BACKWARD_TWICE;

/// A tensor a Node keeps for its backward formula (PyTorch's
/// torch/csrc/autograd/saved_variable.h): the data, plus the version counter's value at
/// saving time, so that unpack() refuses data modified in place since.
/// It is a field of the node that saved it (MulBackward0's self_ and other_). For an output
/// of that node it keeps the data without the grad_fn (which would be a reference cycle) and
/// restores it on unpack; for a leaf it keeps only a weak reference to the leaf's
/// AccumulateGrad.
// [marker: SavedVariable]
class TORCH_API SavedVariable {
 public:
  SavedVariable() = default;
  /// Save variable; is_output if the saving node produced it (exp saves its result).
  SavedVariable(const Variable& variable, bool is_output, bool is_inplace_on_view = false);
  SavedVariable(const std::optional<Variable>& variable, bool is_output, bool is_inplace_on_view = false);
  SavedVariable(SavedVariable&&) = default;
  SavedVariable& operator=(SavedVariable&&) = default;

  /// The saved tensor, checked against its version; `saved_for` is the node unpacking it
  /// (the grad_fn an output gets back).
  Variable unpack(std::shared_ptr<Node> saved_for = nullptr) const;
  /// Drop the data after backward; unpack() then raises ERR_BACKWARD_TWICE.
  void reset_data();
  bool has_data() const { return data_.defined(); }
  bool was_default_constructed() const { return was_default_constructed_; }

 private:
  // For an input: the tensor itself. For an output: the same data without autograd state.
  Variable data_;
  // For a leaf that required grad: its accumulator (so a restored tensor leads there).
  std::weak_ptr<Node> grad_accumulator_;
  std::shared_ptr<Node> grad_fn_;  // a non-leaf input's grad_fn, for the error message
  c10::VariableVersion version_counter_;
  uint32_t saved_version_ = 0;
  uint32_t output_nr_ = 0;
  bool was_default_constructed_ = true;
  bool is_inplace_on_view_ = false;
  bool saved_original_ = false;
  bool is_leaf_ = false;
  bool is_output_ = false;
  bool requires_grad_ = false;
};
// [end marker: SavedVariable]

}  // namespace torch::autograd
