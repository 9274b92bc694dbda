// torch/csrc/autograd/function.h - Node, one operation of the backward graph.
// Mirrors PyTorch's torch/csrc/autograd/function.h. Guide: docs/source/internals/autograd.rst.
//
// Seed 001, "Autograd mechanics": the graph is made of Function objects with an apply()
// method. Each forward operation on tensors that require grad creates a Node (MulBackward0,
// SumBackward0 ...) that knows how to turn the gradient of its outputs into gradients of its
// inputs, and where those go (next_edges). The graph is rebuilt on every forward pass; the
// engine (engine.cpp) walks it backwards from the loss.
#pragma once

#include <ATen/SequenceNumber.h>
#include <ATen/core/Tensor.h>
#include <torch/csrc/autograd/anomaly_mode.h>
#include <torch/csrc/autograd/edge.h>
#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/input_metadata.h>

#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace torch::autograd {

using Variable = at::Tensor;
using variable_list = std::vector<Variable>;
using edge_list = std::vector<Edge>;
using IndexRange = std::pair<size_t, size_t>;

/// One operation of the backward graph (PyTorch's torch/csrc/autograd/function.h): a
/// MulBackward0, SumBackward0 or AccumulateGrad, made by the forward operation it undoes.
/// apply() turns the gradients of the forward outputs into gradients of the forward inputs;
/// next_edges() says which node receives each of them. Nodes are held by std::shared_ptr:
/// a tensor's grad_fn and the edges of later nodes own them, so the graph lives as long as
/// tensors can reach it. A node owns its hooks and, in its generated subclass, the
/// SavedVariables its formula needs.
// [marker: Node]
struct TORCH_API Node : std::enable_shared_from_this<Node> {
 public:
  /// sequence_nr orders execution (higher runs first): by default the next number of this
  /// thread's counter, so nodes run in the reverse of their creation order.
  explicit Node(uint64_t sequence_nr, edge_list&& next_edges = edge_list())
      : sequence_nr_(sequence_nr), next_edges_(std::move(next_edges)) {}
  explicit Node(edge_list&& next_edges = edge_list())
      : Node(at::sequence_number::get_and_increment(), std::move(next_edges)) {}
  virtual ~Node() = default;

  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  /// Run the node: gradients of its outputs in, gradients of its inputs out.
  variable_list operator()(variable_list&& inputs) { return apply(std::move(inputs)); }

  // ---- what the node receives: one gradient per forward output ----
  /// Expect one more incoming gradient, shaped like t; returns its index.
  uint32_t add_input_metadata(const at::Tensor& t) {
    input_metadata_.emplace_back(t);
    return static_cast<uint32_t>(input_metadata_.size() - 1);
  }
  /// An input whose forward output was undefined (an optional output not produced).
  uint32_t add_input_metadata_undefined() {
    input_metadata_.emplace_back();
    return static_cast<uint32_t>(input_metadata_.size() - 1);
  }
  uint32_t num_inputs() const { return static_cast<uint32_t>(input_metadata_.size()); }
  const InputMetadata& input_metadata(size_t index) const { return input_metadata_.at(index); }

  // ---- where its results go: one edge per forward input ----
  const Edge& next_edge(size_t index) const { return next_edges_.at(index); }
  void set_next_edge(size_t index, Edge edge) { next_edges_.at(index) = std::move(edge); }
  void add_next_edge(Edge edge) { next_edges_.push_back(std::move(edge)); }
  void set_next_edges(edge_list&& next_edges) { next_edges_ = std::move(next_edges); }
  /// One edge per forward input: the node (and input number) its gradient goes to.
  const edge_list& next_edges() const noexcept { return next_edges_; }
  edge_list& next_edges() noexcept { return next_edges_; }
  uint32_t num_outputs() const noexcept { return static_cast<uint32_t>(next_edges_.size()); }

  uint64_t sequence_nr() const noexcept { return sequence_nr_; }

  /// "MulBackward0": the class name, demangled.
  virtual std::string name() const;

  /// Does anyone want the gradient of forward input `index`? (A formula can skip the work
  /// for inputs that do not require grad.)
  bool should_compute_output(size_t output_edge_index) const {
    return output_edge_index < next_edges_.size() && next_edges_[output_edge_index].is_valid();
  }
  bool should_compute_output(std::initializer_list<IndexRange> idxs) const {
    for (const auto& range : idxs) {
      for (size_t i = range.first; i < range.second; ++i) {
        if (should_compute_output(i)) return true;
      }
    }
    return false;
  }

  // ---- hooks ----
  /// grad_fn.register_hook(fn): fn(grad_inputs, grad_outputs) after the node runs.
  uintptr_t add_post_hook(std::unique_ptr<FunctionPostHook>&& post_hook) {
    post_hooks_.push_back(std::move(post_hook));
    return reinterpret_cast<uintptr_t>(post_hooks_.back().get());
  }
  std::vector<std::unique_ptr<FunctionPostHook>>& post_hooks() noexcept { return post_hooks_; }
  bool del_post_hook(const uintptr_t& key);
  /// grad_fn.register_prehook(fn): fn(grad_outputs) before the node runs.
  void add_pre_hook(std::unique_ptr<FunctionPreHook>&& pre_hook) { pre_hooks_.push_back(std::move(pre_hook)); }
  std::vector<std::unique_ptr<FunctionPreHook>>& pre_hooks() noexcept { return pre_hooks_; }
  /// tensor.register_hook on a tensor this node produced: they run first. (AccumulateGrad
  /// overrides this: a leaf's hooks live on the leaf, see accumulate_grad.h.)
  void add_tensor_pre_hook(std::unique_ptr<FunctionPreHook>&& pre_hook) {
    tensor_pre_hooks_.push_back(std::move(pre_hook));
  }
  virtual std::vector<std::unique_ptr<FunctionPreHook>>& tensor_pre_hooks() noexcept { return tensor_pre_hooks_; }
  /// tensor.retain_grad() on output `output_idx`: stores the gradient in tensor.grad.
  void add_retains_grad_hook(std::unique_ptr<FunctionPreHook>&& pre_hook, size_t output_idx) {
    retains_grad_hooks_.emplace_back(output_idx, std::move(pre_hook));
  }
  std::vector<std::pair<size_t, std::unique_ptr<FunctionPreHook>>>& retains_grad_hooks() noexcept {
    return retains_grad_hooks_;
  }

  /// Free what the node saved for backward (called after it ran, unless retain_graph).
  virtual void release_variables() {}
  virtual void will_release_variables() {}

  /// grad_fn.metadata: created on first use.
  AnomalyMetadata* metadata() {
    if (!anomaly_metadata_) {
      anomaly_metadata_ = AnomalyMetadata::make();
    }
    return anomaly_metadata_.get();
  }

  /// The Python object of this node (a grad_fn object), if Python has seen it: one Python
  /// object per node, as for tensors.
  void* pyobj() const noexcept { return pyobj_; }
  void set_pyobj(void* pyobj) noexcept { pyobj_ = pyobj; }

 protected:
  /// The backward formula, implemented by each subclass (called through operator()).
  virtual variable_list apply(variable_list&& inputs) = 0;

  const uint64_t sequence_nr_;
  edge_list next_edges_;
  void* pyobj_ = nullptr;
  std::unique_ptr<AnomalyMetadata> anomaly_metadata_;
  std::vector<InputMetadata> input_metadata_;
  std::vector<std::unique_ptr<FunctionPreHook>> tensor_pre_hooks_;
  std::vector<std::pair<size_t, std::unique_ptr<FunctionPreHook>>> retains_grad_hooks_;
  std::vector<std::unique_ptr<FunctionPreHook>> pre_hooks_;
  std::vector<std::unique_ptr<FunctionPostHook>> post_hooks_;
};
// [end marker: Node]

// "MulBackward0" -> "Mul": how PyTorch's error messages name the operation behind a node.
TORCH_API std::string forward_name_of(const std::string& node_name);

// Deleting a node can release the only reference to the next one, and so on: a long chain
// (a loop of a million additions) would recurse a million times. Nodes are created with
// this deleter, which frees such chains with a loop instead.
TORCH_API void deleteNode(Node* function);

// The edge a tensor's gradient leaves along: (grad_fn, output_nr), or (its AccumulateGrad, 0)
// for a leaf that requires grad, or an invalid edge.
TORCH_API Edge gradient_edge_of(const Variable& variable);

// The next_edges for a node whose forward inputs are these tensors.
inline void collect_next_edges_into(edge_list& edges, const Variable& v) {
  edges.push_back(gradient_edge_of(v));
}
inline void collect_next_edges_into(edge_list& edges, const std::optional<Variable>& v) {
  edges.push_back(v.has_value() ? gradient_edge_of(*v) : Edge());
}
inline void collect_next_edges_into(edge_list& edges, at::ArrayRef<Variable> vs) {
  for (const auto& v : vs) edges.push_back(gradient_edge_of(v));
}
inline void collect_next_edges_into(edge_list& edges, at::ArrayRef<std::optional<Variable>> vs) {
  for (const auto& v : vs) edges.push_back(v.has_value() ? gradient_edge_of(*v) : Edge());
}
template <typename... Args>
edge_list collect_next_edges(const Args&... variables) {
  edge_list edges;
  (collect_next_edges_into(edges, variables), ...);
  return edges;
}

}  // namespace torch::autograd
