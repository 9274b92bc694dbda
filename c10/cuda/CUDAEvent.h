// c10/cuda/CUDAEvent.h - a CUDA event: a marker in a stream's work that others can wait for.
// Mirrors PyTorch's at::cuda::CUDAEvent (aten/src/ATen/cuda/CUDAEvent.h); this tree has no
// ATen CUDA layer yet, so it lives in c10/cuda, header-only. Guide: docs/source/internals/c10_cuda.rst.
//
// record(stream) puts the marker at the end of the work queued on the stream so far;
// query() says whether the GPU has passed it; block(other) makes future work on another
// stream wait for it (cross-stream ordering without blocking the CPU). The caching
// allocator uses the same mechanism for memory freed after use on several streams.
//
// Why lazily: cudaEventCreate needs a device and a driver. The event is created by the first
// record(), on the recording stream's device; an event never recorded is "complete".
// Events are created with cudaEventDisableTiming unless enable_timing is asked for: timing
// makes recording and waiting more expensive.
#pragma once

#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <utility>

namespace c10::cuda {

struct CUDAEvent {
  // cudaEventDisableTiming unless timing is wanted; cudaEventBlockingSync makes
  // synchronize() sleep rather than spin.
  CUDAEvent() noexcept = default;
  explicit CUDAEvent(unsigned int flags) noexcept : flags_(flags) {}

  ~CUDAEvent() {
    // A destructor must not throw, and at process exit the CUDA runtime may already be
    // shutting down (then even the guard's cudaGetDevice fails).
    try {
      if (is_created_) {
        CUDAGuard guard(device_index_);
        C10_CUDA_CHECK_WARN(cudaEventDestroy(event_));
      }
    } catch (...) { /* No throw */
    }
  }

  // Move-only: the cudaEvent_t has one owner.
  CUDAEvent(const CUDAEvent&) = delete;
  CUDAEvent& operator=(const CUDAEvent&) = delete;
  CUDAEvent(CUDAEvent&& other) noexcept { moveHelper(std::move(other)); }
  CUDAEvent& operator=(CUDAEvent&& other) noexcept {
    if (this != &other) {
      moveHelper(std::move(other));
    }
    return *this;
  }

  bool isCreated() const { return is_created_; }
  bool wasRecorded() const { return was_recorded_; }
  DeviceIndex device_index() const { return device_index_; }
  cudaEvent_t event() const { return event_; }
  unsigned int flags() const { return flags_; }

  // True if the work before the last record() has finished (or nothing was recorded).
  bool query() const {
    if (!is_created_) {
      return true;
    }
    const cudaError_t err = C10_CUDA_ERROR_HANDLED(cudaEventQuery(event_));
    if (err == cudaSuccess) {
      return true;
    } else if (err != cudaErrorNotReady) {
      C10_CUDA_CHECK(err);
    } else {
      (void)cudaGetLastError();  // "not ready" is an answer: clear it
    }
    return false;
  }

  // Record on the current stream of the current device.
  void record() { record(getCurrentCUDAStream()); }

  // Mark the end of the work queued on `stream` so far. The first record fixes the device.
  void record(const CUDAStream& stream) {
    if (!is_created_) {
      createEvent(stream.device_index());
    }
    TORCH_CHECK(device_index_ == stream.device_index(), "Event device ", static_cast<int>(device_index_),
                " does not match recording stream's device ", static_cast<int>(stream.device_index()), ".");
    CUDAGuard guard(device_index_);
    C10_CUDA_CHECK(cudaEventRecord(event_, stream));
    was_recorded_ = true;
  }

  // Future work on `stream` waits for this event (the CPU does not). Nothing recorded: no-op.
  void block(const CUDAStream& stream) {
    if (is_created_) {
      CUDAGuard guard(stream.device_index());
      C10_CUDA_CHECK(cudaStreamWaitEvent(stream, event_, 0));
    }
  }

  // Milliseconds between this event and `other`; both timed, recorded and completed.
  float elapsed_time(const CUDAEvent& other) const {
    TORCH_CHECK_VALUE(!(flags_ & cudaEventDisableTiming) && !(other.flags_ & cudaEventDisableTiming),
                      "Both events must be created with argument 'enable_timing=True'.");
    TORCH_CHECK_VALUE(is_created_ && other.isCreated(),
                      "Both events must be recorded before calculating elapsed time.");
    TORCH_CHECK(query() && other.query(), "Both events must be completed before calculating elapsed time.");
    float time_ms = 0;
    CUDAGuard guard(device_index_);
    C10_CUDA_CHECK(cudaEventElapsedTime(&time_ms, event_, other.event_));
    return time_ms;
  }

  // Block the CPU until the recorded work has finished.
  void synchronize() const {
    if (is_created_) {
      C10_CUDA_CHECK(cudaEventSynchronize(event_));
    }
  }

 private:
  void createEvent(DeviceIndex device_index) {
    device_index_ = device_index;
    CUDAGuard guard(device_index_);
    C10_CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags_));
    is_created_ = true;
  }

  void moveHelper(CUDAEvent&& other) {
    std::swap(flags_, other.flags_);
    std::swap(is_created_, other.is_created_);
    std::swap(was_recorded_, other.was_recorded_);
    std::swap(device_index_, other.device_index_);
    std::swap(event_, other.event_);
  }

  unsigned int flags_ = cudaEventDisableTiming;
  bool is_created_ = false;
  bool was_recorded_ = false;
  DeviceIndex device_index_ = -1;
  cudaEvent_t event_{};
};

}  // namespace c10::cuda
