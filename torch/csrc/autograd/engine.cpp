// torch/csrc/autograd/engine.cpp - dependency counting, the ready queue, running nodes.
// Mirrors PyTorch's torch/csrc/autograd/engine.cpp. Guide: docs/source/internals/autograd.rst.
#include <torch/csrc/autograd/engine.h>

#include <ATen/core/ivalue.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <ATen/record_function.h>
#include <c10/core/GradMode.h>
#include <torch/csrc/autograd/functions/basic_ops.h>

#include <pthread.h>

#include <optional>
#include <sstream>
#include <thread>
#include <unordered_set>

namespace torch::autograd {

namespace {
// Which queue this thread serves: NO_DEVICE for a thread that called backward, else the
// index of the CUDA device whose worker it is.
constexpr int NO_DEVICE = -2;
constexpr int CPU_DEVICE = -1;
thread_local int worker_device = NO_DEVICE;
// The queue this thread pops from: a device worker's device queue, or the calling thread's
// own queue (made on its first backward, kept for its next ones).
thread_local std::shared_ptr<ReadyQueue> local_ready_queue;
// How many backward calls this thread is inside (a node calling backward: checkpointing).
thread_local int current_depth = 0;
// Set in a child process forked after the worker threads started: fork copies only the
// calling thread, so the child has queues nobody drains.
bool in_bad_autograd_fork = false;

void forked_autograd_child() {
  in_bad_autograd_fork = true;
}
}  // namespace

Engine& Engine::get_default_engine() {
  // Never destroyed: its worker threads may still be waiting on its queues at exit.
  static Engine* engine = new Engine();
  return *engine;
}

int NodeTask::getReentrantDepth() const {
  std::shared_ptr<GraphTask> graph_task = base_.lock();
  return graph_task ? graph_task->reentrant_depth_ : 0;
}

void ReadyQueue::push(NodeTask item, bool incrementOutstandingTasks) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (incrementOutstandingTasks) {
      std::shared_ptr<GraphTask> graph_task = item.base_.lock();
      TORCH_INTERNAL_ASSERT(graph_task, "GraphTask is no longer valid!");
      ++graph_task->outstanding_tasks_;
    }
    heap_.push(std::move(item));
  }
  not_empty_.notify_one();
}

NodeTask ReadyQueue::pop() {
  std::unique_lock<std::mutex> lock(mutex_);
  not_empty_.wait(lock, [this] { return !heap_.empty(); });
  NodeTask task = std::move(const_cast<NodeTask&>(heap_.top()));
  heap_.pop();
  return task;
}

bool ReadyQueue::empty() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return heap_.empty();
}

size_t ReadyQueue::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return heap_.size();
}

void GraphTask::set_exception(std::exception_ptr eptr) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!has_error_.load()) {
    exception_ = std::move(eptr);
    has_error_ = true;
  }
}

void GraphTask::WarningBuffer::replay_warnings() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& warning : warnings_) {
    c10::warn(warning);
  }
  warnings_.clear();
}

// [marker: device_threads]
void Engine::start_device_threads() {
  const int num_devices = at::detail::getCUDAHooks().getNumGPUs();
  device_ready_queues_.resize(num_devices);
  for (auto& queue : device_ready_queues_) {
    queue = std::make_shared<ReadyQueue>();
  }
  for (int device = 0; device < num_devices; ++device) {
    std::thread t(&Engine::thread_init, this, device, device_ready_queues_[device]);
    t.detach();
  }
  // A child forked from here on inherits queues without their threads.
  pthread_atfork(nullptr, nullptr, forked_autograd_child);
}

void Engine::thread_init(int device, const std::shared_ptr<ReadyQueue>& ready_queue) {
  worker_device = device;
  local_ready_queue = ready_queue;
  // Kernels launched here use this device's current stream and allocate on it by default.
  at::detail::getCUDAHooks().setCurrentDevice(static_cast<c10::DeviceIndex>(device));
  thread_main(nullptr);
}

std::shared_ptr<ReadyQueue> Engine::ready_queue(const std::shared_ptr<ReadyQueue>& cpu_ready_queue, at::Device device) {
  if (device.type() != c10::DeviceType::CUDA) {
    return cpu_ready_queue;  // CPU (and meta) nodes run on the calling thread
  }
  TORCH_CHECK(!in_bad_autograd_fork,
              "Unable to handle autograd's threading in combination with fork-based multiprocessing. "
              "See https://github.com/pytorch/pytorch/wiki/Autograd-and-Fork");
  std::call_once(start_device_threads_flag_, &Engine::start_device_threads, this);
  return device_ready_queues_.at(device.index());
}

std::shared_ptr<ReadyQueue> Engine::ready_queue_by_index(const std::shared_ptr<ReadyQueue>& cpu_ready_queue,
                                                         int device_index) {
  if (device_index == CPU_DEVICE || device_index == NO_DEVICE) {
    return cpu_ready_queue;
  }
  return device_ready_queues_.at(device_index);
}
// [end marker: device_threads]

// [marker: thread_main]
void Engine::thread_main(const std::shared_ptr<GraphTask>& graph_task) {
  while (graph_task == nullptr || !graph_task->completed()) {
    std::shared_ptr<GraphTask> local_graph_task;
    {
      NodeTask task = local_ready_queue->pop();
      if (!(local_graph_task = task.base_.lock())) {
        continue;  // its backward() has returned already (another node failed)
      }
      if (task.fn_ && !local_graph_task->has_error_.load()) {
        c10::AutoGradMode grad_mode(local_graph_task->grad_mode_);
        // On a worker, the node's warnings are kept for the calling thread.
        std::optional<c10::WarningUtils::WarningHandlerGuard> warnings;
        if (worker_device != NO_DEVICE) {
          warnings.emplace(&local_graph_task->warning_handler_);
        }
        try {
          // [marker: evaluate_function record]
          // One profiler event per node the engine runs, named as PyTorch names it.
          RECORD_FUNCTION(c10::str("autograd::engine::evaluate_function: ", task.fn_->name()),
                          c10::ArrayRef<const c10::IValue>());
          // [end marker: evaluate_function record]
          evaluate_function(local_graph_task, task.fn_.get(), task.inputs_);
        } catch (...) {
          local_graph_task->set_exception(std::current_exception());
        }
      }
    }
    // The task (and the gradients it held) is gone: count it done.
    --local_graph_task->outstanding_tasks_;
    if (local_graph_task->completed()) {
      // The thread that owns the graph may be asleep in pop() with nothing left to do:
      // an empty task wakes it to see that the graph is done.
      const int base_owner = local_graph_task->owner_;
      if (worker_device != base_owner) {
        ready_queue_by_index(local_graph_task->cpu_ready_queue_, base_owner)
            ->push(NodeTask(local_graph_task, nullptr, InputBuffer(0)));
      }
    }
  }
}
// [end marker: thread_main]

// [marker: validate_outputs]
void validate_outputs(const edge_list& edges, variable_list& grads,
                      const std::function<std::string(const std::string&)>& format_error) {
  if (grads.size() != edges.size()) {
    std::stringstream ss;
    ss << "invalid number of gradients - expected " << edges.size() << ", but got " << grads.size();
    TORCH_CHECK(false, format_error(ss.str()));
  }
  for (size_t i = 0; i < grads.size(); i++) {
    const auto& edge = edges[i];
    if (!edge.is_valid()) {
      continue;
    }
    const auto& metadata = edge.function->input_metadata(edge.input_nr);
    auto& grad = grads[i];
    if (!grad.defined() || !metadata.is_defined()) {
      continue;
    }
    if (!metadata.is_same_shape(grad)) {
      // A gradient of the broadcast shape: sum it down to the input's own shape.
      TORCH_CHECK(metadata.is_expandable_to_shape(grad), format_error(metadata.incompatible_shape_error_message(i, grad)));
      grad = metadata.reduce_grad(grad);
    }
    if (grad.device() != metadata.device()) {
      std::stringstream ss;
      ss << "invalid gradient at index " << i << " - expected device " << metadata.device() << " but got "
         << grad.device();
      TORCH_CHECK(false, format_error(ss.str()));
    }
    if (grad.scalar_type() != metadata.dtype()) {
      grad = grad.to(metadata.dtype());
    }
  }
}
// [end marker: validate_outputs]

// [marker: compute_dependencies]
void Engine::compute_dependencies(Node* root, GraphTask& task) {
  // How many edges lead into each node reachable from the root.
  std::unordered_set<Node*> seen;
  std::vector<Node*> queue{root};
  auto& dependencies = task.dependencies_;
  while (!queue.empty()) {
    auto* fn = queue.back();
    queue.pop_back();
    for (const auto& edge : fn->next_edges()) {
      if (auto* next_ptr = edge.function.get()) {
        dependencies[next_ptr] += 1;
        if (seen.insert(next_ptr).second) {
          queue.push_back(next_ptr);
        }
      }
    }
  }
}
// [end marker: compute_dependencies]

// [marker: init_to_execute]
void GraphTask::init_to_execute(Node& graph_root, const edge_list& outputs, bool accumulate_grad) {
  // Mark the nodes the requested gradients arrive at: capture (grad()) or run (backward(inputs=)).
  int output_idx = 0;
  for (const auto& output_edge : outputs) {
    Node* output = output_edge.function.get();
    auto& info = exec_info_[output];
    if (accumulate_grad) {
      info.needed_ = true;
    } else {
      if (!info.captures_) {
        info.captures_ = std::make_unique<std::vector<ExecInfo::Capture>>();
      }
      info.captures_->emplace_back(output_edge.input_nr, output_idx);
    }
    output_idx++;
  }
  captured_vars_.resize(output_idx);

  // Then every node with a path to a marked node is needed: a depth-first walk that marks
  // a node once all its children have been looked at.
  struct Frame {
    explicit Frame(Node* fn) : fn_(fn) {}
    Node* fn_;
    size_t next_next_fn_ = 0;
    Node* get_next_fn() {
      const auto& next = fn_->next_edges();
      auto num_next = next.size();
      while (next_next_fn_ < num_next) {
        auto* fn = next[next_next_fn_++].function.get();
        if (fn) return fn;
      }
      return nullptr;
    }
  };
  std::vector<Frame> stack;
  std::unordered_set<Node*> seen;
  stack.emplace_back(&graph_root);
  exec_info_[&graph_root];
  while (!stack.empty()) {
    auto& frame = stack.back();
    Node* fn = frame.fn_;
    Node* child_fn = nullptr;
    while ((child_fn = frame.get_next_fn()) && !seen.emplace(child_fn).second) {
      auto it = exec_info_.find(child_fn);
      if (it != exec_info_.end() && it->second.should_execute()) {
        exec_info_[fn].needed_ = true;
      }
    }
    if (child_fn) {
      stack.emplace_back(child_fn);
    } else {
      stack.pop_back();
      if (exec_info_[fn].should_execute() && !stack.empty()) {
        exec_info_[stack.back().fn_].needed_ = true;
      }
    }
  }
}
// [end marker: init_to_execute]

namespace {

variable_list call_tensor_pre_hooks(Node& fn, variable_list inputs) {
  for (const auto& hook : fn.tensor_pre_hooks()) {
    inputs = (*hook)(inputs);
  }
  for (const auto& pair : fn.retains_grad_hooks()) {
    inputs = (*pair.second)(inputs);
  }
  return inputs;
}

variable_list call_pre_hooks(Node& fn, variable_list inputs) {
  for (const auto& hook : fn.pre_hooks()) {
    inputs = (*hook)(inputs);
  }
  return inputs;
}

variable_list call_post_hooks(Node& fn, variable_list outputs, const variable_list& inputs) {
  for (const auto& hook : fn.post_hooks()) {
    outputs = (*hook)(outputs, inputs);
  }
  return outputs;
}

// [marker: call_function]
variable_list call_function(std::shared_ptr<GraphTask>& graph_task, Node* func, InputBuffer& inputBuffer) {
  auto& fn = *func;
  auto inputs = call_tensor_pre_hooks(fn, InputBuffer::variables(std::move(inputBuffer)));
  inputs = call_pre_hooks(fn, std::move(inputs));
  if (!graph_task->keep_graph_) {
    fn.will_release_variables();
  }
  const bool has_post_hooks = !fn.post_hooks().empty();
  variable_list outputs;
  {
    // [marker: node record]
    // The node itself, as PyTorch's Node::operator() records it: BACKWARD_FUNCTION, with the
    // sequence number its forward operator recorded.
    at::RecordFunction guard(at::RecordScope::BACKWARD_FUNCTION);
    if (guard.isActive()) {
      const auto seq = static_cast<int64_t>(fn.sequence_nr());
      if (guard.needsInputs()) {
        const std::vector<c10::IValue> inputs_vec(inputs.begin(), inputs.end());
        guard.before(fn.name(), c10::ArrayRef<const c10::IValue>(inputs_vec.data(), inputs_vec.size()), seq);
      } else {
        guard.before(fn.name(), seq);
      }
    }
    // [end marker: node record]
    if (has_post_hooks) {
      // Post hooks see the node's inputs too: keep a copy of the list (not of the data).
      auto inputs_copy = inputs;
      outputs = fn(std::move(inputs_copy));
    } else {
      outputs = fn(std::move(inputs));
    }
  }
  validate_outputs(fn.next_edges(), outputs,
                   [&](const std::string& msg) { return "Function " + fn.name() + " returned an " + msg; });
  if (has_post_hooks) {
    return call_post_hooks(fn, std::move(outputs), inputs);
  }
  return outputs;
}
// [end marker: call_function]

}  // namespace

// [marker: evaluate_function]
void Engine::evaluate_function(std::shared_ptr<GraphTask>& graph_task, Node* func, InputBuffer& inputs) {
  auto& exec_info = graph_task->exec_info_;
  if (!exec_info.empty()) {
    auto& fn_info = exec_info.at(func);
    variable_list new_inputs = inputs.buffer;
    if (!fn_info.needed_) {
      // The node will not run, but hooks on the tensors it receives still see their gradients.
      new_inputs = call_tensor_pre_hooks(*func, InputBuffer::variables(std::move(inputs)));
    }
    if (auto* capture_vec = fn_info.captures_.get()) {
      std::lock_guard<std::mutex> lock(graph_task->mutex_);
      for (const auto& capture : *capture_vec) {
        graph_task->captured_vars_[capture.output_idx_] = new_inputs[capture.input_idx_];
      }
    }
    if (!fn_info.needed_) {
      return;
    }
  }

  auto outputs = call_function(graph_task, func, inputs);
  if (!graph_task->keep_graph_) {
    func->release_variables();
  }

  // Send each result along its edge; a node whose last awaited gradient this was is ready,
  // and goes to the queue of its inputs' device.
  std::lock_guard<std::mutex> lock(graph_task->mutex_);
  auto& dependencies = graph_task->dependencies_;
  auto& not_ready = graph_task->not_ready_;
  for (size_t i = 0; i < outputs.size(); ++i) {
    auto& output = outputs[i];
    const auto& next = func->next_edge(i);
    if (!next.is_valid()) {
      continue;
    }
    bool is_ready = false;
    auto it = dependencies.find(next.function.get());
    TORCH_INTERNAL_ASSERT(it != dependencies.end(), "dependency not found for ", next.function->name());
    if (--it->second == 0) {
      dependencies.erase(it);
      is_ready = true;
    }
    auto not_ready_it = not_ready.find(next.function.get());
    if (not_ready_it == not_ready.end()) {
      if (!exec_info.empty()) {
        auto info_it = exec_info.find(next.function.get());
        if (info_it == exec_info.end() || !info_it->second.should_execute()) {
          continue;  // grad(): this node leads nowhere we were asked about
        }
      }
      InputBuffer input_buffer(next.function->num_inputs());
      input_buffer.add(next.input_nr, std::move(output));
      if (is_ready) {
        auto queue = ready_queue(graph_task->cpu_ready_queue_, input_buffer.device());
        queue->push(NodeTask(graph_task, next.function, std::move(input_buffer)));
      } else {
        not_ready.emplace(next.function.get(), std::move(input_buffer));
      }
    } else {
      auto& input_buffer = not_ready_it->second;
      input_buffer.add(next.input_nr, std::move(output));
      if (is_ready) {
        auto queue = ready_queue(graph_task->cpu_ready_queue_, input_buffer.device());
        queue->push(NodeTask(graph_task, next.function, std::move(input_buffer)));
        not_ready.erase(not_ready_it);
      }
    }
  }
}
// [end marker: evaluate_function]

// [marker: Engine::execute]
variable_list Engine::execute(const edge_list& roots, const variable_list& inputs, bool keep_graph, bool create_graph,
                              bool accumulate_grad, const edge_list& outputs) {
  variable_list root_grads = inputs;
  validate_outputs(roots, root_grads, [](const std::string& msg) { return msg; });

  // This thread's queue: CPU nodes of the graph run from it, here, while CUDA nodes run on
  // their devices' workers. A backward called by a node on a worker uses the worker's queue.
  if (!local_ready_queue) {
    local_ready_queue = std::make_shared<ReadyQueue>();
  }
  auto graph_task = std::make_shared<GraphTask>(keep_graph, create_graph, current_depth, local_ready_queue);
  graph_task->owner_ = worker_device;
  // One root: start at its node directly. Several: a GraphRoot node fans the gradients out.
  const bool skip_dummy_node = roots.size() == 1 && roots[0].function;
  std::shared_ptr<Node> graph_root =
      skip_dummy_node ? roots.at(0).function : std::make_shared<GraphRoot>(roots, root_grads);

  compute_dependencies(graph_root.get(), *graph_task);
  if (!outputs.empty()) {
    graph_task->init_to_execute(*graph_root, outputs, accumulate_grad);
  }

  InputBuffer input_buffer(graph_root->num_inputs());
  if (skip_dummy_node) {
    input_buffer.add(roots.at(0).input_nr, std::move(root_grads.at(0)));
  }
  const at::Device root_device = skip_dummy_node ? input_buffer.device() : at::Device(c10::DeviceType::CPU);
  ready_queue(graph_task->cpu_ready_queue_, root_device)
      ->push(NodeTask(graph_task, graph_root, std::move(input_buffer)));

  ++current_depth;
  thread_main(graph_task);
  --current_depth;

  graph_task->warning_handler_.replay_warnings();
  if (graph_task->exception_) {
    std::rethrow_exception(graph_task->exception_);
  }
  return std::move(graph_task->captured_vars_);
}
// [end marker: Engine::execute]

}  // namespace torch::autograd
