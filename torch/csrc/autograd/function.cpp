// torch/csrc/autograd/function.cpp - Node's name, hook removal, and the chain-safe deleter.
// Mirrors PyTorch's torch/csrc/autograd/function.cpp. Guide: docs/source/internals/autograd.rst.
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/variable.h>

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <typeinfo>

namespace torch::autograd {

std::unique_ptr<AnomalyMetadata> (*AnomalyMetadata::factory)() = nullptr;

// "torch::autograd::AccumulateGrad": the demangled class name, as PyTorch's Node::name()
// gives it. Generated nodes override name() with their short name ("MulBackward0").
std::string Node::name() const {
  int status = 0;
  const char* mangled = typeid(*this).name();
  char* demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string result = status == 0 && demangled ? demangled : mangled;
  std::free(demangled);
  return result;
}

bool Node::del_post_hook(const uintptr_t& key) {
  for (auto it = post_hooks_.begin(); it != post_hooks_.end(); ++it) {
    if (key == reinterpret_cast<uintptr_t>(it->get())) {
      post_hooks_.erase(it);
      return true;
    }
  }
  return false;
}

void deleteNode(Node* function) {
  // Steal the edges of every node about to die (its shared_ptr is the last one) before it
  // dies, so the destructor never recurses into the next node.
  std::vector<std::shared_ptr<Node>> stack;
  auto gather = [&stack](edge_list& edges) {
    for (auto& edge : edges) {
      if (edge.function && edge.function.use_count() == 1) {
        stack.push_back(std::move(edge.function));
      } else {
        edge.function.reset();
      }
    }
  };
  gather(function->next_edges());
  delete function;
  while (!stack.empty()) {
    auto fn = std::move(stack.back());
    stack.pop_back();
    gather(fn->next_edges());
  }
}

std::string forward_name_of(const std::string& node_name) {
  const auto pos = node_name.rfind("Backward");
  if (pos == std::string::npos || pos == 0) {
    return node_name;
  }
  for (size_t i = pos + 8; i < node_name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(node_name[i]))) {
      return node_name;
    }
  }
  return node_name.substr(0, pos);
}

Edge gradient_edge_of(const Variable& variable) {
  return impl::gradient_edge(variable);
}

}  // namespace torch::autograd
