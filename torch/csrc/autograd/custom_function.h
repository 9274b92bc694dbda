// torch/csrc/autograd/custom_function.h - torch::autograd::Function<T>: custom autograd functions in C++.
// Mirrors PyTorch's torch/csrc/autograd/custom_function.h. Guide: docs/source/internals/cpp_extensions.rst.
//
// The C++ twin of Python's torch.autograd.Function (python_function.cpp). A user struct
// derives from Function<MyFn> and writes two static methods:
//   static Tensor (or variable_list) forward(AutogradContext* ctx, <any arguments>);
//   static variable_list backward(AutogradContext* ctx, variable_list grad_outputs);
// MyFn::apply(args...) runs forward with grad mode off and records one CppNode<MyFn> as the
// grad_fn of its outputs; the engine later calls CppNode<MyFn>::apply, which calls backward.
// backward returns one gradient per forward argument, an undefined Tensor for arguments that
// are not tensors or need no gradient.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/core/ivalue.h>
#include <c10/core/GradMode.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/input_metadata.h>
#include <torch/csrc/autograd/saved_variable.h>
#include <torch/csrc/autograd/variable.h>

#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace torch::autograd {

// The `ctx` both static methods receive: what forward leaves for backward, and what
// forward tells apply about its outputs (dirty inputs, non-differentiable outputs).
struct TORCH_API AutogradContext {
  AutogradContext() = default;
  AutogradContext(const AutogradContext&) = delete;
  AutogradContext& operator=(const AutogradContext&) = delete;

  // Anything else backward needs (a double, an int, sizes...). A tensor kept here skips
  // the version check. (PyTorch's is a ska::flat_hash_map; the order is never used.)
  std::unordered_map<std::string, at::IValue> saved_data;

  // Tensors backward needs: saved as SavedVariables after forward returns (an output is
  // only known to be one then), and checked for in-place changes when unpacked.
  void save_for_backward(variable_list to_save);
  // Inputs forward wrote in place; they must be returned as outputs.
  void mark_dirty(const variable_list& inputs);
  // Outputs with no gradient (indices, masks): they come out with requires_grad=false.
  void mark_non_differentiable(const variable_list& outputs);
  // false: backward gets undefined tensors for outputs whose gradient was not computed,
  // instead of zeros.
  void set_materialize_grads(bool value);

  // The tensors of save_for_backward, in order; raises if one was modified in place since.
  variable_list get_saved_variables() const;
  const std::unordered_set<at::TensorImpl*>& get_and_bump_dirty() const;
  const std::unordered_set<at::TensorImpl*>& get_non_differentiable() const;

  // Does the tensor input at this index (counting tensor inputs only) want a gradient?
  bool needs_input_grad(size_t output_edge_index) const;
  bool needs_input_grad(std::initializer_list<IndexRange> idxs) const;

 private:
  std::unordered_set<at::TensorImpl*> non_differentiable_;
  std::unordered_set<at::TensorImpl*> dirty_inputs_;
  std::vector<SavedVariable> saved_variables_;
  variable_list to_save_;
  bool materialize_grads_ = true;
  // The node this context belongs to (weak: the node owns the context).
  std::weak_ptr<Node> grad_fn_;
  bool has_freed_buffers_ = false;

  void save_variables();

  template <class T>
  friend struct CppNode;
};

// Give forward's raw outputs their history as outputs of `cdata` (nullptr when nothing
// requires grad): the part of Function::apply that does not depend on T. Outputs that are
// undefined stay undefined (and take a slot of the node's inputs).
TORCH_API variable_list _wrap_outputs(const variable_list& input_vars,
                                      const std::unordered_set<at::TensorImpl*>& non_differentiable,
                                      const std::unordered_set<at::TensorImpl*>& dirty_inputs,
                                      const variable_list& raw_outputs, const std::shared_ptr<Node>& cdata);

// What forward returns for these arguments: at::Tensor or variable_list.
template <class T, typename... Args>
using forward_t = decltype(T::forward(nullptr, std::declval<Args>()...));

template <class T>
struct Function {
  // X = T delays naming T::forward until apply is called: T is still incomplete where it
  // derives from Function<T>.
  template <typename X = T, typename... Args>
  static auto apply(Args&&... args) -> std::enable_if_t<std::is_same_v<X, T>, forward_t<X, Args...>>;
};

// The backward node of Function<T>: one per apply() call, owning the context.
template <class T>
struct CppNode : public Node {
  variable_list apply(variable_list&& inputs) override;
  void release_variables() override;

  AutogradContext ctx_;
  // One per forward argument: was it a tensor? (backward returns one gradient per argument.)
  std::vector<bool> is_variable_input_;
  // Shape, dtype and device of each output, for the zeros of a gradient that never came.
  std::vector<InputMetadata> output_info_;
  // backward is user code that may write to ctx; the engine may call one node from two
  // threads (two backward passes over a shared graph).
  std::mutex mutex_;

  void set_ctx_grad_fn(const std::shared_ptr<Node>& node) { ctx_.grad_fn_ = node; }
  void save_variables_to_ctx() { ctx_.save_variables(); }
};

// Which arguments of apply are tensors: a Tensor, a defined optional<Tensor>, each tensor of
// a TensorList. Anything else (a double, a string, a std::vector<Tensor>, as in PyTorch) is
// passed to forward untouched and gets no gradient.
struct ExtractVariables {
  std::vector<bool>& is_var_;
  variable_list& list_;
  void operator()(const at::Tensor& x) {
    is_var_.push_back(true);
    list_.emplace_back(x);
  }
  void operator()(const std::optional<at::Tensor>& x) {
    const bool is_var = x.has_value() && x->defined();
    is_var_.push_back(is_var);
    if (is_var) list_.emplace_back(*x);
  }
  void operator()(at::TensorList list) {
    for (const at::Tensor& x : list) {
      is_var_.push_back(true);
      list_.emplace_back(x);
    }
  }
  template <typename U>
  void operator()(const U&) {
    is_var_.push_back(false);
  }
};

// The node's next edges: one per tensor input, invalid for an undefined one.
TORCH_API edge_list collect_function_next_edges(const variable_list& input_vars);

template <class T>
template <typename X, typename... Args>
auto Function<T>::apply(Args&&... args) -> std::enable_if_t<std::is_same_v<X, T>, forward_t<X, Args...>> {
  std::shared_ptr<CppNode<T>> node(new CppNode<T>(), deleteNode);
  variable_list input_vars;
  ExtractVariables extract{node->is_variable_input_, input_vars};
  (extract(args), ...);

  bool any_requires_grad = false;
  for (const auto& var : input_vars) {
    any_requires_grad |= var.defined() && var.requires_grad();
  }
  const bool is_executable = c10::GradMode::is_enabled() && any_requires_grad;
  node->set_ctx_grad_fn(node);
  if (is_executable) {
    node->set_next_edges(collect_function_next_edges(input_vars));
  }

  // forward's own operations are not recorded: the node stands for all of them.
  using forward_return_t = forward_t<X, Args...>;
  static_assert(std::is_same_v<forward_return_t, at::Tensor> || std::is_same_v<forward_return_t, variable_list>,
                "forward of a custom Function must return a Tensor or a variable_list");
  forward_return_t outputs;
  {
    c10::AutoGradMode grad_mode(false);
    outputs = T::forward(&node->ctx_, std::forward<Args>(args)...);
  }

  variable_list raw_outputs;
  if constexpr (std::is_same_v<forward_return_t, at::Tensor>) {
    raw_outputs.push_back(outputs);
  } else {
    raw_outputs = outputs;
  }
  auto wrapped_outputs = _wrap_outputs(input_vars, node->ctx_.get_non_differentiable(),
                                       node->ctx_.get_and_bump_dirty(), raw_outputs,
                                       is_executable ? node : nullptr);

  if (is_executable) {
    for (const auto& output : wrapped_outputs) {
      node->output_info_.emplace_back(output.defined() ? InputMetadata(output) : InputMetadata());
    }
    node->save_variables_to_ctx();
  }

  if constexpr (std::is_same_v<forward_return_t, at::Tensor>) {
    return wrapped_outputs[0];
  } else {
    return wrapped_outputs;
  }
}

// Zeros in place of a gradient that never arrived (undefined for an undefined output).
TORCH_API Variable zeros_like_output(const InputMetadata& info);

template <class T>
variable_list CppNode<T>::apply(variable_list&& inputs) {
  variable_list backward_inputs;
  backward_inputs.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].defined() || !ctx_.materialize_grads_) {
      backward_inputs.emplace_back(std::move(inputs[i]));
    } else {
      backward_inputs.emplace_back(zeros_like_output(output_info_.at(i)));
    }
  }

  std::lock_guard<std::mutex> lock(mutex_);
  auto outputs = T::backward(&ctx_, backward_inputs);

  const size_t num_forward_inputs = is_variable_input_.size();
  size_t num_outputs = outputs.size();
  // Extra trailing gradients are allowed if they are all undefined (PyTorch's rule).
  if (num_outputs > num_forward_inputs) {
    bool all_undef = true;
    for (size_t i = num_forward_inputs; i < num_outputs; ++i) {
      all_undef &= !outputs[i].defined();
    }
    if (all_undef) {
      outputs.resize(num_forward_inputs);
      num_outputs = num_forward_inputs;
    }
  }
  if (num_outputs != num_forward_inputs) {
    throw std::runtime_error("function " + name() + " returned an incorrect number of gradients (expected " +
                             std::to_string(num_forward_inputs) + ", got " + std::to_string(num_outputs) + ")");
  }

  // One gradient per tensor input (= per next edge); an undefined one is a zero gradient.
  variable_list results;
  results.reserve(num_outputs);
  for (size_t i = 0; i < num_outputs; ++i) {
    if (!is_variable_input_[i]) {
      if (outputs[i].defined()) {
        throw std::runtime_error("function " + name() + " returned a gradient different that is defined at position " +
                                 std::to_string(i + 1) + ", but the corresponding forward input was not a Variable");
      }
      continue;
    }
    results.emplace_back(std::move(outputs[i]));
  }
  return results;
}

template <class T>
void CppNode<T>::release_variables() {
  std::lock_guard<std::mutex> lock(mutex_);
  ctx_.saved_variables_.clear();
  ctx_.has_freed_buffers_ = true;
}

}  // namespace torch::autograd
