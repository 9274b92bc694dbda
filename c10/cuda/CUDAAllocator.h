// c10/cuda/CUDAAllocator.h - the CUDA caching allocator as a c10::Allocator, and the
// functions the rest of PyTorch calls it by (c10::cuda::CUDACachingAllocator::raw_alloc ...).
// Mirrors the second half of PyTorch's c10/cuda/CUDACachingAllocator.h (class CUDAAllocator,
// get(), raw_alloc, emptyCache, getDeviceStats, snapshot ...); the first half, the policy, is
// this tree's c10/cuda/CUDACachingAllocator.h. Guide: docs/source/internals/cuda_caching_allocator.rst.
//
// The pieces, bottom up:
//   DeviceCachingAllocator  one per device: blocks, pools, streams, stats (libc10)
//   CUDARuntime             cudaMalloc/cudaFree/cudaEvent* for one device (impl/CUDARuntime.h)
//   NativeCachingAllocator  the c10::Allocator registered for DeviceType::CUDA (CUDAAllocator.cpp):
//                           picks the device (current) and stream (current), keeps which
//                           device each pointer came from, and builds the DataPtr.
// A CUDA tensor's storage calls GetAllocator(kCUDA)->allocate(nbytes); the DataPtr's deleter
// (local_raw_delete) hands the pointer back when the storage dies.
#pragma once

#include <c10/core/Allocator.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAMacros.h>
#include <c10/cuda/CUDAStream.h>

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

namespace c10::cuda::CUDACachingAllocator {

// What memory._snapshot() shows: every segment of every device, and each device's history.
struct SnapshotInfo {
  std::vector<SegmentInfo> segments;
  std::vector<std::vector<TraceEntry>> device_traces;  // indexed by device
};

// The interface (PyTorch also plugs cudaMallocAsync and user allocators in behind it).
class C10_CUDA_API CUDAAllocator : public c10::Allocator {
 public:
  // Bare pointers, for libraries that want malloc/free (cuBLAS workspaces, Thrust ...).
  virtual void* raw_alloc(size_t nbytes) = 0;
  virtual void* raw_alloc_with_stream(size_t nbytes, cudaStream_t stream) = 0;
  virtual void raw_delete(void* ptr) = 0;
  // Create the per-device state for device_count devices (done lazily otherwise).
  virtual void init(int device_count) = 0;
  virtual bool initialized() = 0;
  virtual void setMemoryFraction(double fraction, DeviceIndex device) = 0;
  virtual double getMemoryFraction(DeviceIndex device) = 0;
  virtual void emptyCache() = 0;
  virtual void recordStream(const DataPtr& ptr, CUDAStream stream) = 0;
  virtual c10::CachingAllocator::DeviceStats getDeviceStats(DeviceIndex device) = 0;
  virtual void resetAccumulatedStats(DeviceIndex device) = 0;
  virtual void resetPeakStats(DeviceIndex device) = 0;
  virtual SnapshotInfo snapshot() = 0;
  virtual void recordHistory(bool enabled, size_t alloc_trace_max_entries) = 0;
  // PYTORCH_CUDA_ALLOC_CONF-style settings, for every device, now and later.
  virtual void setAllocatorSettings(const std::string& settings) = 0;
  virtual std::string getAllocatorSettings() = 0;
  virtual std::string name() = 0;
};

// The allocator behind DeviceType::CUDA (the same object GetAllocator(kCUDA) returns).
C10_CUDA_API CUDAAllocator* get();

inline void* raw_alloc(size_t nbytes) {
  return get()->raw_alloc(nbytes);
}
inline void* raw_alloc_with_stream(size_t nbytes, cudaStream_t stream) {
  return get()->raw_alloc_with_stream(nbytes, stream);
}
inline void raw_delete(void* ptr) {
  get()->raw_delete(ptr);
}
inline void init(int device_count) {
  get()->init(device_count);
}
inline void setMemoryFraction(double fraction, DeviceIndex device) {
  get()->setMemoryFraction(fraction, device);
}
inline double getMemoryFraction(DeviceIndex device) {
  return get()->getMemoryFraction(device);
}
inline void emptyCache() {
  get()->emptyCache();
}
// `ptr` (from this allocator) is used on `stream` too: once freed, its block is reused only
// after the work queued on `stream` up to the free has finished (Tensor.record_stream).
inline void recordStream(const DataPtr& ptr, CUDAStream stream) {
  get()->recordStream(ptr, stream);
}
inline c10::CachingAllocator::DeviceStats getDeviceStats(DeviceIndex device) {
  return get()->getDeviceStats(device);
}
inline void resetAccumulatedStats(DeviceIndex device) {
  get()->resetAccumulatedStats(device);
}
inline void resetPeakStats(DeviceIndex device) {
  get()->resetPeakStats(device);
}
inline SnapshotInfo snapshot() {
  return get()->snapshot();
}
inline void recordHistory(bool enabled, size_t alloc_trace_max_entries) {
  get()->recordHistory(enabled, alloc_trace_max_entries);
}
inline void setAllocatorSettings(const std::string& settings) {
  get()->setAllocatorSettings(settings);
}
inline std::string getAllocatorSettings() {
  return get()->getAllocatorSettings();
}
inline std::string name() {
  return get()->name();
}

}  // namespace c10::cuda::CUDACachingAllocator
