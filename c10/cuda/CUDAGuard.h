// c10/cuda/CUDAGuard.h - RAII guards: a current device, or a current stream, for one scope.
// Mirrors PyTorch's c10/cuda/CUDAGuard.h. Guide: docs/source/internals/c10_cuda.rst.
//
// The current device is per thread in CUDA (cudaSetDevice), and most runtime calls act on
// it: cudaMalloc allocates there, cudaEventRecord requires the stream's device to be it.
// Code that works on device d therefore sets d and must put the caller's device back, even
// when it throws - a guard does that in its destructor:
//
//   { CUDAGuard g(1); cudaMalloc(...); }   // allocates on device 1, then restores
//
// PyTorch builds these on c10::impl::InlineDeviceGuard<CUDAGuardImpl> so that one guard
// class serves every backend; here they call CUDAFunctions directly.
#pragma once

#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAStream.h>

namespace c10::cuda {

// [marker: CUDAGuard]
struct CUDAGuard {
  // Make `device_index` current until the guard dies.
  explicit CUDAGuard(DeviceIndex device_index)
      : original_device_(ExchangeDevice(device_index)), current_device_(device_index) {}
  explicit CUDAGuard(Device device) : CUDAGuard(checked_index(device)) {}
  CUDAGuard(const CUDAGuard&) = delete;
  CUDAGuard& operator=(const CUDAGuard&) = delete;

  ~CUDAGuard() {
    // A destructor must not throw: a failure to restore is reported, not raised.
    if (current_device_ != original_device_) {
      C10_CUDA_CHECK_WARN(cudaSetDevice(original_device_));
    }
  }

  // Switch to another device; the destructor still restores the original one.
  void set_index(DeviceIndex device_index) {
    c10::cuda::set_device(device_index);
    current_device_ = device_index;
  }
  void set_device(Device device) { set_index(checked_index(device)); }

  Device original_device() const { return Device(DeviceType::CUDA, original_device_); }
  Device current_device() const { return Device(DeviceType::CUDA, current_device_); }

 private:
  static DeviceIndex checked_index(Device device) {
    TORCH_CHECK(device.type() == DeviceType::CUDA, "Expected a CUDA device, but got ", device);
    return device.index() < 0 ? c10::cuda::current_device() : device.index();
  }

  DeviceIndex original_device_;
  DeviceIndex current_device_;
};
// [end marker: CUDAGuard]

// [marker: CUDAStreamGuard]
// Make `stream` the current stream of its device (and that device current) for a scope.
// The current stream is per thread and per device (see CUDAStream.h): on exit the device's
// previous current stream and the previous current device come back.
struct CUDAStreamGuard {
  explicit CUDAStreamGuard(CUDAStream stream)
      : device_guard_(stream.device_index()),
        original_stream_of_current_device_(getCurrentCUDAStream(stream.device_index())),
        current_stream_(stream) {
    setCurrentCUDAStream(stream);
  }
  CUDAStreamGuard(const CUDAStreamGuard&) = delete;
  CUDAStreamGuard& operator=(const CUDAStreamGuard&) = delete;

  ~CUDAStreamGuard() { setCurrentCUDAStream(original_stream_of_current_device_); }

  // The stream that was current on the guarded device before the guard.
  CUDAStream original_stream() const { return original_stream_of_current_device_; }
  CUDAStream current_stream() const { return current_stream_; }
  Device original_device() const { return device_guard_.original_device(); }
  Device current_device() const { return device_guard_.current_device(); }

 private:
  CUDAGuard device_guard_;  // declared first: it is restored last
  CUDAStream original_stream_of_current_device_;
  CUDAStream current_stream_;
};
// [end marker: CUDAStreamGuard]

}  // namespace c10::cuda
