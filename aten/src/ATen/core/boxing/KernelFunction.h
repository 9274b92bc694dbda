// aten/src/ATen/core/boxing/KernelFunction.h - one entry of a dispatch table: a kernel.
// Mirrors PyTorch's aten/src/ATen/core/boxing/KernelFunction.h. Guide: docs/source/internals/dispatch.rst.
//
// Kernels have all kinds of C++ signatures (add takes two tensors and a Scalar, empty takes
// sizes and options). A dispatch table needs one type for all of them, so a KernelFunction
// stores the kernel as a void* plus a small trampoline that knows its real type and calls
// it. The trampoline takes the DispatchKeySet first: kernels that redispatch (autograd,
// BackendSelect) receive it, plain kernels do not see it.
//
// A kernel may also have a *boxed* form, taking its arguments from a Stack of IValues
// (ATen/core/stack.h): one signature for every operator. torch.ops calls custom operators
// that way, and a kernel written in Python (torch.library) exists only that way. An unboxed
// C++ kernel registered through torch::Library gets a boxed trampoline too, when all of its
// types can be read from IValues (boxing/impl/make_boxed_from_unboxed_functor.h). The
// generated aten registrations stay unboxed only: their Python bindings call the typed C++
// API, and the trampolines would only cost compile time.
#pragma once

#include <c10/core/DispatchKeySet.h>
#include <c10/util/Exception.h>

#include <functional>
#include <memory>
#include <typeindex>
#include <typeinfo>
#include <type_traits>
#include <utility>
#include <vector>

namespace c10 {

class IValue;
using Stack = std::vector<IValue>;

/// One entry of a dispatch table: a kernel of any C++ signature behind one type (PyTorch's
/// aten/src/ATen/core/boxing/KernelFunction.h).
/// It stores the kernel as a void* plus a trampoline that restores its type, and optionally a
/// boxed form that takes its arguments from a Stack; or it is a fallthrough. Cheap to copy:
/// OperatorEntry owns the ones in its table, the Dispatcher its backend fallbacks.
class KernelFunction final {
 public:
  /// An empty entry: isValid() is false, and calling it is an error.
  KernelFunction() = default;

  /// A kernel that is a plain function: Return(Args...) or Return(DispatchKeySet, Args...).
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

  /// "Nothing to do at this key: go on to the next one" (ADInplaceOrView for ops that
  /// neither write in place nor make views, Autocast for ops autocast leaves alone).
  static KernelFunction makeFallthrough() {
    KernelFunction k;
    k.fallthrough_ = true;
    return k;
  }

  /// A kernel that exists only boxed (a Python function registered with torch.library).
  using BoxedFunctor = std::function<void(DispatchKeySet, Stack*)>;
  /// Wrap a boxed-only kernel (isValidBoxed(), not isValidUnboxed()).
  static KernelFunction makeFromBoxedFunctor(BoxedFunctor f) {
    KernelFunction k;
    k.boxed_functor_ = std::make_shared<BoxedFunctor>(std::move(f));
    return k;
  }
  /// Give an unboxed kernel its boxed trampoline: void(void* functor, DispatchKeySet, Stack*).
  using BoxedTrampoline = void(void*, DispatchKeySet, Stack*);
  /// Set by torch::Library (torch/library.h) when every argument type fits in an IValue.
  void setBoxedTrampoline(BoxedTrampoline* boxed) { boxed_trampoline_ = boxed; }

  /// Whether there is a kernel at all: unboxed, boxed-only or a fallthrough.
  bool isValid() const { return trampoline_ != nullptr || fallthrough_ || boxed_functor_ != nullptr; }
  bool isValidUnboxed() const { return trampoline_ != nullptr; }
  bool isValidBoxed() const { return boxed_trampoline_ != nullptr || boxed_functor_ != nullptr; }
  bool isFallthrough() const { return fallthrough_; }
  /// The C++ function type of an unboxed kernel, without a leading DispatchKeySet.
  std::type_index signature() const { return signature_; }

  /// Call with the arguments on the stack; the kernel replaces them with its returns.
  void callBoxed(DispatchKeySet ks, Stack* stack) const {
    if (boxed_functor_) {
      (*boxed_functor_)(ks, stack);
      return;
    }
    TORCH_CHECK(boxed_trampoline_ != nullptr,
                "Tried to call KernelFunction::callBoxed() on a kernel that doesn't support boxing: its C++ "
                "signature has a type an IValue cannot hold, or it is an aten kernel (unboxed only here)");
    boxed_trampoline_(functor_, ks, stack);
  }

  /// Call with the exact argument types of the operator's C++ signature.
  template <class Return, class... Args>
  Return call(DispatchKeySet ks, Args... args) const {
    TORCH_CHECK(trampoline_ != nullptr || boxed_functor_ == nullptr,
                "Tried to call KernelFunction::call() on a kernel that exists only boxed (written in Python); "
                "call the operator through torch.ops instead");
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
  BoxedTrampoline* boxed_trampoline_ = nullptr;
  std::shared_ptr<BoxedFunctor> boxed_functor_;
  bool fallthrough_ = false;
  std::type_index signature_ = std::type_index(typeid(void));
};

}  // namespace c10
