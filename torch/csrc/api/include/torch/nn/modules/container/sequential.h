// torch/csrc/api/include/torch/nn/modules/container/sequential.h - nn::Sequential: modules
// called one after the other, registered as "0", "1", ... (or by the names given).
// Mirrors PyTorch's torch/csrc/api/include/torch/nn/modules/container/sequential.h. Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

#include <c10/macros/Export.h>
#include <c10/util/Exception.h>

#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace torch::nn {

// AnyModule: any module whose forward takes and returns one Tensor, with its type erased.
// Why: forward() is not virtual (each module picks its own signature), so a container of
// different modules keeps, beside the Module pointer, a function that calls the right
// forward. PyTorch's AnyModule (container/any.h) erases any signature, returning an
// AnyValue; this one covers the Tensor -> Tensor modules a Sequential chains.
class AnyModule {
 public:
  template <typename ModuleType>
  explicit AnyModule(std::shared_ptr<ModuleType> module)
      : module_(module), forward_([raw = module.get()](Tensor input) { return raw->forward(std::move(input)); }) {
    static_assert(std::is_base_of_v<Module, ModuleType>, "AnyModule holds torch::nn::Module subclasses");
  }
  template <typename ModuleType>
  explicit AnyModule(const ModuleHolder<ModuleType>& module_holder) : AnyModule(module_holder.ptr()) {}

  Tensor forward(Tensor input) { return forward_(std::move(input)); }

  const std::shared_ptr<Module>& ptr() const noexcept { return module_; }
  // The module as its Impl type; throws if it is another one.
  template <typename T>
  T& get() const {
    auto* module = dynamic_cast<T*>(module_.get());
    TORCH_CHECK(module, "Attempted to cast module of type ", module_->name(), " to a type it is not");
    return *module;
  }

 private:
  std::shared_ptr<Module> module_;
  std::function<Tensor(Tensor)> forward_;
};

// A (name, module) pair, so that Sequential({{"fc1", Linear(2, 3)}, {"relu", Functional(torch::relu)}})
// names its children as Python's nn.Sequential(OrderedDict(...)) does.
class NamedAnyModule {
 public:
  template <typename ModuleType>
  NamedAnyModule(std::string name, std::shared_ptr<ModuleType> module)
      : name_(std::move(name)), module_(std::move(module)) {}
  template <typename ModuleType>
  NamedAnyModule(std::string name, const ModuleHolder<ModuleType>& module_holder)
      : NamedAnyModule(std::move(name), module_holder.ptr()) {}

  const std::string& name() const noexcept { return name_; }
  const AnyModule& module() const noexcept { return module_; }

 private:
  std::string name_;
  AnyModule module_;
};

class TORCH_API SequentialImpl : public Module {
 public:
  using Iterator = std::vector<AnyModule>::iterator;
  using ConstIterator = std::vector<AnyModule>::const_iterator;

  SequentialImpl() = default;

  // Sequential(Linear(1, 32), Functional(torch::relu), Linear(32, 1)): children "0", "1", "2".
  template <typename... Modules>
  explicit SequentialImpl(Modules&&... modules) {
    modules_.reserve(sizeof...(Modules));
    (push_back(std::forward<Modules>(modules)), ...);
  }
  explicit SequentialImpl(std::initializer_list<NamedAnyModule> named_modules);

  void pretty_print(std::ostream& stream) const override;

  // Feeds the input through each module in turn.
  Tensor forward(Tensor input);

  // Appends a module, named by its index unless a name is given.
  template <typename ModuleType>
  void push_back(std::shared_ptr<ModuleType> module_ptr) {
    push_back(std::to_string(modules_.size()), std::move(module_ptr));
  }
  template <typename ModuleType>
  void push_back(std::string name, std::shared_ptr<ModuleType> module_ptr) {
    push_back(std::move(name), AnyModule(std::move(module_ptr)));
  }
  template <typename ModuleType>
  void push_back(const ModuleHolder<ModuleType>& module_holder) {
    push_back(std::to_string(modules_.size()), module_holder);
  }
  template <typename ModuleType>
  void push_back(std::string name, const ModuleHolder<ModuleType>& module_holder) {
    push_back(std::move(name), module_holder.ptr());
  }
  // A module by value (push_back(LinearImpl(2, 3))) is moved into a new shared_ptr.
  template <typename M, typename = std::enable_if_t<std::is_base_of_v<Module, std::decay_t<M>>>>
  void push_back(M&& module) {
    push_back(std::make_shared<std::decay_t<M>>(std::forward<M>(module)));
  }
  void push_back(AnyModule any_module) { push_back(std::to_string(modules_.size()), std::move(any_module)); }
  void push_back(std::string name, AnyModule any_module);

  // Appends the modules of another Sequential (sharing them, not copying).
  void extend(const SequentialImpl& other);

  // The module at `index`, as a Module, or as its Impl type (at<LinearImpl>(0)).
  std::shared_ptr<Module> ptr(size_t index) const;
  std::shared_ptr<Module> operator[](size_t index) const { return ptr(index); }
  template <typename T>
  T& at(size_t index) {
    TORCH_CHECK(index < size(), "Index out of range");
    return modules_[index].get<T>();
  }
  template <typename T>
  std::shared_ptr<T> ptr(size_t index) const {
    TORCH_CHECK(index < size(), "Index out of range");
    return std::dynamic_pointer_cast<T>(modules_[index].ptr());
  }

  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return modules_.empty(); }
  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }

 private:
  std::vector<AnyModule> modules_;
};

// Written out rather than TORCH_MODULE(Sequential): a braced list of {name, module} pairs
// cannot go through the holder's forwarding constructor (a braced list has no type to deduce).
class Sequential : public torch::nn::ModuleHolder<SequentialImpl> {
 public:
  using torch::nn::ModuleHolder<SequentialImpl>::ModuleHolder;
  using Impl = SequentialImpl;

  Sequential() : ModuleHolder() {}
  Sequential(std::initializer_list<NamedAnyModule> named_modules)
      : ModuleHolder(std::make_shared<SequentialImpl>(named_modules)) {}
};

}  // namespace torch::nn
