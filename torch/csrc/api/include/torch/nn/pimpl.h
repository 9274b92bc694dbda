// torch/csrc/api/include/torch/nn/pimpl.h - ModuleHolder<Impl> and TORCH_MODULE: `Linear` is a
// shared_ptr<LinearImpl> with `->` access. Mirrors PyTorch's torch/csrc/api/include/torch/nn/pimpl.h.
// Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <c10/util/Exception.h>

#include <cstddef>
#include <memory>
#include <ostream>
#include <type_traits>
#include <utility>

namespace torch {
namespace detail {
// A tag base class, so that templates can ask "is this a ModuleHolder?" without knowing Impl.
struct ModuleHolderIndicator {};

template <typename T>
using is_module_holder = std::is_base_of<ModuleHolderIndicator, std::decay_t<T>>;

template <typename T, typename C, typename = void>
struct is_module_holder_of : std::false_type {};
template <typename T, typename C>
struct is_module_holder_of<T, C, std::enable_if_t<is_module_holder<T>::value>>
    : std::is_same<typename std::decay_t<T>::ContainedType, C> {};
}  // namespace detail

namespace nn {

// Why a holder: modules are shared (the optimizer, a parent module and the user all refer to
// one LinearImpl), so they live in a shared_ptr; the holder makes that pointer look like a
// value: `Linear fc(2, 3); fc->weight; fc(x);`, as Python's `fc = nn.Linear(2, 3)`.
template <typename Contained>
class ModuleHolder : torch::detail::ModuleHolderIndicator {
 protected:
  std::shared_ptr<Contained> impl_;

 public:
  using ContainedType = Contained;

  // `Linear fc;` would need LinearImpl(): an error that says to write `Linear fc{nullptr};`.
  ModuleHolder() : impl_(default_construct()) {
    static_assert(std::is_default_constructible_v<Contained>,
                  "You are trying to default construct a module which has no default constructor. "
                  "Use = nullptr to give it the empty state (e.g. `Linear linear = nullptr;` instead of "
                  "`Linear linear;`).");
  }
  // The empty holder, to be assigned later (typically from register_module).
  /* implicit */ ModuleHolder(std::nullptr_t) : impl_(nullptr) {}

  // Linear(2, 3) constructs a LinearImpl(2, 3). Excluded for a single argument that is
  // already this holder, so that copying a holder copies the pointer.
  template <typename Head, typename... Tail,
            typename = std::enable_if_t<!(torch::detail::is_module_holder_of<Head, ContainedType>::value &&
                                          (sizeof...(Tail) == 0))>>
  explicit ModuleHolder(Head&& head, Tail&&... tail)
      : impl_(new Contained(std::forward<Head>(head), std::forward<Tail>(tail)...)) {}

  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module) : impl_(std::move(module)) {}

  explicit operator bool() const noexcept { return !is_empty(); }

  Contained* operator->() { return get(); }
  const Contained* operator->() const { return get(); }
  Contained& operator*() { return *get(); }
  const Contained& operator*() const { return *get(); }
  const std::shared_ptr<Contained>& ptr() const {
    TORCH_CHECK(!is_empty(), "Accessing empty ModuleHolder");
    return impl_;
  }
  Contained* get() {
    TORCH_CHECK(!is_empty(), "Accessing empty ModuleHolder");
    return impl_.get();
  }
  const Contained* get() const {
    TORCH_CHECK(!is_empty(), "Accessing empty ModuleHolder");
    return impl_.get();
  }

  // fc(x) is fc->forward(x), as Python's fc(x) calls forward.
  template <typename... Args>
  auto operator()(Args&&... args) -> decltype(std::declval<Contained&>().forward(std::forward<Args>(args)...)) {
    return impl_->forward(std::forward<Args>(args)...);
  }
  // seq[0], for containers.
  template <typename Arg>
  decltype(auto) operator[](Arg&& arg) {
    return (*get())[std::forward<Arg>(arg)];
  }

  bool is_empty() const noexcept { return impl_ == nullptr; }

 private:
  template <typename T = Contained>
  static std::shared_ptr<Contained> default_construct() {
    if constexpr (std::is_default_constructible_v<T>) {
      return std::make_shared<Contained>();
    } else {
      return nullptr;
    }
  }
};

// Prints the module, as `std::cout << *fc` does.
template <typename ModuleType>
std::ostream& operator<<(std::ostream& stream, const ModuleHolder<ModuleType>& module) {
  return stream << *module;
}

}  // namespace nn
}  // namespace torch

// TORCH_MODULE(Linear) defines `class Linear : public ModuleHolder<LinearImpl>` with the
// holder's constructors: the user-facing name of every module.
#define TORCH_MODULE_IMPL(Name, ImplType)                              \
  class Name : public torch::nn::ModuleHolder<ImplType> { /* NOLINT */ \
   public:                                                             \
    using torch::nn::ModuleHolder<ImplType>::ModuleHolder;             \
    using Impl = ImplType;                                             \
  }

#define TORCH_MODULE(Name) TORCH_MODULE_IMPL(Name, Name##Impl)
