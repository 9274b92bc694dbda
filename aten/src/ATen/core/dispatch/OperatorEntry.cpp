// aten/src/ATen/core/dispatch/OperatorEntry.cpp - computing an operator's dispatch table.
// Mirrors PyTorch's aten/src/ATen/core/dispatch/OperatorEntry.cpp. Guide: docs/source/internals/dispatch.rst.
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/dispatch/OperatorEntry.h>

#include <sstream>

namespace c10 {
namespace {

bool isBackendKey(DispatchKey k) {
  return k > DispatchKey::StartOfDenseBackends && k <= DispatchKey::EndOfDenseBackends;
}
bool isAutogradKey(DispatchKey k) {
  return k == DispatchKey::AutogradOther ||
         (k > DispatchKey::StartOfAutogradFunctionalityBackends && k <= DispatchKey::EndOfAutogradFunctionalityBackends);
}
// The runtime keys a dispatch table has a slot for (markers and bare functionalities excluded).
// Undefined has one too: it is the key of a call with no tensor arguments (result_type of
// two numbers), which composite kernels can serve.
bool isRuntimeKey(DispatchKey k) {
  return k != DispatchKey::Dense && k != DispatchKey::AutogradFunctionality &&
         k != DispatchKey::StartOfDenseBackends && k != DispatchKey::StartOfAutogradFunctionalityBackends &&
         k <= DispatchKey::EndOfRuntimeBackendKeys;
}

}  // namespace

OperatorEntry::OperatorEntry(OperatorName name) : name_(std::move(name)) {}

const KernelFunction& OperatorEntry::lookup(DispatchKeySet ks) const {
  return dispatchTable_[ks.getDispatchTableIndexForDispatchKeySet()];
}

void OperatorEntry::registerSchema(FunctionSchema schema, std::string debug) {
  TORCH_CHECK(!schema_.has_value(), "Tried to register operator ", schema.schema_str, " with name ",
              toString(schema.operator_name), " but a schema with that name was already registered from ",
              schema_debug_);
  schema_ = std::move(schema);
  schema_debug_ = std::move(debug);
}

void OperatorEntry::registerKernel(std::optional<DispatchKey> key, KernelFunction kernel, std::string debug) {
  // A kernel registered without a key is a CompositeImplicitAutograd kernel (it works for
  // every backend by calling other operators), as in PyTorch.
  const DispatchKey k = key.value_or(DispatchKey::CompositeImplicitAutograd);
  // Kernels are called through a cast to the operator's C++ signature: a kernel of another
  // type would be called with the wrong arguments, so it is refused here.
  // A kernel written in Python has no C++ signature: it is called boxed only.
  if (kernel.isValidUnboxed()) {
    if (cpp_signature_.has_value()) {
      TORCH_CHECK(*cpp_signature_ == kernel.signature(), "Mismatch in kernel C++ signatures\n  operator: ",
                  toString(name_), "\n  kernel 1: ", cpp_signature_->name(), " (", cpp_signature_debug_,
                  ")\n  kernel 2: ", kernel.signature().name(), " (", debug, ")");
    } else {
      cpp_signature_ = kernel.signature();
      cpp_signature_debug_ = debug;
    }
  }
  TORCH_CHECK(!kernels_.count(k), "Registering a second kernel for operator ", toString(name_),
              " at dispatch key ", k, ". The first one was ", kernels_.at(k).debug, "; this one is ", debug);
  kernels_[k] = AnnotatedKernel{std::move(kernel), std::move(debug)};
}

// [marker: computeDispatchTableEntry]
// The kernel a runtime key runs, in PyTorch's order of precedence:
//   1. a kernel registered for exactly this key;
//   2. for a backend key (CPU, CUDA, Meta): CompositeExplicitAutogradNonFunctional, then
//      CompositeExplicitAutograd (one kernel for every backend);
//   3. CompositeImplicitAutograd (a decomposition into other operators): for backend keys,
//      and for autograd keys too, so that autograd differentiates the decomposition;
//   4. for autograd keys: the Autograd alias kernel;
//   5. the backend fallback registered for the key (e.g. a fallthrough);
//   6. nothing: calling raises "Could not run ... with arguments from the ... backend".
// A call without tensor arguments has the Undefined key, served by a composite kernel.
std::pair<const OperatorEntry::AnnotatedKernel*, const char*> OperatorEntry::computeDispatchTableEntry(
    const Dispatcher& dispatcher, DispatchKey key) const {
  auto find = [&](DispatchKey k) -> const AnnotatedKernel* {
    auto it = kernels_.find(k);
    return it == kernels_.end() ? nullptr : &it->second;
  };
  if (auto* k = find(key)) return {k, "kernel"};
  if (key == DispatchKey::Undefined) {
    // No tensor arguments and no BackendSelect kernel: only a composite kernel can run.
    if (auto* k = find(DispatchKey::CompositeImplicitAutograd)) return {k, "math kernel"};
    if (auto* k = find(DispatchKey::CompositeExplicitAutograd)) return {k, "default backend kernel"};
    return {nullptr, "missing"};
  }
  if (isBackendKey(key)) {
    if (auto* k = find(DispatchKey::CompositeExplicitAutogradNonFunctional)) return {k, "default backend kernel"};
    if (auto* k = find(DispatchKey::CompositeExplicitAutograd)) return {k, "default backend kernel"};
  }
  if (isBackendKey(key) || isAutogradKey(key)) {
    if (auto* k = find(DispatchKey::CompositeImplicitAutograd)) {
      // An autograd key uses the decomposition only when there is no backend kernel for it
      // to redispatch to: otherwise the backend kernel would be differentiated by whoever
      // registered the Autograd kernel.
      const bool backend_has_kernel =
          isAutogradKey(key) && key != DispatchKey::AutogradOther &&
          (find(toRuntimePerBackendFunctionalityKey(DispatchKey::Dense, toBackendComponent(key))) ||
           find(DispatchKey::CompositeExplicitAutograd) || find(DispatchKey::CompositeExplicitAutogradNonFunctional));
      if (!backend_has_kernel) return {k, "math kernel"};
    }
  }
  if (isAutogradKey(key)) {
    if (auto* k = find(DispatchKey::Autograd)) return {k, "autograd kernel"};
  }
  return {nullptr, "fallback"};
}
// [end marker: computeDispatchTableEntry]

void OperatorEntry::updateDispatchTable(const Dispatcher& dispatcher) {
  non_fallthrough_keys_per_backend_.fill(DispatchKeySet(DispatchKeySet::FULL));
  for (uint16_t i = 0; i < num_runtime_entries; ++i) {
    const auto key = static_cast<DispatchKey>(i);
    dispatchTable_[i] = KernelFunction();
    dispatchTableDebug_[i].clear();
    if (!isRuntimeKey(key)) {
      continue;
    }
    auto [kernel, kind] = computeDispatchTableEntry(dispatcher, key);
    if (kernel) {
      dispatchTable_[i] = kernel->kernel;
      dispatchTableDebug_[i] = std::string(kind) + " [" + kernel->debug + "]";
    } else if (const KernelFunction* fallback = dispatcher.backendFallback(key)) {
      dispatchTable_[i] = *fallback;
      dispatchTableDebug_[i] = "backend fallback [" + dispatcher.backendFallbackDebug_[i] + "]";
    }
    // A fallthrough entry is taken out of the key set before dispatch: a bare functionality
    // key (ADInplaceOrView) for every backend, a per-backend key (AutogradCPU) for its own.
    if (dispatchTable_[i].isFallthrough()) {
      if (isRuntimePerBackendKey(key)) {
        auto& mask = non_fallthrough_keys_per_backend_[static_cast<size_t>(toBackendComponent(key))];
        mask = mask.remove(key);
      } else {
        for (auto& mask : non_fallthrough_keys_per_backend_) mask = mask.remove(key);
      }
    }
  }
}

std::string OperatorEntry::listAllDispatchKeys() const {
  std::ostringstream str;
  str << "[";
  bool first = true;
  for (uint16_t i = 0; i < num_runtime_entries; ++i) {
    if (!dispatchTable_[i].isValid()) continue;
    if (!first) str << ", ";
    str << static_cast<DispatchKey>(i);
    first = false;
  }
  str << "]";
  return str.str();
}

std::string OperatorEntry::dumpState() const {
  std::ostringstream oss;
  oss << "name: " << toString(name_) << "\n";
  oss << "schema: " << (schema_ ? schema_->schema_str : "(none)") << "\n";
  if (schema_) oss << "debug: " << schema_debug_ << "\n";
  for (const auto& [key, kernel] : kernels_) {
    oss << key << (isAliasDispatchKey(key) ? "[alias]" : "") << ": " << kernel.debug << "\n";
  }
  return oss.str();
}

std::string OperatorEntry::dumpComputedTable() const {
  std::ostringstream oss;
  for (uint16_t i = 0; i < num_runtime_entries; ++i) {
    if (!dispatchTable_[i].isValid()) continue;
    oss << static_cast<DispatchKey>(i) << ": "
        << (dispatchTable_[i].isFallthrough() ? "fallthrough " : "") << dispatchTableDebug_[i] << "\n";
  }
  return oss.str();
}

}  // namespace c10
