// c10/cuda/impl/DeviceRuntime.h - what the caching allocator needs from a device runtime.
// This tree's seam (PyTorch calls the CUDA runtime directly); the policy in
// c10/cuda/CUDACachingAllocator.cpp is written against this interface only.
// Guide: docs/source/internals/cuda_caching_allocator.rst.
//
// Two runtimes implement it: the CUDA runtime (c10/cuda/impl/CUDARuntime.cpp: cudaMalloc,
// cudaFree, cudaEvent*), and a simulated device (c10/cuda/impl/SimulatedDevice.cpp: host-side
// bookkeeping with a capacity you choose), so every rule of the allocator can be watched and
// tested on a machine without a GPU. Nothing in the policy knows which one it talks to.
#pragma once

#include <cstddef>
#include <cstdint>

namespace c10::cuda::CUDACachingAllocator {

// A stream as the runtime names it: a cudaStream_t as an integer (0 is the default stream),
// or the simulated device's stream number.
using DeviceStream = uintptr_t;
// An event handle: a cudaEvent_t as an integer, or a simulated event id.
using DeviceEvent = uintptr_t;

// [marker: DeviceRuntime]
class DeviceRuntime {
 public:
  virtual ~DeviceRuntime() = default;

  // The device index this runtime allocates on.
  virtual int device() const = 0;
  // Allocate size bytes of device memory. Returns false if the device is out of memory
  // (the allocator then frees cached blocks and retries); any other failure throws.
  virtual bool malloc(void** ptr, size_t size) = 0;
  virtual void free(void* ptr) = 0;
  // Free and total bytes of the device (cudaMemGetInfo).
  virtual void memGetInfo(size_t* free, size_t* total) = 0;

  // Events mark a point in a stream's work. The allocator records one on every stream
  // that used a freed block, and reuses the block only once all of them have completed.
  virtual DeviceEvent createEvent() = 0;
  virtual void destroyEvent(DeviceEvent event) = 0;
  virtual void recordEvent(DeviceEvent event, DeviceStream stream) = 0;
  // True if the work before the event has finished (cudaEventQuery == cudaSuccess).
  virtual bool queryEvent(DeviceEvent event) = 0;
  // Wait until it has (cudaEventSynchronize).
  virtual void synchronizeEvent(DeviceEvent event) = 0;
};
// [end marker: DeviceRuntime]

}  // namespace c10::cuda::CUDACachingAllocator
