// torch/csrc/api/src/nn/module.cpp - torch::nn::Module: registration, the recursive walks
// (named_parameters, train, to), and printing. Mirrors PyTorch's torch/csrc/api/src/nn/module.cpp.
// Guide: docs/source/internals/cpp_extensions.rst.
#include <torch/nn/module.h>

#include <c10/core/GradMode.h>
#include <c10/util/Exception.h>

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <ostream>
#include <string>
#include <typeinfo>

namespace torch::nn {
namespace {

// "fc1" + "weight" -> "fc1.weight"; the top module's own names have no prefix.
std::string join_name(const std::string& name_prefix, const std::string& name) {
  return name_prefix.empty() ? name : name_prefix + "." + name;
}

std::string demangle(const char* name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
  return status == 0 && demangled ? std::string(demangled.get()) : std::string(name);
}

}  // namespace

Module::Module(std::string name) : name_(std::move(name)) {}

Module::Module() = default;

const std::string& Module::name() const noexcept {
  // Computed on first use, not in the constructor: there the dynamic type is still
  // Module, not the subclass being constructed.
  if (!name_.has_value()) name_ = demangle(typeid(*this).name());
  return *name_;
}

void Module::apply(const ModuleApplyFunction& function) {
  function(*this);
  for (auto& child : children_) child.value()->apply(function);
}

void Module::apply(const NamedModuleApplyFunction& function, const std::string& name_prefix) {
  function(name_prefix, *this);
  for (auto& child : children_) child.value()->apply(function, join_name(name_prefix, child.key()));
}

void Module::apply(const ConstNamedModuleApplyFunction& function, const std::string& name_prefix) const {
  function(name_prefix, *this);
  for (const auto& child : children_) {
    const Module& module = *child.value();
    module.apply(function, join_name(name_prefix, child.key()));
  }
}

std::vector<Tensor> Module::parameters(bool recurse) const { return named_parameters(recurse).values(); }

OrderedDict<std::string, Tensor> Module::named_parameters(bool recurse) const {
  OrderedDict<std::string, Tensor> result;
  if (!recurse) {
    for (const auto& parameter : parameters_) {
      if (parameter.value().defined()) result.insert(parameter.key(), parameter.value());
    }
    return result;
  }
  apply([&result](const std::string& name, const Module& module) {
    for (const auto& parameter : module.named_parameters(/*recurse=*/false)) {
      result.insert(join_name(name, parameter.key()), parameter.value());
    }
  });
  return result;
}

std::vector<Tensor> Module::buffers(bool recurse) const { return named_buffers(recurse).values(); }

OrderedDict<std::string, Tensor> Module::named_buffers(bool recurse) const {
  OrderedDict<std::string, Tensor> result;
  if (!recurse) {
    for (const auto& buffer : buffers_) {
      if (buffer.value().defined()) result.insert(buffer.key(), buffer.value());
    }
    return result;
  }
  apply([&result](const std::string& name, const Module& module) {
    for (const auto& buffer : module.named_buffers(/*recurse=*/false)) {
      result.insert(join_name(name, buffer.key()), buffer.value());
    }
  });
  return result;
}

std::vector<std::shared_ptr<Module>> Module::children() const { return children_.values(); }

OrderedDict<std::string, std::shared_ptr<Module>> Module::named_children() const { return children_; }

std::vector<std::shared_ptr<Module>> Module::modules(bool include_self) {
  return named_modules(std::string(), include_self).values();
}

OrderedDict<std::string, std::shared_ptr<Module>> Module::named_modules(const std::string& name_prefix,
                                                                        bool include_self) {
  OrderedDict<std::string, std::shared_ptr<Module>> result;
  if (include_self) {
    // shared_from_this() on a module that no shared_ptr owns would throw bad_weak_ptr;
    // say what to do instead.
    TORCH_CHECK(!weak_from_this().expired(),
                "It looks like you attempted to retrieve your top-level module as a shared_ptr, but it is not "
                "stored in a shared_ptr. Use std::make_shared<", name(), "> instead of creating your module on "
                "the stack, or alternatively do not try to access your top-level module at all by passing "
                "/*include_self=*/false to modules() or named_modules()");
    result.insert(name_prefix, shared_from_this());
  }
  for (const auto& child : children_) {
    const std::string child_prefix = join_name(name_prefix, child.key());
    result.insert(child_prefix, child.value());
    for (const auto& item : child.value()->named_modules(child_prefix, /*include_self=*/false)) {
      result.insert(item.key(), item.value());
    }
  }
  return result;
}

void Module::train(bool on) {
  for (auto& child : children_) child.value()->train(on);
  is_training_ = on;
}

void Module::eval() { train(/*on=*/false); }

bool Module::is_training() const noexcept { return is_training_; }

namespace {
// set_data() swaps the data under the parameter's autograd identity: the Tensor the
// optimizer holds, and its requires_grad, stay the same. The move itself is not recorded.
template <typename Convert>
void to_impl(const OrderedDict<std::string, Tensor>& parameters, const OrderedDict<std::string, Tensor>& buffers,
             Convert convert) {
  c10::NoGradGuard no_grad;
  for (const auto& parameter : parameters) parameter.value().set_data(convert(parameter.value()));
  for (const auto& buffer : buffers) buffer.value().set_data(convert(buffer.value()));
}
}  // namespace

void Module::to(torch::Device device, torch::Dtype dtype, bool non_blocking) {
  for (auto& child : children_) child.value()->to(device, dtype, non_blocking);
  to_impl(named_parameters(false), named_buffers(false),
          [&](const Tensor& t) { return Tensor(t.variable_data()).to(device, dtype, non_blocking); });
}

void Module::to(torch::Dtype dtype, bool non_blocking) {
  for (auto& child : children_) child.value()->to(dtype, non_blocking);
  to_impl(named_parameters(false), named_buffers(false),
          [&](const Tensor& t) { return Tensor(t.variable_data()).to(dtype, non_blocking); });
}

void Module::to(torch::Device device, bool non_blocking) {
  for (auto& child : children_) child.value()->to(device, non_blocking);
  to_impl(named_parameters(false), named_buffers(false), [&](const Tensor& t) {
    return Tensor(t.variable_data()).to(device, t.scalar_type(), non_blocking);
  });
}

void Module::zero_grad(bool set_to_none) {
  for (auto& child : children_) child.value()->zero_grad(set_to_none);
  for (auto& parameter : named_parameters(/*recurse=*/false)) {
    auto& grad = parameter.value().mutable_grad();
    if (!grad.defined()) continue;
    if (set_to_none) {
      grad.reset();
    } else {
      // Cut the gradient from any graph it was built in (create_graph) before zeroing it in place.
      grad = grad.detach();
      grad.zero_();
    }
  }
}

void Module::pretty_print(std::ostream& stream) const { stream << name(); }

void Module::pretty_print_recursive(std::ostream& stream, const std::string& indentation) const {
  pretty_print(stream);
  if (!children_.is_empty()) {
    stream << "(\n";
    const std::string next_indentation = indentation + "  ";
    for (const auto& child : children_) {
      stream << next_indentation << "(" << child.key() << "): ";
      child.value()->pretty_print_recursive(stream, next_indentation);
      stream << '\n';
    }
    stream << indentation << ")";
  }
}

std::ostream& operator<<(std::ostream& stream, const Module& module) {
  module.pretty_print_recursive(stream, "");
  return stream;
}

Tensor& Module::register_parameter(std::string name, Tensor tensor, bool requires_grad) {
  TORCH_CHECK(!name.empty(), "Parameter name must not be empty");
  TORCH_CHECK(name.find('.') == std::string::npos, "Parameter name must not contain a dot (got '", name, "')");
  if (!tensor.defined()) {
    if (requires_grad) {
      TORCH_WARN("An undefined tensor cannot require grad. ", "Ignoring the `requires_grad=true` function parameter.");
    }
  } else {
    tensor.set_requires_grad(requires_grad);
  }
  return parameters_.insert(std::move(name), std::move(tensor));
}

Tensor& Module::register_buffer(std::string name, Tensor tensor) {
  TORCH_CHECK(!name.empty(), "Buffer name must not be empty");
  TORCH_CHECK(name.find('.') == std::string::npos, "Buffer name must not contain a dot (got '", name, "')");
  return buffers_.insert(std::move(name), std::move(tensor));
}

}  // namespace torch::nn
