// aten/src/ATen/core/dispatch/OperatorEntry.h - one operator: its schema, the kernels
// registered for it, and the dispatch table computed from them.
// Mirrors PyTorch's aten/src/ATen/core/dispatch/OperatorEntry.h. Guide: docs/source/internals/dispatch.rst.
#pragma once

#include <ATen/core/boxing/KernelFunction.h>
#include <ATen/core/function_schema.h>
#include <c10/core/DispatchKeySet.h>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <typeindex>

namespace c10 {

class Dispatcher;

/// One operator of the Dispatcher: its schema, the kernels registered for it by dispatch key,
/// and the dispatch table computed from them (PyTorch's
/// aten/src/ATen/core/dispatch/OperatorEntry.h, where it is c10::impl::OperatorEntry).
/// The Dispatcher owns every entry and never moves one; OperatorHandle points at it. The entry
/// owns its KernelFunctions: the registrations, and one computed table entry per runtime key
/// (a registered kernel, an alias key's kernel or a backend fallback).
class TORCH_API OperatorEntry final {
 public:
  explicit OperatorEntry(OperatorName name);

  const OperatorName& operator_name() const { return name_; }
  /// False while only kernels were registered (impl before def).
  bool hasSchema() const { return schema_.has_value(); }
  const FunctionSchema& schema() const {
    TORCH_INTERNAL_ASSERT(schema_.has_value(), "Tried to access the schema for ", name_,
                          " which doesn't have a schema registered yet");
    return *schema_;
  }

  /// The C++ type of the kernels registered so far (every kernel must have the same one).
  std::optional<std::type_index> cppSignature() const { return cpp_signature_; }

  /// The kernel for a runtime key (after the table was computed).
  const KernelFunction& lookup(DispatchKey key) const { return dispatchTable_[static_cast<uint16_t>(key)]; }
  /// The kernel for the highest-priority key of ks (one table index per key set).
  const KernelFunction& lookup(DispatchKeySet ks) const;
  /// Keys whose entry is a fallthrough are masked out of this operator's key sets, so the
  /// dispatcher never even stops there. The mask depends on the backend: AutogradCPU may
  /// fall through while AutogradCUDA has a kernel.
  DispatchKeySet nonFallthroughKeys(DispatchKeySet ks) const {
    return non_fallthrough_keys_per_backend_[static_cast<size_t>(ks.highestBackendKey())];
  }

  /// What torch._C._dispatch_dump prints: every registration, then the computed table.
  std::string dumpState() const;
  /// The computed table alone: each runtime key with a kernel, and where it came from.
  std::string dumpComputedTable() const;
  /// "'aten::foo' is only available for these backends: [CPU, Meta, ...]."
  std::string listAllDispatchKeys() const;

 private:
  friend class Dispatcher;

  struct AnnotatedKernel {
    KernelFunction kernel;
    std::string debug;  // where it was registered: "registered at RegisterCPU.cpp:123"
  };

  void registerSchema(FunctionSchema schema, std::string debug);
  void registerKernel(std::optional<DispatchKey> key, KernelFunction kernel, std::string debug);
  // Recompute every runtime key's entry from the registrations and the backend fallbacks.
  void updateDispatchTable(const Dispatcher& dispatcher);
  std::pair<const AnnotatedKernel*, const char*> computeDispatchTableEntry(const Dispatcher& dispatcher,
                                                                            DispatchKey key) const;

  OperatorName name_;
  std::optional<FunctionSchema> schema_;
  std::string schema_debug_;
  // Registered kernels by key (runtime keys and alias keys alike). CatchAll = no key given.
  std::map<DispatchKey, AnnotatedKernel> kernels_;
  std::array<KernelFunction, num_runtime_entries> dispatchTable_;
  std::array<std::string, num_runtime_entries> dispatchTableDebug_;
  std::array<DispatchKeySet, num_backends + 1> non_fallthrough_keys_per_backend_;
  std::optional<std::type_index> cpp_signature_;
  std::string cpp_signature_debug_;
};

}  // namespace c10
