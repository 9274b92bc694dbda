// aten/src/ATen/core/dispatch/Dispatcher.h - the registry of operators and the call path
// through them.
// Mirrors PyTorch's aten/src/ATen/core/dispatch/Dispatcher.h. Guide: docs/source/internals/dispatch.rst.
//
// A call at::add(a, b) becomes Dispatcher::call(op, a, b, alpha):
//   1. the key set: the union of the tensors' key sets, plus the thread's included keys,
//      minus its excluded keys, minus keys where this operator has a fallthrough;
//   2. the highest-priority key of that set picks the kernel from the operator's table;
//   3. the kernel runs, receiving the key set. A kernel that does its part and wants the
//      rest done (autograd records a node, then computes) calls redispatch with the keys
//      *below* its own, and the next kernel down runs.
// TORCH_SHOW_DISPATCH_TRACE=1 prints each step: "[call] op=[aten::add.Tensor], key=[CPU]".
// While a RecordFunction callback is registered (a profiler is on), the outermost call of each
// operator runs inside a RecordFunction named after it (callWithDispatchKeySlowPath).
#pragma once

#include <ATen/core/dispatch/DispatchKeyExtractor.h>
#include <ATen/core/dispatch/OperatorEntry.h>
#include <ATen/record_function.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

#include <iostream>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace c10 {

class OperatorHandle;
template <class FuncType>
class TypedOperatorHandle;

// Undoes a registration when destroyed (a library unloading, a Python torch.library going away).
class TORCH_API RegistrationHandleRAII final {
 public:
  RegistrationHandleRAII() = default;
  explicit RegistrationHandleRAII(std::function<void()> on_destruction) : on_destruction_(std::move(on_destruction)) {}
  ~RegistrationHandleRAII() {
    if (on_destruction_) on_destruction_();
  }
  RegistrationHandleRAII(RegistrationHandleRAII&& rhs) noexcept : on_destruction_(std::move(rhs.on_destruction_)) {
    rhs.on_destruction_ = nullptr;
  }
  RegistrationHandleRAII& operator=(RegistrationHandleRAII&& rhs) noexcept {
    on_destruction_ = std::move(rhs.on_destruction_);
    rhs.on_destruction_ = nullptr;
    return *this;
  }
  C10_DISABLE_COPY_AND_ASSIGN(RegistrationHandleRAII);

 private:
  std::function<void()> on_destruction_;
};

namespace detail {
// TORCH_SHOW_DISPATCH_TRACE=1, read once: the trace costs one predictable branch when off.
TORCH_API bool show_dispatch_trace();
TORCH_API void dispatch_trace_nesting_incr();
TORCH_API void dispatch_trace_nesting_decr();
TORCH_API void print_dispatch_trace(const char* kind, const OperatorName& op, DispatchKey key);
}  // namespace detail

/// The process-wide registry of operators and the path of every operator call (PyTorch's
/// aten/src/ATen/core/dispatch/Dispatcher.h).
/// The singleton owns one OperatorEntry per operator name (kept in a std::list, so the
/// OperatorHandles pointing at them stay valid) and one backend fallback kernel per runtime
/// dispatch key. call() computes a DispatchKeySet from the arguments and the thread's
/// included/excluded keys and runs the kernel of its highest-priority key; that kernel may
/// redispatch() to the keys below its own.
class TORCH_API Dispatcher final {
 public:
  /// The one Dispatcher of the process (never destroyed): registrations and calls all go here.
  static Dispatcher& singleton();

  /// The operator with this name, or an error "Could not find schema for aten::foo.bar".
  OperatorHandle findSchemaOrThrow(const char* name, const char* overload_name);
  /// The operator with this name if its schema was registered (def), else nullopt.
  std::optional<OperatorHandle> findSchema(const OperatorName& name);
  /// The operator with this name even without a schema (only impls registered so far).
  std::optional<OperatorHandle> findOp(const OperatorName& name);
  std::vector<OperatorName> getAllOpNames();

  // ---- registration (through torch::Library, see torch/library.h) ----
  /// Declare an operator by its schema (m.def in TORCH_LIBRARY); the handle undoes it.
  RegistrationHandleRAII registerDef(FunctionSchema schema, std::string debug);
  /// Add a kernel at key (none: CompositeImplicitAutograd) and recompute the operator's table.
  RegistrationHandleRAII registerImpl(OperatorName op_name, std::optional<DispatchKey> key,
                                      KernelFunction kernel, std::string debug);
  /// A kernel for every operator at one key (e.g. fallthrough at ADInplaceOrView).
  RegistrationHandleRAII registerFallback(DispatchKey key, KernelFunction kernel, std::string debug);
  /// The fallback registered at key, or nullptr.
  const KernelFunction* backendFallback(DispatchKey key) const {
    const auto& k = backendFallbackKernels_[static_cast<size_t>(key)];
    return k.isValid() ? &k : nullptr;
  }

  // ---- calling ----
  template <class Return, class... Args>
  /// The typed call: compute the key set from the arguments and run its highest key's kernel.
  Return call(const TypedOperatorHandle<Return(Args...)>& op, Args... args) const;
  template <class Return, class... Args>
  /// Go on below the calling kernel: currentDispatchKeySet holds only the keys left under it.
  Return redispatch(const TypedOperatorHandle<Return(Args...)>& op, DispatchKeySet currentDispatchKeySet,
                    Args... args) const;
  /// The boxed call: the arguments on the stack (the key set comes from the tensors among
  /// them), the returns left there (Dispatcher.cpp).
  void callBoxed(const OperatorHandle& op, Stack* stack) const;
  /// callBoxed with the keys left below the caller's (what boxed fallbacks use).
  void redispatchBoxed(const OperatorHandle& op, DispatchKeySet currentDispatchKeySet, Stack* stack) const;

 private:
  Dispatcher() = default;
  OperatorHandle findOrRegisterName_(const OperatorName& op_name);
  [[noreturn]] void reportError(const OperatorEntry& op, DispatchKey key) const;
  template <class Return, class... Args>
  Return callKernel(const char* kind, const OperatorEntry& op, DispatchKeySet ks, Args... args) const;
  // The profiled call: the kernel inside a RecordFunction (PyTorch's name for it).
  template <class Return, class... Args>
  Return callWithDispatchKeySlowPath(const TypedOperatorHandle<Return(Args...)>& op, DispatchKeySet ks,
                                     Args... args) const;
  // Names the RecordFunction after the operator and runs the start callbacks (Dispatcher.cpp).
  static void runRecordFunction(at::RecordFunction& guard, const OperatorEntry& op, DispatchKeySet ks);

  friend class OperatorEntry;
  std::list<OperatorEntry> operators_;  // a list: entries never move, handles stay valid
  std::unordered_map<OperatorName, OperatorEntry*> operatorLookupTable_;
  std::array<KernelFunction, num_runtime_entries> backendFallbackKernels_;
  std::array<std::string, num_runtime_entries> backendFallbackDebug_;
  std::mutex mutex_;

  template <class FuncType>
  friend class TypedOperatorHandle;
  friend class OperatorHandle;
};

// A handle on a registered operator (cheap to copy: a pointer to its entry).
class TORCH_API OperatorHandle {
 public:
  const OperatorName& operator_name() const { return operatorDef_->operator_name(); }
  bool hasSchema() const { return operatorDef_->hasSchema(); }
  const FunctionSchema& schema() const { return operatorDef_->schema(); }
  std::string dumpState() const { return operatorDef_->dumpState(); }
  void callBoxed(Stack* stack) const { Dispatcher::singleton().callBoxed(*this, stack); }
  void redispatchBoxed(DispatchKeySet ks, Stack* stack) const {
    Dispatcher::singleton().redispatchBoxed(*this, ks, stack);
  }
  std::string dumpComputedTable() const { return operatorDef_->dumpComputedTable(); }

  // Check the C++ signature against the registered kernels and get a callable handle.
  template <class FuncType>
  TypedOperatorHandle<FuncType> typed() const {
    return TypedOperatorHandle<FuncType>(*this);
  }

 protected:
  friend class Dispatcher;
  explicit OperatorHandle(OperatorEntry* operatorDef) : operatorDef_(operatorDef) {}
  OperatorEntry* operatorDef_;

  template <class FuncType>
  friend class TypedOperatorHandle;
};

template <class FuncType>
class TypedOperatorHandle;

template <class Return, class... Args>
class TypedOperatorHandle<Return(Args...)> final : public OperatorHandle {
 public:
  explicit TypedOperatorHandle(const OperatorHandle& handle) : OperatorHandle(handle) {
    const auto registered = handle.operatorDef_->cppSignature();
    TORCH_CHECK(!registered.has_value() || *registered == std::type_index(typeid(Return(Args...))),
                "Tried to access or call an operator with a wrong signature.\n  operator: ",
                toString(handle.operator_name()), "\n  registered kernels: ", registered->name(),
                "\n  accessed with: ", typeid(Return(Args...)).name());
  }

  Return call(Args... args) const {
    return Dispatcher::singleton().call<Return, Args...>(*this, std::forward<Args>(args)...);
  }
  Return redispatch(DispatchKeySet currentDispatchKeySet, Args... args) const {
    return Dispatcher::singleton().redispatch<Return, Args...>(*this, currentDispatchKeySet,
                                                               std::forward<Args>(args)...);
  }
};

// [marker: Dispatcher::call]
template <class Return, class... Args>
inline Return Dispatcher::call(const TypedOperatorHandle<Return(Args...)>& op, Args... args) const {
  const auto& local = impl::tls_local_dispatch_key_set();
  const DispatchKeySet unmasked = (detail::computeKeySetFromArgs(args...) | local.included_) - local.excluded_;
  const DispatchKeySet ks = unmasked & op.operatorDef_->nonFallthroughKeys(unmasked);
  if (C10_UNLIKELY(at::hasCallbacks())) {
    return callWithDispatchKeySlowPath<Return, Args...>(op, ks, std::forward<Args>(args)...);
  }
  return callKernel<Return, Args...>("call", *op.operatorDef_, ks, std::forward<Args>(args)...);
}

// Skip the key computation: the caller passes the keys that are left (its own masked out).
template <class Return, class... Args>
inline Return Dispatcher::redispatch(const TypedOperatorHandle<Return(Args...)>& op,
                                     DispatchKeySet currentDispatchKeySet, Args... args) const {
  const DispatchKeySet ks = currentDispatchKeySet & op.operatorDef_->nonFallthroughKeys(currentDispatchKeySet);
  return callKernel<Return, Args...>("redispatch", *op.operatorDef_, ks, std::forward<Args>(args)...);
}

// Run the kernel of the highest key in ks (tracing the hop when TORCH_SHOW_DISPATCH_TRACE is set).
template <class Return, class... Args>
inline Return Dispatcher::callKernel(const char* kind, const OperatorEntry& op, DispatchKeySet ks,
                                     Args... args) const {
  const DispatchKey key = ks.highestPriorityTypeId();
  const KernelFunction& kernel = op.lookup(key);
  if (C10_UNLIKELY(!kernel.isValid())) {
    reportError(op, key);
  }
  if (C10_UNLIKELY(detail::show_dispatch_trace())) {
    detail::print_dispatch_trace(kind, op.operator_name(), key);
    detail::dispatch_trace_nesting_incr();
    struct Decr {
      ~Decr() { detail::dispatch_trace_nesting_decr(); }
    } decr;
    return kernel.template call<Return, Args...>(ks, std::forward<Args>(args)...);
  }
  return kernel.template call<Return, Args...>(ks, std::forward<Args>(args)...);
}
// [end marker: Dispatcher::call]

namespace detail {
// What a profiler with record_shapes shows for a call: one entry per argument, a tensor's
// sizes, [] for anything else (an undefined tensor, a Scalar, a list).
struct InputShapes {
  std::vector<std::vector<int64_t>> shapes;
  void operator()(const at::TensorBase& x) { shapes.push_back(x.defined() ? x.sizes().vec() : std::vector<int64_t>()); }
  TORCH_API void operator()(const std::optional<at::Tensor>& x);
  template <class T, std::enable_if_t<!std::is_base_of_v<at::TensorBase, std::decay_t<T>>, int> = 0>
  void operator()(const T&) {
    shapes.emplace_back();
  }
};
}  // namespace detail

// [marker: callWithDispatchKeySlowPath]
// Taken only while a RecordFunction callback is registered. Out of line, so that the fast
// path above stays what it was. Only Dispatcher::call comes here, not redispatch: an
// operator that passes Autograd and then CPU is one event.
template <class Return, class... Args>
C10_NOINLINE Return Dispatcher::callWithDispatchKeySlowPath(const TypedOperatorHandle<Return(Args...)>& op,
                                                            DispatchKeySet ks, Args... args) const {
  at::RecordFunction guard(at::RecordScope::FUNCTION);
  if (guard.isActive()) {
    if (guard.needsInputs()) {
      detail::InputShapes shapes;
      (shapes(args), ...);
      guard.setInputShapes(std::move(shapes.shapes));
    }
    runRecordFunction(guard, *op.operatorDef_, ks);
  }
  // The guard lives until the kernel returns or throws; its destructor runs the end callbacks.
  return callKernel<Return, Args...>("call", *op.operatorDef_, ks, std::forward<Args>(args)...);
}
// [end marker: callWithDispatchKeySlowPath]

}  // namespace c10
