// torch/csrc/autograd/engine.h - the autograd engine: runs the backward graph.
// Mirrors PyTorch's torch/csrc/autograd/engine.h. Guide: docs/source/internals/autograd.rst.
//
// backward() hands the engine the roots (the loss's gradient edge and its gradient). The
// engine
//   1. counts, for every node reachable from the roots, how many edges lead into it
//      (compute_dependencies): a node may run only when all its gradients have arrived;
//   2. keeps the gradients waiting for each node in an InputBuffer (not_ready);
//   3. runs ready nodes from a ready queue ordered by sequence_nr (latest-created first),
//      passing each result along the node's next_edges and decrementing dependencies;
//   4. for torch.autograd.grad, runs only the nodes on a path to the requested inputs and
//      captures the gradients that reach them (exec_info) instead of writing .grad.
// PyTorch runs CPU work on the thread that called backward and gives each GPU a worker
// thread; this engine runs everything on the calling thread, which is PyTorch's CPU path.
#pragma once

#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/input_buffer.h>

#include <exception>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

namespace torch::autograd {

struct GraphTask;

// [marker: NodeTask]
// One ready node and its summed input gradients.
struct NodeTask {
  std::weak_ptr<GraphTask> base_;
  std::shared_ptr<Node> fn_;
  InputBuffer inputs_;
  NodeTask(std::weak_ptr<GraphTask> base, std::shared_ptr<Node> fn, InputBuffer inputs)
      : base_(std::move(base)), fn_(std::move(fn)), inputs_(std::move(inputs)) {}
};

// Higher sequence_nr first: a node created later in the forward pass runs earlier in the
// backward pass (AccumulateGrad's is the maximum, so leaves are filled as soon as ready).
struct CompareNodeTaskTime {
  bool operator()(const NodeTask& t1, const NodeTask& t2) const {
    return t1.fn_->sequence_nr() < t2.fn_->sequence_nr();
  }
};

struct ReadyQueue {
  void push(NodeTask item) { heap_.push(std::move(item)); }
  NodeTask pop() {
    NodeTask task = std::move(const_cast<NodeTask&>(heap_.top()));
    heap_.pop();
    return task;
  }
  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }

 private:
  std::priority_queue<NodeTask, std::vector<NodeTask>, CompareNodeTaskTime> heap_;
};
// [end marker: NodeTask]

// [marker: GraphTask]
// The state of one backward() call.
struct GraphTask : std::enable_shared_from_this<GraphTask> {
  // For torch.autograd.grad: which nodes must run, and which gradients to capture.
  struct ExecInfo {
    struct Capture {
      Capture(int input_idx, int output_idx) : input_idx_(input_idx), output_idx_(output_idx) {}
      int input_idx_;   // which input of the node
      int output_idx_;  // which slot of the result
    };
    bool should_execute() const { return needed_ || captures_; }
    bool needed_ = false;
    std::unique_ptr<std::vector<Capture>> captures_;
  };

  GraphTask(bool keep_graph, bool grad_mode) : keep_graph_(keep_graph), grad_mode_(grad_mode) {}

  void init_to_execute(Node& graph_root, const edge_list& outputs, bool accumulate_grad);

  bool keep_graph_;  // retain_graph: do not free saved tensors after each node
  bool grad_mode_;   // create_graph: record the backward computation itself
  std::unordered_map<Node*, int> dependencies_;
  std::unordered_map<Node*, InputBuffer> not_ready_;
  std::unordered_map<Node*, ExecInfo> exec_info_;  // empty: run everything (backward())
  std::vector<Variable> captured_vars_;
  ReadyQueue ready_queue_;
};
// [end marker: GraphTask]

struct TORCH_API Engine {
  static Engine& get_default_engine();
  virtual ~Engine() = default;

  // Run the graph from `roots` with the given root gradients. With `outputs` (grad()):
  // return the gradients that reach those edges; otherwise accumulate into leaves' .grad.
  virtual variable_list execute(const edge_list& roots, const variable_list& inputs, bool keep_graph,
                                bool create_graph, bool accumulate_grad, const edge_list& outputs = {});

 protected:
  void compute_dependencies(Node* root, GraphTask& task);
  void evaluate_function(std::shared_ptr<GraphTask>& graph_task, Node* func, InputBuffer& inputs);
};

// Check (and fix where PyTorch does: broadcast shapes, dtypes) the gradients a node
// returned against the inputs they flow into. `format_error` names the node in messages.
TORCH_API void validate_outputs(const edge_list& edges, variable_list& grads,
                                const std::function<std::string(const std::string&)>& format_error);

}  // namespace torch::autograd
