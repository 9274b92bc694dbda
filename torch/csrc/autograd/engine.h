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
// Threads, as in PyTorch: CPU work runs on the thread that called backward, from a ready
// queue of its own; each CUDA device has a worker thread with one ready queue, started the
// first time a backward pass reaches a CUDA node. A node goes to the queue of the device of
// its first non-CPU gradient (InputBuffer::device). The calling thread waits on its queue
// until its graph has no outstanding task; a worker that finishes the graph's last task
// wakes it with an empty task.
#pragma once

#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/input_buffer.h>

#include <c10/util/Exception.h>

#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <queue>
#include <unordered_map>
#include <vector>

namespace torch::autograd {

struct GraphTask;

// [marker: NodeTask]
// One ready node and its summed input gradients. fn_ == nullptr: an empty task that only
// wakes the thread waiting on the queue (a graph finished on another thread).
struct NodeTask {
  std::weak_ptr<GraphTask> base_;
  std::shared_ptr<Node> fn_;
  InputBuffer inputs_;
  NodeTask(std::weak_ptr<GraphTask> base, std::shared_ptr<Node> fn, InputBuffer inputs)
      : base_(std::move(base)), fn_(std::move(fn)), inputs_(std::move(inputs)) {}
  int getReentrantDepth() const;
};

// Empty tasks first; then the deeper of two nested (reentrant) backward calls, whose caller
// is waiting for it; then the higher sequence_nr: a node created later in the forward pass
// runs earlier in the backward pass (AccumulateGrad's is the maximum, so leaves are filled
// as soon as ready).
struct CompareNodeTaskTime {
  bool operator()(const NodeTask& t1, const NodeTask& t2) const {
    if (!t1.fn_) {
      return false;
    }
    if (!t2.fn_) {
      return true;
    }
    if (t1.getReentrantDepth() == t2.getReentrantDepth()) {
      return t1.fn_->sequence_nr() < t2.fn_->sequence_nr();
    }
    return t1.getReentrantDepth() < t2.getReentrantDepth();
  }
};

// Shared by the threads that push (any thread finishing a node) and the one that pops.
struct ReadyQueue {
  // A task counts as outstanding work of its graph from its push until it has run.
  void push(NodeTask item, bool incrementOutstandingTasks = true);
  // Wait for a task.
  NodeTask pop();
  bool empty() const;
  size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable not_empty_;
  std::priority_queue<NodeTask, std::vector<NodeTask>, CompareNodeTaskTime> heap_;
};
// [end marker: NodeTask]

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

  GraphTask(bool keep_graph, bool grad_mode, int reentrant_depth, std::shared_ptr<ReadyQueue> cpu_ready_queue)
      : keep_graph_(keep_graph),
        grad_mode_(grad_mode),
        reentrant_depth_(reentrant_depth),
        cpu_ready_queue_(std::move(cpu_ready_queue)) {}

  void init_to_execute(Node& graph_root, const edge_list& outputs, bool accumulate_grad);

  // Done: no task left anywhere, or one failed (the others are then skipped).
  bool completed() const { return outstanding_tasks_.load() == 0 || has_error_.load(); }
  // Keep the first exception; backward() rethrows it on the calling thread.
  void set_exception(std::exception_ptr eptr);

  bool keep_graph_;  // retain_graph: do not free saved tensors after each node
  bool grad_mode_;   // create_graph: record the backward computation itself
  int reentrant_depth_;  // 0, or how deep inside another backward this one was called
  // The thread that called backward (NO_DEVICE) or, for a backward called inside a node
  // on a device's worker, that device: whoever must be woken when the graph is done.
  int owner_ = -2;
  std::atomic<uint64_t> outstanding_tasks_{0};
  std::atomic<bool> has_error_{false};
  std::exception_ptr exception_;
  // Guards what the threads running this graph's nodes share: dependencies_, not_ready_,
  // captured_vars_ and exception_.
  std::mutex mutex_;
  std::unordered_map<Node*, int> dependencies_;
  std::unordered_map<Node*, InputBuffer> not_ready_;
  std::unordered_map<Node*, ExecInfo> exec_info_;  // empty: run everything (backward())
  std::vector<Variable> captured_vars_;
  // The calling thread's queue: CPU nodes of this graph run from it.
  std::shared_ptr<ReadyQueue> cpu_ready_queue_;

  // Warnings raised by nodes on worker threads, replayed on the calling thread at the end
  // (a thread's warning handler is its own: Python's is on the calling thread).
  struct WarningBuffer : public c10::WarningHandler {
    void process(const c10::Warning& warning) override {
      std::lock_guard<std::mutex> lock(mutex_);
      warnings_.push_back(warning);
    }
    void replay_warnings();
    std::mutex mutex_;
    std::vector<c10::Warning> warnings_;
  };
  WarningBuffer warning_handler_;
};

/// The autograd engine (PyTorch's torch/csrc/autograd/engine.h): runs a backward graph from
/// its roots, one GraphTask per backward() or torch.autograd.grad() call.
/// The default engine lives for the whole process. It owns one ReadyQueue per CUDA device,
/// each drained by that device's worker thread; a GraphTask holds the queue of the thread
/// that called backward, which runs the graph's CPU nodes.
struct TORCH_API Engine {
  /// The engine backward() and torch.autograd.grad() use (never destroyed).
  static Engine& get_default_engine();
  virtual ~Engine() = default;

  /// Run the graph from `roots` with the given root gradients. With `outputs` (grad()):
  /// return the gradients that reach those edges; otherwise accumulate into leaves' .grad.
  virtual variable_list execute(const edge_list& roots, const variable_list& inputs, bool keep_graph,
                                bool create_graph, bool accumulate_grad, const edge_list& outputs = {});

 protected:
  void compute_dependencies(Node* root, GraphTask& task);
  void evaluate_function(std::shared_ptr<GraphTask>& graph_task, Node* func, InputBuffer& inputs);
  /// Run tasks from this thread's queue until graph_task is done (nullptr: forever, a worker).
  void thread_main(const std::shared_ptr<GraphTask>& graph_task);
  /// A device worker's life: set the device, then thread_main(nullptr).
  void thread_init(int device, const std::shared_ptr<ReadyQueue>& ready_queue);
  /// The queue a node with inputs on `device` goes to.
  std::shared_ptr<ReadyQueue> ready_queue(const std::shared_ptr<ReadyQueue>& cpu_ready_queue, at::Device device);
  std::shared_ptr<ReadyQueue> ready_queue_by_index(const std::shared_ptr<ReadyQueue>& cpu_ready_queue, int device_index);
  void start_device_threads();

  std::once_flag start_device_threads_flag_;
  // One per CUDA device, each drained by its worker thread (created on first use).
  std::vector<std::shared_ptr<ReadyQueue>> device_ready_queues_;
};

// Check (and fix where PyTorch does: broadcast shapes, dtypes) the gradients a node
// returned against the inputs they flow into. `format_error` names the node in messages.
TORCH_API void validate_outputs(const edge_list& edges, variable_list& grads,
                                const std::function<std::string(const std::string&)>& format_error);

}  // namespace torch::autograd
