// torch/csrc/api/include/torch/nn/module.h - torch::nn::Module, the base of every C++ module:
// parameters, buffers and submodules by name, train()/eval(), to(device), zero_grad().
// Mirrors PyTorch's torch/csrc/api/include/torch/nn/module.h. Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/nn/pimpl.h>
#include <torch/ordered_dict.h>
#include <torch/types.h>

#include <c10/macros/Export.h>

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace torch::nn {

// As Python's nn.Module, a Module owns three named dicts: parameters (what an optimizer
// updates), buffers (state that moves with the module but is not trained) and submodules.
// Names are joined with dots on the way down: a Sequential's first Linear gives "0.weight".
// Unlike Python, forward() is not virtual here: each module declares its own signature,
// and the holder's operator() calls it (PyTorch's design, to allow any argument types).
class TORCH_API Module : public std::enable_shared_from_this<Module> {
 public:
  using ModuleApplyFunction = std::function<void(Module&)>;
  using NamedModuleApplyFunction = std::function<void(const std::string&, Module&)>;
  using ConstNamedModuleApplyFunction = std::function<void(const std::string&, const Module&)>;

  // The name shows in printing; without one it is the demangled C++ type ("torch::nn::LinearImpl").
  explicit Module(std::string name);
  Module();
  Module(const Module&) = default;
  Module& operator=(const Module&) = default;
  Module(Module&&) noexcept = default;
  Module& operator=(Module&&) noexcept = default;
  virtual ~Module() = default;

  const std::string& name() const noexcept;

  // Calls function on this module and every submodule, depth first, parents before children,
  // with the dotted name ("" for this module). named_parameters() is built on it.
  void apply(const ModuleApplyFunction& function);
  void apply(const NamedModuleApplyFunction& function, const std::string& name_prefix = std::string());
  void apply(const ConstNamedModuleApplyFunction& function, const std::string& name_prefix = std::string()) const;

  std::vector<Tensor> parameters(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_buffers(bool recurse = true) const;
  // The direct submodules, and (modules) this one with all below it. modules() hands out
  // shared_ptrs to this module too, so this module must itself live in a shared_ptr.
  std::vector<std::shared_ptr<Module>> children() const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_children() const;
  std::vector<std::shared_ptr<Module>> modules(bool include_self = true);
  OrderedDict<std::string, std::shared_ptr<Module>> named_modules(const std::string& name_prefix = std::string(),
                                                                  bool include_self = true);

  // Training mode is a flag each module reads (dropout, batch norm); train() sets it on the
  // whole tree. Modules start in training mode, as in Python.
  virtual void train(bool on = true);
  void eval();
  virtual bool is_training() const noexcept;

  // Moves (or casts) every parameter and buffer in place: a parameter keeps its identity
  // (the same Tensor handle, so an optimizer built before still holds it) and takes the
  // moved data, as Python's module.to() does with param.data = ....
  virtual void to(torch::Device device, torch::Dtype dtype, bool non_blocking = false);
  virtual void to(torch::Dtype dtype, bool non_blocking = false);
  virtual void to(torch::Device device, bool non_blocking = false);

  // Drops (set_to_none) or zeroes every parameter's .grad before the next backward().
  virtual void zero_grad(bool set_to_none = true);

  // One line about this module, no children: "torch::nn::Linear(in_features=2, ...)".
  virtual void pretty_print(std::ostream& stream) const;

 protected:
  // A parameter is a tensor the module trains: it is made to require grad (unless told
  // not to), and registered under `name` so named_parameters() and optimizers find it.
  // An undefined tensor may be registered (Linear's bias with bias=false) and is skipped.
  Tensor& register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  Tensor& register_buffer(std::string name, Tensor tensor);

  // Registers a submodule and returns it, so that `fc1 = register_module("fc1", Linear(2, 3));`
  // both stores the child and sets the member that refers to it.
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name, std::shared_ptr<ModuleType> module) {
    TORCH_CHECK(!name.empty(), "Submodule name must not be empty");
    TORCH_CHECK(name.find('.') == std::string::npos, "Submodule name must not contain a dot (got '", name, "')");
    auto& base_module = children_.insert(std::move(name), std::shared_ptr<Module>(std::move(module)));
    return std::dynamic_pointer_cast<ModuleType>(base_module);
  }
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name, ModuleHolder<ModuleType> module_holder) {
    return register_module(std::move(name), module_holder.ptr());
  }

 private:
  friend TORCH_API std::ostream& operator<<(std::ostream& stream, const Module& module);
  void pretty_print_recursive(std::ostream& stream, const std::string& indentation) const;

  OrderedDict<std::string, Tensor> parameters_{"Parameter"};
  OrderedDict<std::string, Tensor> buffers_{"Buffer"};
  OrderedDict<std::string, std::shared_ptr<Module>> children_{"Submodule"};
  mutable std::optional<std::string> name_;
  bool is_training_ = true;
};

// Prints the module tree, indented, as Python's repr(module).
TORCH_API std::ostream& operator<<(std::ostream& stream, const Module& module);

}  // namespace torch::nn
