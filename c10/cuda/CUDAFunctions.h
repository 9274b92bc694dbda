// c10/cuda/CUDAFunctions.h - how many GPUs, which one is current, wait for one.
// Mirrors PyTorch's c10/cuda/CUDAFunctions.h. Guide: docs/source/internals/c10_cuda.rst.
//
// These wrap cudaGetDeviceCount, cudaGetDevice, cudaSetDevice and cudaDeviceSynchronize
// with PyTorch's rules:
//  - device_count() never throws: a machine without a driver or without a GPU has 0
//    devices (torch.cuda.is_available() is then False), and the reason is printed once as
//    "CUDA initialization: ...". It asks the runtime once per process.
//  - device_count_ensure_non_zero() is what initialising CUDA calls: it raises the reason
//    ("Found no NVIDIA driver on your system ...", "No CUDA GPUs are available").
//  - Nothing here runs at load time: import torch must work on a machine without a GPU.
#pragma once

#include <c10/core/Device.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAMacros.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace c10::cuda {

// [marker: device_count]
// The number of visible GPUs, 0 on any error (computed once).
C10_CUDA_API DeviceIndex device_count() noexcept;
// The number of visible GPUs; throws c10::Error if there is none or the driver is missing.
C10_CUDA_API DeviceIndex device_count_ensure_non_zero();
// [end marker: device_count]

// The calling thread's current device (cudaGetDevice).
C10_CUDA_API DeviceIndex current_device();
// Make `device` current for the calling thread (a no-op if it already is).
C10_CUDA_API void set_device(DeviceIndex device);
// Wait until every stream of the current device has finished its work.
C10_CUDA_API void device_synchronize();
// Wait until the work queued on `stream` has finished (cudaStreamSynchronize).
C10_CUDA_API void stream_synchronize(cudaStream_t stream);
// (free, total) bytes of `device` (cudaMemGetInfo, with the device made current meanwhile).
C10_CUDA_API std::pair<size_t, size_t> memGetInfo(DeviceIndex device);

// Copy `nbytes` in the order of `stream`'s work and wait until it is done: a blocking copy
// that still sees what was queued on `stream` before it (plain cudaMemcpy would go through
// the legacy default stream instead). Legacy THC copied storages to and from the GPU so.
inline void memcpy_and_sync(void* dst, const void* src, int64_t nbytes, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  C10_CUDA_CHECK(cudaMemcpyAsync(dst, src, static_cast<size_t>(nbytes), kind, stream));
  C10_CUDA_CHECK(cudaStreamSynchronize(stream));
}

// The error-code forms, for callers that handle errors themselves.
C10_CUDA_API cudaError_t GetDeviceCount(int* dev_count);
C10_CUDA_API cudaError_t GetDevice(DeviceIndex* device);
// Checks "device id must be positive!"; skips cudaSetDevice if `device` is already current.
C10_CUDA_API cudaError_t SetDevice(DeviceIndex device);
// Make `device` current and return the previous one (CUDAGuard's building block).
C10_CUDA_API DeviceIndex ExchangeDevice(DeviceIndex device);
// The same; -1 as `device` leaves everything as it is and returns -1.
C10_CUDA_API DeviceIndex MaybeExchangeDevice(DeviceIndex device);

}  // namespace c10::cuda
