// torch/csrc/autograd/profiler_legacy.h - the CPU profiler's collector: a RecordFunction callback
// that keeps one event per call. Mirrors PyTorch's torch/csrc/autograd/profiler_legacy.h.
// Guide: docs/source/internals/profiler.rst.
//
// torch.autograd.profiler.profile enables it on entry and takes the events on exit
// (torch._C._autograd._enable_profiler_legacy / _disable_profiler_legacy, init.cpp); the
// Python side (torch/autograd/profiler_util.py) rebuilds the call tree from the intervals.
#pragma once

#include <ATen/record_function.h>
#include <c10/macros/Export.h>

#include <cstdint>
#include <string>
#include <vector>

namespace torch::autograd::profiler {

// What to record besides names and times (PyTorch's torch::profiler::impl::ProfilerConfig,
// reduced to the CPU collector's options).
struct TORCH_API ProfilerConfig {
  bool report_input_shapes = false;
};

// One RecordFunction, start to end. PyTorch's legacy profiler keeps a push and a pop record
// per range; one record with both times says the same.
struct TORCH_API LegacyEvent {
  std::string name;
  int64_t start_ns = 0;  // since enableProfilerLegacy, steady clock
  int64_t end_ns = 0;
  uint64_t thread_id = 0;  // RecordFunction::currentThreadId(): 1, 2, ...
  int64_t sequence_nr = -1;
  at::RecordScope scope = at::RecordScope::FUNCTION;
  bool has_shapes = false;
  std::vector<std::vector<int64_t>> shapes;
  uint64_t fwd_thread_id = 0;
};

// Registers the collecting callback. Throws if a profiler is already enabled.
TORCH_API void enableProfilerLegacy(const ProfilerConfig& config);
// Removes the callback and hands back the events, ordered by end time. Throws if not enabled.
TORCH_API std::vector<LegacyEvent> disableProfilerLegacy();
TORCH_API bool profilerEnabled();

}  // namespace torch::autograd::profiler
