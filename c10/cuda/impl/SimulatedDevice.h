// c10/cuda/impl/SimulatedDevice.h - a pretend GPU for the caching allocator: host-side
// bookkeeping of device memory with a capacity you choose, plus streams and events.
// This tree's learning and testing aid (PyTorch has no such device).
// Guide: docs/source/internals/cuda_caching_allocator.rst.
//
// Memory: malloc hands out addresses from a private address range (no host memory is
// touched) and fails with "out of memory" past the capacity, as cudaMalloc does.
// Streams are small integers; each keeps a count of the work submitted to it. An event
// recorded on a stream completes when that stream is synchronized, so a test decides
// exactly when cross-stream frees become reusable.
#pragma once

#include <c10/cuda/impl/DeviceRuntime.h>
#include <c10/macros/Macros.h>

#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace c10::cuda::CUDACachingAllocator {

// [marker: SimulatedDevice]
class C10_API SimulatedDevice final : public DeviceRuntime {
 public:
  // Addresses start here, so they look like device pointers and never collide with 0.
  static constexpr uintptr_t kBaseAddress = 0x7f0000000000ULL;

  explicit SimulatedDevice(size_t total_memory, int device = 0);
  ~SimulatedDevice() override = default;

  int device() const override { return device_; }
  bool malloc(void** ptr, size_t size) override;
  void free(void* ptr) override;
  void memGetInfo(size_t* free, size_t* total) override;

  DeviceEvent createEvent() override;
  void destroyEvent(DeviceEvent event) override;
  void recordEvent(DeviceEvent event, DeviceStream stream) override;
  bool queryEvent(DeviceEvent event) override;
  void synchronizeEvent(DeviceEvent event) override;

  // All work submitted to `stream` so far is done: its events complete.
  void synchronizeStream(DeviceStream stream);
  // Every stream is synchronized (cudaDeviceSynchronize).
  void synchronizeDevice();

  size_t total_memory() const { return total_memory_; }
  size_t used_memory();
  int64_t num_mallocs();
  int64_t num_frees();

 private:
  struct EventState {
    DeviceStream stream = 0;
    uint64_t tick = 0;      // the stream's work count when recorded
    bool recorded = false;  // an event never recorded counts as complete (as in CUDA)
  };

  const size_t total_memory_;
  const int device_;
  std::mutex mutex_;
  size_t used_ = 0;
  uintptr_t next_address_ = kBaseAddress;
  std::unordered_map<uintptr_t, size_t> live_;  // address -> size of device allocations
  std::unordered_map<DeviceStream, uint64_t> submitted_;  // work submitted per stream
  std::unordered_map<DeviceStream, uint64_t> completed_;  // work completed per stream
  std::unordered_map<DeviceEvent, EventState> events_;
  DeviceEvent next_event_ = 1;
  int64_t num_mallocs_ = 0;
  int64_t num_frees_ = 0;
};
// [end marker: SimulatedDevice]

}  // namespace c10::cuda::CUDACachingAllocator
