// aten/src/ATen/record_function.cpp - the registered callbacks and what a RecordFunction does
// with them. Mirrors PyTorch's aten/src/ATen/record_function.cpp. Guide: docs/source/internals/profiler.rst.
#include <ATen/record_function.h>

#include <ATen/core/ivalue.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <mutex>

namespace at {

namespace detail {

std::atomic<int> rf_callbacks_registered{0};

// An immutable list: adding or removing a callback builds a new one, so a RecordFunction that
// holds the old list keeps calling what it started with, without a lock.
struct CallbackList {
  std::vector<std::pair<RecordFunctionCallback, CallbackHandle>> callbacks;
};

namespace {
std::mutex& callbacks_mutex() {
  static std::mutex m;
  return m;
}
std::shared_ptr<const CallbackList>& global_callbacks() {
  static std::shared_ptr<const CallbackList> list = std::make_shared<const CallbackList>();
  return list;
}
std::atomic<CallbackHandle> next_callback_handle{1};
std::atomic<uint64_t> next_record_function_handle{1};
std::atomic<uint64_t> next_thread_id{0};
thread_local uint64_t current_thread_id = 0;
}  // namespace

std::vector<std::vector<int64_t>> inputShapesOf(c10::ArrayRef<const c10::IValue> args) {
  std::vector<std::vector<int64_t>> shapes;
  shapes.reserve(args.size());
  for (const auto& v : args) {
    if (v.isTensor() && v.toTensor().defined()) {
      shapes.push_back(v.toTensor().sizes().vec());
    } else {
      shapes.emplace_back();
    }
  }
  return shapes;
}

}  // namespace detail

const char* toString(RecordScope scope) {
  switch (scope) {
    case RecordScope::FUNCTION: return "FUNCTION";
    case RecordScope::BACKWARD_FUNCTION: return "BACKWARD_FUNCTION";
    case RecordScope::TORCHSCRIPT_FUNCTION: return "TORCHSCRIPT_FUNCTION";
    case RecordScope::KERNEL_FUNCTION_DTYPE: return "KERNEL_FUNCTION_DTYPE";
    case RecordScope::CUSTOM_CLASS: return "CUSTOM_CLASS";
    case RecordScope::BUILD_FEATURE: return "BUILD_FEATURE";
    case RecordScope::LITE_INTERPRETER: return "LITE_INTERPRETER";
    case RecordScope::USER_SCOPE: return "USER_SCOPE";
    case RecordScope::STATIC_RUNTIME_OP: return "STATIC_RUNTIME_OP";
    case RecordScope::STATIC_RUNTIME_MODEL: return "STATIC_RUNTIME_MODEL";
    case RecordScope::NUM_SCOPES: break;
  }
  return "UNKNOWN";
}

// [marker: addGlobalCallback]
CallbackHandle addGlobalCallback(RecordFunctionCallback cb) {
  std::lock_guard<std::mutex> lock(detail::callbacks_mutex());
  auto& current = detail::global_callbacks();
  auto next = std::make_shared<detail::CallbackList>(*current);
  const CallbackHandle handle = detail::next_callback_handle++;
  next->callbacks.emplace_back(cb, handle);
  current = std::move(next);
  // Last: a call that sees the count also finds the callback in the list.
  detail::rf_callbacks_registered.fetch_add(1, std::memory_order_release);
  return handle;
}

void removeCallback(CallbackHandle handle) {
  std::lock_guard<std::mutex> lock(detail::callbacks_mutex());
  auto& current = detail::global_callbacks();
  auto next = std::make_shared<detail::CallbackList>(*current);
  auto& cbs = next->callbacks;
  auto it = std::find_if(cbs.begin(), cbs.end(), [&](const auto& e) { return e.second == handle; });
  if (it == cbs.end()) {
    TORCH_WARN("Requested callback is not found");
    return;
  }
  cbs.erase(it);
  current = std::move(next);
  detail::rf_callbacks_registered.fetch_sub(1, std::memory_order_release);
}
// [end marker: addGlobalCallback]

bool hasGlobalCallbacks() {
  return hasCallbacks();
}

void clearCallbacks() {
  std::lock_guard<std::mutex> lock(detail::callbacks_mutex());
  auto& current = detail::global_callbacks();
  detail::rf_callbacks_registered.fetch_sub(static_cast<int>(current->callbacks.size()), std::memory_order_release);
  current = std::make_shared<const detail::CallbackList>();
}

uint64_t RecordFunction::currentThreadId() {
  if (detail::current_thread_id == 0) {
    // Once per thread.
    detail::current_thread_id = ++detail::next_thread_id;
  }
  return detail::current_thread_id;
}

// The slow path's first step: keep the callbacks that want this scope, if any.
void RecordFunction::init() {
  std::shared_ptr<const detail::CallbackList> list;
  {
    std::lock_guard<std::mutex> lock(detail::callbacks_mutex());
    list = detail::global_callbacks();
  }
  bool any = false;
  for (const auto& entry : list->callbacks) {
    if (entry.first.checkScope(scope_)) {
      any = true;
      needs_inputs_ = needs_inputs_ || entry.first.needsInputs();
    }
  }
  if (!any) {
    return;  // callbacks exist, none for this scope: stay inactive
  }
  callbacks_ = std::move(list);
  thread_id_ = currentThreadId();
}

void RecordFunction::runStartCallbacks() {
  if (!isActive() || called_start_callbacks_) {
    return;
  }
  handle_ = detail::next_record_function_handle++;
  called_start_callbacks_ = true;
  const auto& cbs = callbacks_->callbacks;
  contexts_.resize(cbs.size());
  for (size_t i = 0; i < cbs.size(); ++i) {
    const auto& cb = cbs[i].first;
    if (cb.checkScope(scope_) && cb.start() != nullptr) {
      contexts_[i] = cb.start()(*this);
    }
  }
}

void RecordFunction::before(std::string name, int64_t sequence_nr) {
  if (!isActive()) {
    return;
  }
  name_storage_ = std::move(name);
  name_ = name_storage_.c_str();
  sequence_nr_ = sequence_nr;
  runStartCallbacks();
}

void RecordFunction::before(const char* name, int64_t sequence_nr) {
  if (!isActive()) {
    return;
  }
  // Copied: the caller's string need not outlive the call.
  before(std::string(name), sequence_nr);
}

void RecordFunction::before(const c10::OperatorName& op, int64_t sequence_nr) {
  if (!isActive()) {
    return;
  }
  // The dispatcher's operator entries never move: their names outlive every call.
  name_ = op.name.c_str();
  overload_name_ = op.overload_name.c_str();
  sequence_nr_ = sequence_nr;
  runStartCallbacks();
}

void RecordFunction::before(const char* name, c10::ArrayRef<const c10::IValue> args, int64_t sequence_nr) {
  if (!isActive()) {
    return;
  }
  if (needs_inputs_) {
    input_shapes_ = detail::inputShapesOf(args);
  }
  before(name, sequence_nr);
}

void RecordFunction::before(std::string name, c10::ArrayRef<const c10::IValue> args, int64_t sequence_nr) {
  if (!isActive()) {
    return;
  }
  if (needs_inputs_) {
    input_shapes_ = detail::inputShapesOf(args);
  }
  before(std::move(name), sequence_nr);
}

// [marker: RecordFunction::end]
void RecordFunction::end() {
  if (!isActive()) {
    return;
  }
  if (called_start_callbacks_) {
    const auto& cbs = callbacks_->callbacks;
    for (size_t i = 0; i < cbs.size(); ++i) {
      const auto& cb = cbs[i].first;
      if (cb.checkScope(scope_) && cb.end() != nullptr) {
        try {
          cb.end()(*this, contexts_[i].get());
        } catch (const std::exception& e) {
          // An end callback runs in a destructor, maybe during unwinding: it must not throw.
          TORCH_WARN("Exception in RecordFunction callback: ", e.what());
        }
      }
    }
  }
  callbacks_.reset();
}
// [end marker: RecordFunction::end]

}  // namespace at
