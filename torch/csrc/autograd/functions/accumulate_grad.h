// torch/csrc/autograd/functions/accumulate_grad.h - the node at the end of every path: leaf.grad += grad.
// Mirrors PyTorch's torch/csrc/autograd/functions/accumulate_grad.h. Guide: docs/source/internals/autograd.rst.
//
// A leaf that requires grad has no grad_fn; its gradient edge leads to an AccumulateGrad
// node that holds the leaf and adds what arrives into leaf.grad. It has the highest
// sequence_nr there is, so the engine runs it as soon as it is ready.
#pragma once

#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/variable.h>

namespace torch::autograd {

struct TORCH_API AccumulateGrad : public Node {
  explicit AccumulateGrad(Variable variable);

  variable_list apply(variable_list&& grads) override;

  // A leaf's tensor hooks live on the leaf (this node is held only weakly by it and may be
  // recreated), so they are read from there.
  std::vector<std::unique_ptr<FunctionPreHook>>& tensor_pre_hooks() noexcept override {
    return impl::hooks(variable);
  }

  // [marker: accumulateGrad]
  // Into an empty .grad the new gradient goes as it is (detached), or is copied when someone
  // else holds it too or its strides are not its parameter's (the layout contract, in the
  // .cpp); later ones are added: in place under no_grad (backward), out of
  // place under create_graph, so the sum itself has a history.
  static void accumulateGrad(const Variable& variable, at::Tensor& variable_grad, const at::Tensor& new_grad,
                             size_t num_expected_refs);
  // [end marker: accumulateGrad]

  Variable variable;
};

}  // namespace torch::autograd
