// torch/csrc/api/src/nn/modules/container.cpp - the containers' out-of-line parts: Functional
// and Sequential. Mirrors PyTorch's torch/csrc/api/src/nn/modules/container/{functional,sequential}.cpp.
// Guide: docs/source/internals/cpp_extensions.rst.
#include <torch/nn/modules/container/functional.h>
#include <torch/nn/modules/container/sequential.h>

#include <c10/util/Exception.h>

#include <ostream>
#include <string>
#include <utility>

namespace torch::nn {

// ---- Functional ----

FunctionalImpl::FunctionalImpl(Function function) : function_(std::move(function)) {}

void FunctionalImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Functional()"; }

Tensor FunctionalImpl::forward(Tensor input) { return function_(std::move(input)); }

Tensor FunctionalImpl::operator()(Tensor input) { return forward(std::move(input)); }

// ---- Sequential ----

SequentialImpl::SequentialImpl(std::initializer_list<NamedAnyModule> named_modules) {
  modules_.reserve(named_modules.size());
  for (const auto& named_module : named_modules) push_back(named_module.name(), named_module.module());
}

void SequentialImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::Sequential"; }

Tensor SequentialImpl::forward(Tensor input) {
  TORCH_CHECK(!is_empty(), "Cannot call forward() on an empty Sequential");
  for (auto& module : modules_) input = module.forward(std::move(input));
  return input;
}

void SequentialImpl::push_back(std::string name, AnyModule any_module) {
  // Kept twice: in modules_ for forward(), and as a child for named_parameters(), train(), to().
  modules_.push_back(std::move(any_module));
  register_module(std::move(name), modules_.back().ptr());
}

void SequentialImpl::extend(const SequentialImpl& other) {
  for (const auto& module : other.modules_) push_back(module);
}

std::shared_ptr<Module> SequentialImpl::ptr(size_t index) const {
  TORCH_CHECK(index < size(), "Index out of range");
  return modules_[index].ptr();
}

}  // namespace torch::nn
