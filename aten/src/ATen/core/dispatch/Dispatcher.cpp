// aten/src/ATen/core/dispatch/Dispatcher.cpp - operator registry, backend fallbacks, errors, trace.
// Mirrors PyTorch's aten/src/ATen/core/dispatch/Dispatcher.cpp. Guide: docs/source/internals/dispatch.rst.
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/SequenceNumber.h>
#include <ATen/core/stack.h>
#include <c10/core/GradMode.h>

#include <cstdlib>

namespace c10 {

namespace detail {

bool show_dispatch_trace() {
  static const bool show = [] {
    const char* env = std::getenv("TORCH_SHOW_DISPATCH_TRACE");
    return env != nullptr && std::string(env) != "0";
  }();
  return show;
}

static thread_local int64_t dispatch_trace_nesting = 0;

void dispatch_trace_nesting_incr() {
  ++dispatch_trace_nesting;
}
void dispatch_trace_nesting_decr() {
  --dispatch_trace_nesting;
}

void print_dispatch_trace(const char* kind, const OperatorName& op, DispatchKey key) {
  // One space of indent per level of nesting: a kernel that calls other operators shows
  // their hops under its own.
  std::cerr << std::string(static_cast<size_t>(dispatch_trace_nesting), ' ') << "[" << kind << "] op=["
            << toString(op) << "], key=[" << toString(key) << "]" << std::endl;
}

}  // namespace detail

Dispatcher& Dispatcher::singleton() {
  // Never destroyed: static destructors of other libraries may still unregister kernels.
  static Dispatcher* dispatcher = new Dispatcher();
  return *dispatcher;
}

OperatorHandle Dispatcher::findOrRegisterName_(const OperatorName& op_name) {
  auto it = operatorLookupTable_.find(op_name);
  if (it != operatorLookupTable_.end()) {
    return OperatorHandle(it->second);
  }
  operators_.emplace_back(op_name);
  OperatorEntry* entry = &operators_.back();
  operatorLookupTable_.emplace(op_name, entry);
  entry->updateDispatchTable(*this);
  return OperatorHandle(entry);
}

std::optional<OperatorHandle> Dispatcher::findOp(const OperatorName& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = operatorLookupTable_.find(name);
  if (it == operatorLookupTable_.end()) return std::nullopt;
  return OperatorHandle(it->second);
}

std::optional<OperatorHandle> Dispatcher::findSchema(const OperatorName& name) {
  auto op = findOp(name);
  if (op && op->hasSchema()) return op;
  return std::nullopt;
}

OperatorHandle Dispatcher::findSchemaOrThrow(const char* name, const char* overload_name) {
  auto op = findSchema(OperatorName{name, overload_name});
  TORCH_CHECK(op.has_value(), "Could not find schema for ", name, ".", overload_name);
  return *op;
}

std::vector<OperatorName> Dispatcher::getAllOpNames() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<OperatorName> names;
  for (const auto& op : operators_) names.push_back(op.operator_name());
  return names;
}

RegistrationHandleRAII Dispatcher::registerDef(FunctionSchema schema, std::string debug) {
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorName name = schema.operator_name;
  OperatorHandle op = findOrRegisterName_(name);
  op.operatorDef_->registerSchema(std::move(schema), std::move(debug));
  return RegistrationHandleRAII([this, name] {
    std::lock_guard<std::mutex> lock(mutex_);
    operatorLookupTable_.at(name)->schema_.reset();
  });
}

RegistrationHandleRAII Dispatcher::registerImpl(OperatorName op_name, std::optional<DispatchKey> key,
                                                KernelFunction kernel, std::string debug) {
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorHandle op = findOrRegisterName_(op_name);
  op.operatorDef_->registerKernel(key, std::move(kernel), std::move(debug));
  op.operatorDef_->updateDispatchTable(*this);
  const DispatchKey k = key.value_or(DispatchKey::CompositeImplicitAutograd);
  return RegistrationHandleRAII([this, op_name, k] {
    std::lock_guard<std::mutex> lock(mutex_);
    OperatorEntry* entry = operatorLookupTable_.at(op_name);
    entry->kernels_.erase(k);
    entry->updateDispatchTable(*this);
  });
}

RegistrationHandleRAII Dispatcher::registerFallback(DispatchKey key, KernelFunction kernel, std::string debug) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto idx = static_cast<size_t>(key);
  TORCH_CHECK(idx < num_runtime_entries, "A backend fallback must be registered for a runtime key, not ", key);
  TORCH_CHECK(!backendFallbackKernels_[idx].isValid(), "Tried to register multiple backend fallbacks for the same dispatch key ",
              key, "; previous registration ", backendFallbackDebug_[idx], ", new registration ", debug);
  backendFallbackKernels_[idx] = std::move(kernel);
  backendFallbackDebug_[idx] = std::move(debug);
  for (auto& op : operators_) op.updateDispatchTable(*this);
  return RegistrationHandleRAII([this, idx] {
    std::lock_guard<std::mutex> lock(mutex_);
    backendFallbackKernels_[idx] = KernelFunction();
    backendFallbackDebug_[idx].clear();
    for (auto& op : operators_) op.updateDispatchTable(*this);
  });
}

// [marker: reportError]
void Dispatcher::reportError(const OperatorEntry& op, DispatchKey key) const {
  const std::string name = toString(op.operator_name());
  if (key == DispatchKey::Undefined) {
    TORCH_CHECK_NOT_IMPLEMENTED(false, "There were no tensor arguments to this function (e.g., you passed an empty "
                                "list of Tensors), but no fallback function is registered for schema ", name,
                                ".  This usually means that this function requires a non-empty list of Tensors, "
                                "or that you (the operator writer) forgot to register a fallback function.  "
                                "Available functions are ", op.listAllDispatchKeys());
  }
  TORCH_CHECK_NOT_IMPLEMENTED(false, "Could not run '", name, "' with arguments from the '", toString(key),
                              "' backend. This could be because the operator doesn't exist for this backend, or "
                              "was omitted during the selective/custom build process (if using custom build). If "
                              "you are a Facebook employee using PyTorch on mobile, please visit "
                              "https://fburl.com/ptmfixes for possible resolutions. '", name,
                              "' is only available for these backends: ", op.listAllDispatchKeys(), ".");
}
// [end marker: reportError]

// [marker: runRecordFunction]
void detail::InputShapes::operator()(const std::optional<at::Tensor>& x) {
  shapes.push_back(x.has_value() && x->defined() ? x->sizes().vec() : std::vector<int64_t>());
}

void Dispatcher::runRecordFunction(at::RecordFunction& guard, const OperatorEntry& op, DispatchKeySet ks) {
  // A call that enters at an autograd key records the sequence number its autograd node
  // will take: the profiler ties the forward operator to its backward node with it.
  const DispatchKey key = ks.highestPriorityTypeId();
  if (isIncludedInAlias(key, DispatchKey::Autograd) && GradMode::is_enabled()) {
    guard.before(op.operator_name(), static_cast<int64_t>(at::sequence_number::peek()));
  } else {
    guard.before(op.operator_name());
  }
}
// [end marker: runRecordFunction]

// [marker: callBoxed]
namespace {
// How many entries at the top of the stack are the operator's arguments.
size_t numArgsOnStack(const OperatorEntry& op, const Stack& stack) {
  return op.hasSchema() ? std::min(op.schema().arguments.size(), stack.size()) : stack.size();
}

// The key set of a boxed call: the tensors among the operator's arguments (the top of the
// stack), as computeKeySetFromArgs finds them among typed arguments.
DispatchKeySet keySetOfStack(const OperatorEntry& op, const Stack& stack) {
  const size_t n = numArgsOnStack(op, stack);
  DispatchKeySet ks;
  for (auto it = stack.end() - static_cast<std::ptrdiff_t>(n); it != stack.end(); ++it) {
    if (it->isTensor()) {
      if (it->toTensor().defined()) ks = ks | it->toTensor().key_set();
    } else if (it->isTensorList()) {
      for (const auto& t : it->toTensorVector()) {
        if (t.defined()) ks = ks | t.key_set();
      }
    }
  }
  return ks;
}
}  // namespace

void Dispatcher::callBoxed(const OperatorHandle& op, Stack* stack) const {
  const auto& local = impl::tls_local_dispatch_key_set();
  const DispatchKeySet unmasked = (keySetOfStack(*op.operatorDef_, *stack) | local.included_) - local.excluded_;
  const DispatchKeySet ks = unmasked & op.operatorDef_->nonFallthroughKeys(unmasked);
  if (C10_UNLIKELY(at::hasCallbacks())) {
    // The profiled boxed call, as Dispatcher::call's slow path: the inputs are already IValues.
    at::RecordFunction guard(at::RecordScope::FUNCTION);
    if (guard.isActive()) {
      if (guard.needsInputs()) {
        const size_t n = numArgsOnStack(*op.operatorDef_, *stack);
        guard.setInputShapes(
            at::detail::inputShapesOf(c10::ArrayRef<const IValue>(stack->data() + (stack->size() - n), n)));
      }
      runRecordFunction(guard, *op.operatorDef_, ks);
    }
    redispatchBoxed(op, ks, stack);
    return;
  }
  redispatchBoxed(op, ks, stack);
}

void Dispatcher::redispatchBoxed(const OperatorHandle& op, DispatchKeySet currentDispatchKeySet, Stack* stack) const {
  const OperatorEntry& entry = *op.operatorDef_;
  const DispatchKeySet ks = currentDispatchKeySet & entry.nonFallthroughKeys(currentDispatchKeySet);
  const DispatchKey key = ks.highestPriorityTypeId();
  const KernelFunction& kernel = entry.lookup(key);
  if (C10_UNLIKELY(!kernel.isValid())) {
    reportError(entry, key);
  }
  if (C10_UNLIKELY(detail::show_dispatch_trace())) {
    detail::print_dispatch_trace("callBoxed", entry.operator_name(), key);
    detail::dispatch_trace_nesting_incr();
    struct Decr {
      ~Decr() { detail::dispatch_trace_nesting_decr(); }
    } decr;
    kernel.callBoxed(ks, stack);
    return;
  }
  kernel.callBoxed(ks, stack);
}
// [end marker: callBoxed]

}  // namespace c10
