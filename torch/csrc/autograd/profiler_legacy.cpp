// torch/csrc/autograd/profiler_legacy.cpp - the collecting RecordFunction callback.
// Mirrors PyTorch's torch/csrc/autograd/profiler_legacy.cpp. Guide: docs/source/internals/profiler.rst.
#include <torch/csrc/autograd/profiler_legacy.h>

#include <c10/util/Exception.h>

#include <chrono>
#include <memory>
#include <mutex>

namespace torch::autograd::profiler {

namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// One profiling session. Calls still running when it ends keep it alive through their
// context, and add their events to it, where nobody reads them any more.
struct ProfilerState {
  ProfilerConfig config;
  int64_t start_ns = 0;
  std::mutex mutex;
  std::vector<LegacyEvent> events;
};

std::mutex state_mutex;
std::shared_ptr<ProfilerState> active_state;  // null: not enabled
at::CallbackHandle callback_handle = 0;

struct ProfilerContext : at::ObserverContext {
  std::shared_ptr<ProfilerState> state;
  int64_t start_ns = 0;
};

// [marker: profiler callbacks]
std::unique_ptr<at::ObserverContext> onFunctionEnter(const at::RecordFunction& fn) {
  auto ctx = std::make_unique<ProfilerContext>();
  {
    std::lock_guard<std::mutex> lock(state_mutex);
    ctx->state = active_state;
  }
  if (!ctx->state) {
    return nullptr;  // the profiler was disabled between the callback's snapshot and now
  }
  // Last, so the bookkeeping above is not counted in the call's time.
  ctx->start_ns = now_ns();
  return ctx;
}

void onFunctionExit(const at::RecordFunction& fn, at::ObserverContext* ctx_ptr) {
  const int64_t end_ns = now_ns();
  auto* ctx = static_cast<ProfilerContext*>(ctx_ptr);
  if (ctx == nullptr) {
    return;
  }
  ProfilerState& state = *ctx->state;
  LegacyEvent ev;
  ev.name = fn.name();
  ev.start_ns = ctx->start_ns - state.start_ns;
  ev.end_ns = end_ns - state.start_ns;
  ev.thread_id = fn.threadId();
  ev.sequence_nr = fn.seqNr();
  ev.scope = fn.scope();
  ev.fwd_thread_id = fn.forwardThreadId();
  if (state.config.report_input_shapes) {
    ev.has_shapes = true;
    ev.shapes = fn.inputShapes();
  }
  std::lock_guard<std::mutex> lock(state.mutex);
  state.events.push_back(std::move(ev));
}
// [end marker: profiler callbacks]

}  // namespace

// [marker: enableProfilerLegacy]
void enableProfilerLegacy(const ProfilerConfig& config) {
  std::lock_guard<std::mutex> lock(state_mutex);
  TORCH_CHECK(!active_state, "Profiler is already enabled on this thread");
  auto state = std::make_shared<ProfilerState>();
  state->config = config;
  state->start_ns = now_ns();
  active_state = state;
  callback_handle = at::addGlobalCallback(
      at::RecordFunctionCallback(&onFunctionEnter, &onFunctionExit).needsInputs(config.report_input_shapes));
}

std::vector<LegacyEvent> disableProfilerLegacy() {
  std::shared_ptr<ProfilerState> state;
  {
    std::lock_guard<std::mutex> lock(state_mutex);
    TORCH_CHECK(active_state, "Can't disable profiler when it's not running");
    at::removeCallback(callback_handle);
    callback_handle = 0;
    state = std::move(active_state);
    active_state.reset();
  }
  std::lock_guard<std::mutex> lock(state->mutex);
  return std::move(state->events);
}
// [end marker: enableProfilerLegacy]

bool profilerEnabled() {
  std::lock_guard<std::mutex> lock(state_mutex);
  return active_state != nullptr;
}

}  // namespace torch::autograd::profiler
