// aten/src/ATen/core/boxing/KernelFunction.h - one entry of a dispatch table: a kernel.
// Mirrors PyTorch's aten/src/ATen/core/boxing/KernelFunction.h. Guide: docs/source/internals/dispatch.rst.
//
// Kernels have all kinds of C++ signatures (add takes two tensors and a Scalar, empty takes
// sizes and options). A dispatch table needs one type for all of them, so a KernelFunction
// stores the kernel as a void* plus a small trampoline that knows its real type and calls
// it. The trampoline takes the DispatchKeySet first: kernels that redispatch (autograd,
// BackendSelect) receive it, plain kernels do not see it. PyTorch also keeps a *boxed*
// form (arguments in a stack of IValues) for Python and TorchScript; this tree calls
// kernels unboxed only: its Python bindings call the typed C++ API.
#pragma once

#include <c10/core/DispatchKeySet.h>
#include <c10/util/Exception.h>

#include <typeindex>
#include <typeinfo>
#include <type_traits>
#include <utility>

namespace c10 {

class KernelFunction final {
 public:
  KernelFunction() = default;

  // A kernel that is a plain function: Return(Args...) or Return(DispatchKeySet, Args...).
  template <class Return, class... Args>
  static KernelFunction makeFromUnboxedFunction(Return (*func)(Args...)) {
    KernelFunction k;
    k.functor_ = reinterpret_cast<void*>(func);
    if constexpr (takesDispatchKeySet<Args...>()) {
      k.trampoline_ = reinterpret_cast<void*>(&callWithKeySet<Return, Args...>);
      k.signature_ = std::type_index(typeid(typename DropFirst<Return, Args...>::type));
    } else {
      k.trampoline_ = reinterpret_cast<void*>(&callPlain<Return, Args...>);
      k.signature_ = std::type_index(typeid(Return(Args...)));
    }
    return k;
  }

  // "Nothing to do at this key: go on to the next one" (ADInplaceOrView for ops that
  // neither write in place nor make views, Autocast for ops autocast leaves alone).
  static KernelFunction makeFallthrough() {
    KernelFunction k;
    k.fallthrough_ = true;
    return k;
  }

  bool isValid() const { return trampoline_ != nullptr || fallthrough_; }
  bool isFallthrough() const { return fallthrough_; }
  std::type_index signature() const { return signature_; }

  // Call with the exact argument types of the operator's C++ signature.
  template <class Return, class... Args>
  Return call(DispatchKeySet ks, Args... args) const {
    TORCH_INTERNAL_ASSERT_DEBUG_ONLY(trampoline_ != nullptr, "calling an invalid KernelFunction");
    using Trampoline = Return(void*, DispatchKeySet, Args...);
    return reinterpret_cast<Trampoline*>(trampoline_)(functor_, ks, std::forward<Args>(args)...);
  }

 private:
  template <class First = void, class... Rest>
  static constexpr bool takesDispatchKeySet() {
    return std::is_same_v<std::decay_t<First>, DispatchKeySet>;
  }
  template <class Return, class First, class... Rest>
  struct DropFirst {
    using type = Return(Rest...);
  };

  template <class Return, class... Args>
  static Return callPlain(void* functor, DispatchKeySet, Args... args) {
    return reinterpret_cast<Return (*)(Args...)>(functor)(std::forward<Args>(args)...);
  }
  template <class Return, class KS, class... Args>
  static Return callWithKeySet(void* functor, DispatchKeySet ks, Args... args) {
    return reinterpret_cast<Return (*)(KS, Args...)>(functor)(ks, std::forward<Args>(args)...);
  }

  void* functor_ = nullptr;
  void* trampoline_ = nullptr;
  bool fallthrough_ = false;
  std::type_index signature_ = std::type_index(typeid(void));
};

}  // namespace c10
