// torch/csrc/autograd/engine.cpp - dependency counting, the ready queue, running nodes.
// Mirrors PyTorch's torch/csrc/autograd/engine.cpp. Guide: docs/source/internals/autograd.rst.
#include <torch/csrc/autograd/engine.h>

#include <c10/core/GradMode.h>
#include <torch/csrc/autograd/functions/basic_ops.h>

#include <sstream>
#include <unordered_set>

namespace torch::autograd {

Engine& Engine::get_default_engine() {
  static Engine engine;
  return engine;
}

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
  if (has_post_hooks) {
    // Post hooks see the node's inputs too: keep a copy of the list (not of the data).
    auto inputs_copy = inputs;
    outputs = fn(std::move(inputs_copy));
  } else {
    outputs = fn(std::move(inputs));
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

  // Send each result along its edge; a node whose last awaited gradient this was is ready.
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
        graph_task->ready_queue_.push(NodeTask(graph_task, next.function, std::move(input_buffer)));
      } else {
        not_ready.emplace(next.function.get(), std::move(input_buffer));
      }
    } else {
      auto& input_buffer = not_ready_it->second;
      input_buffer.add(next.input_nr, std::move(output));
      if (is_ready) {
        graph_task->ready_queue_.push(NodeTask(graph_task, next.function, std::move(input_buffer)));
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

  auto graph_task = std::make_shared<GraphTask>(keep_graph, create_graph);
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
  graph_task->ready_queue_.push(NodeTask(graph_task, graph_root, std::move(input_buffer)));

  // The backward computation is itself recorded only with create_graph=True.
  c10::AutoGradMode grad_mode(create_graph);
  while (!graph_task->ready_queue_.empty()) {
    NodeTask task = graph_task->ready_queue_.pop();
    evaluate_function(graph_task, task.fn_.get(), task.inputs_);
  }
  return std::move(graph_task->captured_vars_);
}
// [end marker: Engine::execute]

}  // namespace torch::autograd
