// c10/cuda/impl/SimulatedDevice.cpp - device memory, streams and events simulated on the host.
// Guide: docs/source/internals/cuda_caching_allocator.rst.
#include <c10/cuda/impl/SimulatedDevice.h>
#include <c10/util/Exception.h>

namespace c10::cuda::CUDACachingAllocator {

SimulatedDevice::SimulatedDevice(size_t total_memory, int device)
    : total_memory_(total_memory), device_(device) {}

bool SimulatedDevice::malloc(void** ptr, size_t size) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (size > total_memory_ - used_) {
    return false;  // cudaErrorMemoryAllocation
  }
  // Each allocation gets fresh addresses, 512-byte aligned as cudaMalloc's are (at least).
  const uintptr_t address = next_address_;
  next_address_ += (size + 511) / 512 * 512;
  live_.emplace(address, size);
  used_ += size;
  num_mallocs_ += 1;
  *ptr = reinterpret_cast<void*>(address);
  return true;
}

void SimulatedDevice::free(void* ptr) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = live_.find(reinterpret_cast<uintptr_t>(ptr));
  TORCH_CHECK(it != live_.end(), "SimulatedDevice: free of an address it never allocated: ", ptr);
  used_ -= it->second;
  live_.erase(it);
  num_frees_ += 1;
}

void SimulatedDevice::memGetInfo(size_t* free, size_t* total) {
  std::lock_guard<std::mutex> lock(mutex_);
  *free = total_memory_ - used_;
  *total = total_memory_;
}

DeviceEvent SimulatedDevice::createEvent() {
  std::lock_guard<std::mutex> lock(mutex_);
  const DeviceEvent event = next_event_++;
  events_.emplace(event, EventState{});
  return event;
}

void SimulatedDevice::destroyEvent(DeviceEvent event) {
  std::lock_guard<std::mutex> lock(mutex_);
  events_.erase(event);
}

// [marker: simulated_events]
void SimulatedDevice::recordEvent(DeviceEvent event, DeviceStream stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = events_.find(event);
  TORCH_CHECK(it != events_.end(), "SimulatedDevice: unknown event ", event);
  // Recording is work on the stream: the event completes when the stream gets this far.
  it->second = EventState{stream, ++submitted_[stream], true};
}

bool SimulatedDevice::queryEvent(DeviceEvent event) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = events_.find(event);
  TORCH_CHECK(it != events_.end(), "SimulatedDevice: unknown event ", event);
  const EventState& state = it->second;
  return !state.recorded || completed_[state.stream] >= state.tick;
}

void SimulatedDevice::synchronizeEvent(DeviceEvent event) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = events_.find(event);
  TORCH_CHECK(it != events_.end(), "SimulatedDevice: unknown event ", event);
  const EventState& state = it->second;
  if (state.recorded) {
    // Waiting for an event means the stream has run at least up to it.
    uint64_t& done = completed_[state.stream];
    done = std::max(done, state.tick);
  }
}

void SimulatedDevice::synchronizeStream(DeviceStream stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  completed_[stream] = submitted_[stream];
}
// [end marker: simulated_events]

void SimulatedDevice::synchronizeDevice() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [stream, submitted] : submitted_) {
    completed_[stream] = submitted;
  }
}

size_t SimulatedDevice::used_memory() {
  std::lock_guard<std::mutex> lock(mutex_);
  return used_;
}

int64_t SimulatedDevice::num_mallocs() {
  std::lock_guard<std::mutex> lock(mutex_);
  return num_mallocs_;
}

int64_t SimulatedDevice::num_frees() {
  std::lock_guard<std::mutex> lock(mutex_);
  return num_frees_;
}

}  // namespace c10::cuda::CUDACachingAllocator
