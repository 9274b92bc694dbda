// torch/csrc/autograd/autograd.cpp - from tensors to the engine's roots, and PyTorch's errors on the way.
// Mirrors PyTorch's torch/csrc/autograd/autograd.cpp (and the checks of python_engine.cpp and
// torch/autograd/__init__.py). Guide: docs/source/internals/autograd.rst.
#include <torch/csrc/autograd/autograd.h>

#include <ATen/Functions.h>
#include <torch/csrc/autograd/engine.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/functions/basic_ops.h>

#include <sstream>

namespace torch::autograd {

namespace {

// A gradient of ones for an output that got none: only for real scalars (undefined for an
// output that does not require grad; the check on its grad_fn reports it).
Variable implicit_grad(const Variable& output) {
  if (!output.requires_grad()) {
    return Variable();
  }
  TORCH_CHECK(output.numel() == 1, "grad can be implicitly created only for scalar outputs");
  TORCH_CHECK(c10::isFloatingType(output.scalar_type()),
              "grad can be implicitly created only for real scalar outputs but got ", output.scalar_type());
  return at::ones_like(output);
}

// [marker: _make_grads]
// The gradient to start from for each output: the one given, or ones for a scalar.
variable_list _make_grads(const variable_list& outputs, const variable_list& grad_outputs) {
  const size_t num_tensors = outputs.size();
  const size_t num_gradients = grad_outputs.size();
  variable_list new_grads;
  new_grads.reserve(num_tensors);
  if (grad_outputs.empty()) {
    for (const Variable& output : outputs) {
      new_grads.push_back(implicit_grad(output));
    }
    return new_grads;
  }
  TORCH_CHECK(num_tensors == num_gradients, "got ", num_tensors, " tensors and ", num_gradients,
              " gradients");
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Variable& output = outputs[i];
    const Variable& grad_output = grad_outputs[i];
    if (!grad_output.defined()) {
      new_grads.push_back(implicit_grad(output));
    } else {
      if (grad_output.sizes() != output.sizes()) {
        std::stringstream ss;
        ss << "Mismatch in shape: grad_output[" << i << "] has a shape of torch.Size(" << grad_output.sizes()
           << ") and output[" << i << "] has a shape of torch.Size(" << output.sizes() << ").";
        TORCH_CHECK(false, ss.str());
      }
      TORCH_CHECK(c10::isComplexType(grad_output.scalar_type()) == c10::isComplexType(output.scalar_type()),
                  "For complex Tensors, both grad_output and output are required to have the same dtype. Mismatch "
                  "in dtype: grad_output[", i, "] has a dtype of ", grad_output.scalar_type(), " and output[", i,
                  "] has a dtype of ", output.scalar_type(), ".");
      new_grads.emplace_back(grad_output);
    }
  }
  return new_grads;
}
// [end marker: _make_grads]

}  // namespace

variable_list run_backward(const variable_list& outputs, const variable_list& grad_outputs, bool keep_graph,
                           bool create_graph, const variable_list& inputs, bool allow_unused, bool accumulate_grad) {
  const variable_list grads = _make_grads(outputs, grad_outputs);
  edge_list roots;
  variable_list root_grads;
  size_t grad_index = 0;
  for (size_t i = 0; i < outputs.size(); i++) {
    const Variable& output = outputs[i];
    auto gradient_edge = impl::gradient_edge(output);
    TORCH_CHECK(gradient_edge.function, "element ", i, " of tensors does not require grad and does not have a grad_fn");
    roots.push_back(std::move(gradient_edge));
    root_grads.push_back(grads.at(grad_index++));
  }

  edge_list output_edges;
  output_edges.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Variable& input = inputs[i];
    const auto output_nr = input.output_nr();
    auto grad_fn = input.grad_fn();
    if (!grad_fn) {
      grad_fn = impl::try_get_grad_accumulator(input);
    }
    if (accumulate_grad) {
      // backward(inputs=...): make sure a leaf has its accumulator.
      TORCH_CHECK(input.is_leaf() || input.requires_grad(), "One of the differentiated Tensors does not require grad");
      if (input.is_leaf()) {
        grad_fn = impl::grad_accumulator(input);
      }
    }
    TORCH_CHECK(input.requires_grad(), "One of the differentiated Tensors does not require grad");
    if (!grad_fn) {
      // A leaf that is not part of the graph: its gradient is None (or an error, below).
      output_edges.emplace_back(std::make_shared<Error>("unused", edge_list()), 0);
    } else {
      output_edges.emplace_back(grad_fn, output_nr);
    }
  }

  variable_list grad_inputs =
      Engine::get_default_engine().execute(roots, root_grads, keep_graph, create_graph, accumulate_grad, output_edges);
  if (!inputs.empty() && !accumulate_grad) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      TORCH_CHECK(allow_unused || grad_inputs[i].defined(), "The differentiated Tensor at index ", i,
                  " appears to not have been used in the graph. Set allow_unused=True if this is the desired "
                  "behavior.");
    }
  }
  return grad_inputs;
}

void backward(const variable_list& tensors, const variable_list& grad_tensors, std::optional<bool> retain_graph,
              bool create_graph, const variable_list& inputs) {
  run_backward(tensors, grad_tensors, retain_graph.value_or(create_graph), create_graph, inputs,
               /*allow_unused=*/true, /*accumulate_grad=*/true);
}

variable_list grad(const variable_list& outputs, const variable_list& inputs, const variable_list& grad_outputs,
                   std::optional<bool> retain_graph, bool create_graph, bool allow_unused) {
  return run_backward(outputs, grad_outputs, retain_graph.value_or(create_graph), create_graph, inputs, allow_unused,
                      /*accumulate_grad=*/false);
}

}  // namespace torch::autograd
