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

#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/macros/Macros.h>

#include <optional>
#include <string>
#include <vector>

namespace torch {

// A kernel and where it came from.
class CppFunction final {
 public:
  template <class Return, class... Args>
  explicit CppFunction(Return (*f)(Args...)) : func_(c10::KernelFunction::makeFromUnboxedFunction(f)) {}

  static CppFunction makeFallthrough() { return CppFunction(c10::KernelFunction::makeFallthrough()); }

 private:
  explicit CppFunction(c10::KernelFunction f) : func_(std::move(f)) {}
  c10::KernelFunction func_;
  friend class Library;
};

// A function pointer as a registration argument: TORCH_FN(my_kernel).
#define TORCH_FN(func) (&func)

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
  // A kernel for this library's dispatch key (or, in a DEF/FRAGMENT library, for every key).
  template <class Return, class... Args>
  Library& impl(const char* name, Return (*f)(Args...)) & {
    return impl_(name, CppFunction(f), dispatch_key_);
  }
  Library& impl(const char* name, CppFunction&& f) & { return impl_(name, std::move(f), dispatch_key_); }
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
