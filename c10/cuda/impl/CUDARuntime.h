// c10/cuda/impl/CUDARuntime.h - the CUDA runtime behind the caching allocator's policy.
// This tree's seam (PyTorch's DeviceCachingAllocator calls these CUDA functions inline);
// see c10/cuda/impl/DeviceRuntime.h. Guide: docs/source/internals/cuda_caching_allocator.rst.
//
// One CUDARuntime per device. Every call first makes its device current (CUDAGuard):
// cudaMalloc allocates on the current device, and an event must be recorded with its
// stream's device current - the thread calling free() may have any device current.
#pragma once

#include <c10/cuda/CUDAMacros.h>
#include <c10/cuda/impl/DeviceRuntime.h>

namespace c10::cuda::CUDACachingAllocator {

class C10_CUDA_API CUDARuntime final : public DeviceRuntime {
 public:
  explicit CUDARuntime(int device) : device_(device) {}

  int device() const override { return device_; }
  // cudaMalloc; cudaErrorMemoryAllocation -> false (the error cleared), others throw.
  bool malloc(void** ptr, size_t size) override;
  void free(void* ptr) override;
  void memGetInfo(size_t* free, size_t* total) override;

  // cudaEventCreateWithFlags(cudaEventDisableTiming): the allocator only asks "done yet?".
  DeviceEvent createEvent() override;
  void destroyEvent(DeviceEvent event) override;
  void recordEvent(DeviceEvent event, DeviceStream stream) override;
  // cudaEventQuery: cudaErrorNotReady -> false (the error cleared).
  bool queryEvent(DeviceEvent event) override;
  void synchronizeEvent(DeviceEvent event) override;

 private:
  const int device_;
};

}  // namespace c10::cuda::CUDACachingAllocator
