// c10/cuda/impl/CUDARuntime.cpp - cudaMalloc, cudaFree and cudaEvent* for the caching allocator.
// The CUDA calls PyTorch's c10/cuda/CUDACachingAllocator.cpp makes (alloc_block, release_block,
// insert_events, process_events). Guide: docs/source/internals/cuda_caching_allocator.rst.
#include <c10/cuda/impl/CUDARuntime.h>

#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>

#include <cuda_runtime_api.h>

namespace c10::cuda::CUDACachingAllocator {

namespace {
cudaEvent_t toEvent(DeviceEvent event) {
  return reinterpret_cast<cudaEvent_t>(event);
}
}  // namespace

// [marker: CUDARuntime::malloc]
bool CUDARuntime::malloc(void** ptr, size_t size) {
  CUDAGuard guard(static_cast<DeviceIndex>(device_));
  const cudaError_t err = C10_CUDA_ERROR_HANDLED(cudaMalloc(ptr, size));
  if (err == cudaErrorMemoryAllocation) {
    // Out of memory is expected: the policy frees cached blocks and retries, or raises
    // OutOfMemoryError. Clear the sticky error so that the next check does not see it.
    (void)cudaGetLastError();
    return false;
  }
  C10_CUDA_CHECK(err);
  return true;
}
// [end marker: CUDARuntime::malloc]

void CUDARuntime::free(void* ptr) {
  CUDAGuard guard(static_cast<DeviceIndex>(device_));
  C10_CUDA_CHECK(cudaFree(ptr));
}

void CUDARuntime::memGetInfo(size_t* free, size_t* total) {
  CUDAGuard guard(static_cast<DeviceIndex>(device_));
  C10_CUDA_CHECK(cudaMemGetInfo(free, total));
}

DeviceEvent CUDARuntime::createEvent() {
  CUDAGuard guard(static_cast<DeviceIndex>(device_));
  cudaEvent_t event = nullptr;
  C10_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  return reinterpret_cast<DeviceEvent>(event);
}

void CUDARuntime::destroyEvent(DeviceEvent event) {
  CUDAGuard guard(static_cast<DeviceIndex>(device_));
  C10_CUDA_CHECK(cudaEventDestroy(toEvent(event)));
}

void CUDARuntime::recordEvent(DeviceEvent event, DeviceStream stream) {
  CUDAGuard guard(static_cast<DeviceIndex>(device_));
  C10_CUDA_CHECK(cudaEventRecord(toEvent(event), reinterpret_cast<cudaStream_t>(stream)));
}

bool CUDARuntime::queryEvent(DeviceEvent event) {
  CUDAGuard guard(static_cast<DeviceIndex>(device_));
  const cudaError_t err = C10_CUDA_ERROR_HANDLED(cudaEventQuery(toEvent(event)));
  if (err == cudaErrorNotReady) {
    (void)cudaGetLastError();  // not an error: the stream has not got there yet
    return false;
  }
  C10_CUDA_CHECK(err);
  return true;
}

void CUDARuntime::synchronizeEvent(DeviceEvent event) {
  CUDAGuard guard(static_cast<DeviceIndex>(device_));
  C10_CUDA_CHECK(cudaEventSynchronize(toEvent(event)));
}

}  // namespace c10::cuda::CUDACachingAllocator
