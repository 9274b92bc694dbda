// aten/src/ATen/record_function.h - RecordFunction: the hook every operator call passes, and the
// callbacks (the profiler's) it runs. Mirrors PyTorch's aten/src/ATen/record_function.h.
// Guide: docs/source/internals/profiler.rst.
//
// The dispatcher asks at::hasCallbacks() on every call. With nothing registered that is one
// relaxed load of a global counter and a branch the CPU predicts, so operators pay nothing
// for a profiler nobody runs. With a callback registered, the call takes a slow path that
// builds a RecordFunction around the kernel: its before() runs the start callbacks, its
// destructor (or end()) runs the end callbacks.
#pragma once

#include <ATen/core/operator_name.h>
#include <c10/macros/Export.h>
#include <c10/macros/Macros.h>
#include <c10/util/ArrayRef.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace c10 {
class IValue;
}

namespace at {

// What kind of code a RecordFunction wraps; a callback can ask for some kinds only.
// The numbering is PyTorch's: FunctionEvent.scope in Python shows these values.
enum class RecordScope : uint8_t {
  FUNCTION = 0,           // an operator called through the dispatcher ("aten::add")
  BACKWARD_FUNCTION,      // an autograd node run by the engine ("MmBackward0")
  TORCHSCRIPT_FUNCTION,   // (TorchScript: not in this tree)
  KERNEL_FUNCTION_DTYPE,  // (mobile kernel tracing: not in this tree)
  CUSTOM_CLASS,
  BUILD_FEATURE,
  LITE_INTERPRETER,
  USER_SCOPE,             // torch.profiler.record_function("label")
  STATIC_RUNTIME_OP,
  STATIC_RUNTIME_MODEL,
  NUM_SCOPES,
};

TORCH_API const char* toString(RecordScope scope);

// A callback's per-call state: what its start callback returns is handed to its end callback
// (the profiler keeps the start time there).
struct TORCH_API ObserverContext {
  virtual ~ObserverContext() = default;

 protected:
  ObserverContext() = default;
};

using CallbackHandle = uint64_t;

struct RecordFunction;

// [marker: RecordFunctionCallback]
// A pair of plain function pointers (no std::function: nothing to allocate or copy per call)
// plus what the callback wants: input shapes or not, which scopes.
class TORCH_API RecordFunctionCallback {
 public:
  using StartCallback = std::unique_ptr<ObserverContext> (*)(const RecordFunction&);
  using EndCallback = void (*)(const RecordFunction&, ObserverContext*);

  explicit RecordFunctionCallback(StartCallback start, EndCallback end = nullptr) : start_(start), end_(end) {
    scopes_.fill(true);
  }

  RecordFunctionCallback& needsInputs(bool needs_inputs) {
    needs_inputs_ = needs_inputs;
    return *this;
  }
  // Only these scopes (default: all).
  RecordFunctionCallback& scopes(std::initializer_list<RecordScope> scopes) {
    scopes_.fill(false);
    for (auto s : scopes) scopes_[static_cast<size_t>(s)] = true;
    return *this;
  }

  bool needsInputs() const { return needs_inputs_; }
  bool checkScope(RecordScope sc) const { return scopes_[static_cast<size_t>(sc)]; }
  StartCallback start() const { return start_; }
  EndCallback end() const { return end_; }

 private:
  StartCallback start_;
  EndCallback end_;
  bool needs_inputs_ = false;
  std::array<bool, static_cast<size_t>(RecordScope::NUM_SCOPES)> scopes_{};
};
// [end marker: RecordFunctionCallback]

namespace detail {
// How many callbacks are registered. The only thing an operator call reads when profiling is off.
TORCH_API extern std::atomic<int> rf_callbacks_registered;
struct CallbackList;  // record_function.cpp
}  // namespace detail

// [marker: hasCallbacks]
// The dispatcher's check (Dispatcher::call, Dispatcher::callBoxed): one relaxed atomic load.
inline bool hasCallbacks() {
  return detail::rf_callbacks_registered.load(std::memory_order_relaxed) != 0;
}
// [end marker: hasCallbacks]

// PyTorch's older spelling of the same question; nothing here samples, so pre_sampled is false.
inline bool shouldRunRecordFunction(bool* pre_sampled = nullptr) {
  if (pre_sampled != nullptr) *pre_sampled = false;
  return hasCallbacks();
}

// Callbacks that run on every thread. The handle removes the callback again; a RecordFunction
// already started keeps the callbacks it started with and runs their end callbacks.
TORCH_API CallbackHandle addGlobalCallback(RecordFunctionCallback cb);
TORCH_API void removeCallback(CallbackHandle handle);
TORCH_API bool hasGlobalCallbacks();
TORCH_API void clearCallbacks();

// [marker: RecordFunction]
struct TORCH_API RecordFunction {
  // Inactive (and nearly free) unless a callback for this scope is registered.
  explicit RecordFunction(RecordScope scope = RecordScope::FUNCTION) : scope_(scope) {
    if (C10_UNLIKELY(hasCallbacks())) {
      init();
    }
  }
  // Runs the end callbacks if before() ran the start callbacks.
  ~RecordFunction() {
    if (C10_UNLIKELY(isActive())) {
      end();
    }
  }
  RecordFunction(const RecordFunction&) = delete;
  RecordFunction& operator=(const RecordFunction&) = delete;

  // Name the call and run the start callbacks. sequence_nr ties a forward operator to the
  // autograd node it created (-1: none).
  void before(const char* name, int64_t sequence_nr = -1);
  void before(std::string name, int64_t sequence_nr = -1);
  // An operator: the name is the operator's ("aten::add"), the overload kept beside it.
  void before(const c10::OperatorName& op, int64_t sequence_nr = -1);
  // With the inputs, for callbacks that asked for them (needsInputs): their shapes are kept.
  void before(const char* name, c10::ArrayRef<const c10::IValue> args, int64_t sequence_nr = -1);
  void before(std::string name, c10::ArrayRef<const c10::IValue> args, int64_t sequence_nr = -1);

  // Run the end callbacks now (once); the destructor then does nothing.
  void end();

  bool isActive() const { return callbacks_ != nullptr; }
  bool needsInputs() const { return needs_inputs_; }

  const char* name() const { return name_; }
  const char* overload_name() const { return overload_name_; }
  int64_t seqNr() const { return sequence_nr_; }
  RecordScope scope() const { return scope_; }
  // A small number per thread (1, 2, ...), stable for the thread's life.
  uint64_t threadId() const { return thread_id_; }
  // The thread that ran the forward operator of a backward node (0: not set).
  uint64_t forwardThreadId() const { return fwd_thread_id_; }
  void setForwardThreadId(uint64_t id) { fwd_thread_id_ = id; }
  // Unique among the calls of this process.
  uint64_t handle() const { return handle_; }
  // One entry per argument: a tensor's sizes, [] for anything else (PyTorch's input_shapes).
  const std::vector<std::vector<int64_t>>& inputShapes() const { return input_shapes_; }
  void setInputShapes(std::vector<std::vector<int64_t>> shapes) { input_shapes_ = std::move(shapes); }

  static uint64_t currentThreadId();

 private:
  void init();
  void runStartCallbacks();

  std::shared_ptr<const detail::CallbackList> callbacks_;  // null: inactive
  std::vector<std::unique_ptr<ObserverContext>> contexts_;
  const char* name_ = "";
  const char* overload_name_ = "";
  std::string name_storage_;  // when the name is not a string that outlives the call
  std::vector<std::vector<int64_t>> input_shapes_;
  int64_t sequence_nr_ = -1;
  uint64_t thread_id_ = 0;
  uint64_t fwd_thread_id_ = 0;
  uint64_t handle_ = 0;
  RecordScope scope_;
  bool needs_inputs_ = false;
  bool called_start_callbacks_ = false;
};
// [end marker: RecordFunction]

namespace detail {
// The shapes of a list of inputs: a tensor's sizes, [] for everything else.
TORCH_API std::vector<std::vector<int64_t>> inputShapesOf(c10::ArrayRef<const c10::IValue> args);

template <class Inputs, class... Args>
void record_function_with_scope(RecordFunction& guard, const char* fn, const Inputs& inputs, Args&&... args) {
  if (guard.needsInputs()) {
    guard.before(fn, c10::ArrayRef<const c10::IValue>(inputs.data(), inputs.size()), std::forward<Args>(args)...);
  } else {
    guard.before(fn, std::forward<Args>(args)...);
  }
}
template <class Inputs, class... Args>
void record_function_with_scope(RecordFunction& guard, std::string fn, const Inputs& inputs, Args&&... args) {
  if (guard.needsInputs()) {
    guard.before(std::move(fn), c10::ArrayRef<const c10::IValue>(inputs.data(), inputs.size()),
                 std::forward<Args>(args)...);
  } else {
    guard.before(std::move(fn), std::forward<Args>(args)...);
  }
}
}  // namespace detail

// RECORD_FUNCTION("my_op", std::vector<c10::IValue>({x, y})) records the rest of the enclosing
// block as one event. inputs is anything with data() and size() over IValues.
#define RECORD_FUNCTION_WITH_SCOPE(scope, fn, inputs, ...)                             \
  at::RecordFunction guard(scope);                                                    \
  if (guard.isActive()) {                                                             \
    ::at::detail::record_function_with_scope(guard, fn, inputs, ##__VA_ARGS__);       \
  }

#define RECORD_FUNCTION(fn, inputs, ...) \
  RECORD_FUNCTION_WITH_SCOPE(at::RecordScope::FUNCTION, fn, inputs, ##__VA_ARGS__)

#define RECORD_USER_SCOPE(fn) \
  RECORD_FUNCTION_WITH_SCOPE(at::RecordScope::USER_SCOPE, fn, c10::ArrayRef<const c10::IValue>{})

}  // namespace at
