// torch/library.h - TORCH_LIBRARY and TORCH_LIBRARY_IMPL: declaring operators and their kernels.
// Mirrors PyTorch's torch/library.h. Guide: docs/source/internals/dispatch.rst.
//
//   TORCH_LIBRARY(myops, m) {                       // one per namespace: the schemas
//     m.def("myadd(Tensor self, Tensor other) -> Tensor");
//   }
//   TORCH_LIBRARY_IMPL(myops, CPU, m) {             // kernels for one dispatch key
//     m.impl("myadd", &myadd_cpu);
//   }
//   TORCH_LIBRARY_IMPL(_, ADInplaceOrView, m) {     // a fallback for every operator
//     m.fallback(torch::CppFunction::makeFallthrough());
//   }
// Each macro defines a static object whose constructor runs the block when the library is
// loaded, and whose destructor undoes the registrations.
#pragma once

#include <ATen/core/boxing/impl/make_boxed_from_unboxed_functor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/macros/Macros.h>

#include <optional>
#include <string>
#include <vector>

namespace torch {

namespace detail {
// Gives a kernel Return(Args...) its boxed trampoline when every type it uses fits an IValue;
// a kernel taking the DispatchKeySet first receives the one the dispatcher computed.
template <class Return, class... Args>
struct BoxedTrampoline {
  static void set(c10::KernelFunction& k) {
    if constexpr (c10::impl::supports_boxing<Return, Args...>()) {
      k.setBoxedTrampoline(&c10::impl::call_unboxed_from_boxed<false, Return, Args...>);
    }
  }
};
template <class Return, class... Args>
struct BoxedTrampoline<Return, c10::DispatchKeySet, Args...> {
  static void set(c10::KernelFunction& k) {
    if constexpr (c10::impl::supports_boxing<Return, Args...>()) {
      k.setBoxedTrampoline(&c10::impl::call_unboxed_from_boxed<true, Return, Args...>);
    }
  }
};
}  // namespace detail

// A kernel and where it came from.
class CppFunction final {
 public:
  // A C++ function: called unboxed from C++, and boxed (from torch.ops) when its types allow.
  template <class Return, class... Args>
  explicit CppFunction(Return (*f)(Args...)) : func_(c10::KernelFunction::makeFromUnboxedFunction(f)) {
    detail::BoxedTrampoline<Return, Args...>::set(func_);
  }

  // The generated aten registrations: unboxed only (see KernelFunction.h).
  template <class Return, class... Args>
  static CppFunction makeUnboxedOnly(Return (*f)(Args...)) {
    return CppFunction(c10::KernelFunction::makeFromUnboxedFunction(f));
  }
  static CppFunction makeFallthrough() { return CppFunction(c10::KernelFunction::makeFallthrough()); }
  // A kernel that exists only boxed (torch.library's Python kernels).
  static CppFunction makeFromBoxedFunctor(c10::KernelFunction::BoxedFunctor f) {
    return CppFunction(c10::KernelFunction::makeFromBoxedFunctor(std::move(f)));
  }

 private:
  explicit CppFunction(c10::KernelFunction f) : func_(std::move(f)) {}

  c10::KernelFunction func_;
  std::optional<c10::DispatchKey> dispatch_key_;  // set by torch::dispatch(key, f)
  friend class Library;
  friend CppFunction dispatch(c10::DispatchKey key, CppFunction f);
};

// A kernel for one key, given in a TORCH_LIBRARY block or to a Library of another key:
// m.impl("myop", torch::dispatch(c10::DispatchKey::CPU, TORCH_FN(myop_cpu))).
inline CppFunction dispatch(c10::DispatchKey key, CppFunction f) {
  f.dispatch_key_ = key;
  return f;
}
template <class Return, class... Args>
CppFunction dispatch(c10::DispatchKey key, Return (*f)(Args...)) {
  return dispatch(key, CppFunction(f));
}

// A function pointer as a registration argument: TORCH_FN(my_kernel).
#define TORCH_FN(func) (&func)

// A name or schema that a selective build (PyTorch's mobile builds keep only the operators an
// app uses) may drop; every build here keeps everything, so they are the string itself:
// m.def(TORCH_SELECTIVE_SCHEMA("myops::myadd(Tensor a, Tensor b) -> Tensor")),
// m.impl(TORCH_SELECTIVE_NAME("myops::myadd"), TORCH_FN(myadd_cpu)).
#define TORCH_SELECTIVE_NAME(n) (n)
#define TORCH_SELECTIVE_SCHEMA(n) (n)

class TORCH_API Library final {
 public:
  enum Kind { DEF, IMPL, FRAGMENT };

  Library(Kind kind, std::string ns, std::optional<c10::DispatchKey> k, const char* file, uint32_t line);
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  Library(Library&&) = default;
  Library& operator=(Library&&) = default;

  // Declare an operator by its schema ("add.Tensor(Tensor self, ...) -> Tensor").
  Library& def(const char* schema) &;
  // Declare an operator and give its CompositeImplicitAutograd kernel at once.
  template <class Return, class... Args>
  Library& def(const char* schema, Return (*f)(Args...)) & {
    def(schema);
    return impl_(schema, CppFunction(f), c10::DispatchKey::CompositeImplicitAutograd);
  }
  template <class Lambda, std::enable_if_t<std::is_class_v<std::decay_t<Lambda>>, int> = 0>
  Library& def(const char* schema, Lambda&& f) & {
    return def(schema, +f);
  }
  // A kernel for this library's dispatch key (or, in a DEF/FRAGMENT library, for every key).
  template <class Return, class... Args>
  Library& impl(const char* name, Return (*f)(Args...)) & {
    return impl_(name, CppFunction(f), dispatch_key_);
  }
  Library& impl(const char* name, CppFunction&& f) & {
    const auto key = f.dispatch_key_.has_value() ? f.dispatch_key_ : dispatch_key_;
    return impl_(name, std::move(f), key);
  }
  // A lambda without captures, as a plain function: m.impl("myop", [](const at::Tensor& x) { ... }).
  template <class Lambda, std::enable_if_t<std::is_class_v<std::decay_t<Lambda>> &&
                                               !std::is_same_v<std::decay_t<Lambda>, CppFunction>, int> = 0>
  Library& impl(const char* name, Lambda&& f) & {
    return impl(name, +f);
  }
  const std::string& ns() const { return ns_; }
  // A kernel for every operator at this library's key (only in TORCH_LIBRARY_IMPL(_, Key, m)).
  Library& fallback(CppFunction&& f) &;

 private:
  Library& impl_(const char* name_or_schema, CppFunction&& f, std::optional<c10::DispatchKey> key) &;
  std::string debugString() const;

  Kind kind_;
  std::string ns_;
  std::optional<c10::DispatchKey> dispatch_key_;
  const char* file_;
  uint32_t line_;
  std::vector<c10::RegistrationHandleRAII> registrars_;
};

namespace detail {
class TorchLibraryInit final {
 public:
  using InitFn = void(Library&);
  TorchLibraryInit(Library::Kind kind, InitFn* fn, const char* ns, std::optional<c10::DispatchKey> k,
                   const char* file, uint32_t line)
      : lib_(kind, ns, k, file, line) {
    fn(lib_);
  }

 private:
  Library lib_;
};
}  // namespace detail

}  // namespace torch

#define TORCH_LIBRARY(ns, m)                                                                    \
  static void TORCH_LIBRARY_init_##ns(torch::Library&);                                        \
  static const torch::detail::TorchLibraryInit TORCH_LIBRARY_static_init_##ns(                 \
      torch::Library::DEF, &TORCH_LIBRARY_init_##ns, #ns, std::nullopt, __FILE__, __LINE__);   \
  void TORCH_LIBRARY_init_##ns(torch::Library& m)

#define TORCH_LIBRARY_FRAGMENT(ns, m) _TORCH_LIBRARY_FRAGMENT(ns, m, C10_UID)
#define _TORCH_LIBRARY_FRAGMENT(ns, m, uid)                                                    \
  static void C10_CONCATENATE(TORCH_LIBRARY_FRAGMENT_init_##ns##_, uid)(torch::Library&);      \
  static const torch::detail::TorchLibraryInit C10_CONCATENATE(                                \
      TORCH_LIBRARY_FRAGMENT_static_init_##ns##_, uid)(                                        \
      torch::Library::FRAGMENT, &C10_CONCATENATE(TORCH_LIBRARY_FRAGMENT_init_##ns##_, uid), #ns, \
      std::nullopt, __FILE__, __LINE__);                                                       \
  void C10_CONCATENATE(TORCH_LIBRARY_FRAGMENT_init_##ns##_, uid)(torch::Library & m)

#define TORCH_LIBRARY_IMPL(ns, k, m) _TORCH_LIBRARY_IMPL(ns, k, m, C10_UID)
#define _TORCH_LIBRARY_IMPL(ns, k, m, uid)                                                     \
  static void C10_CONCATENATE(TORCH_LIBRARY_IMPL_init_##ns##_##k##_, uid)(torch::Library&);    \
  static const torch::detail::TorchLibraryInit C10_CONCATENATE(                                \
      TORCH_LIBRARY_IMPL_static_init_##ns##_##k##_, uid)(                                      \
      torch::Library::IMPL, &C10_CONCATENATE(TORCH_LIBRARY_IMPL_init_##ns##_##k##_, uid), #ns, \
      std::make_optional(c10::DispatchKey::k), __FILE__, __LINE__);                            \
  void C10_CONCATENATE(TORCH_LIBRARY_IMPL_init_##ns##_##k##_, uid)(torch::Library & m)
