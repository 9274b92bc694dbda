// aten/src/ATen/detail/CUDAHooksInterface.h - what libtorch_cpu (and torch._C) may ask of the
// CUDA half of ATen without linking it: libtorch_cuda.so installs its CUDAHooks when it is
// loaded; until then every call raises why CUDA cannot serve it. Mirrors PyTorch's
// aten/src/ATen/detail/CUDAHooksInterface.h. Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <ATen/core/Generator.h>
#include <c10/core/Allocator.h>
#include <c10/core/Device.h>
#include <c10/macros/Export.h>

namespace at {

struct TORCH_API CUDAHooksInterface {
  virtual ~CUDAHooksInterface() = default;
  // Whether libtorch_cuda.so (CUDA kernels and generators) is loaded.
  virtual bool hasCUDA() const { return false; }
  // The default random generator of a CUDA device (-1: the current one).
  virtual const Generator& getDefaultCUDAGenerator(c10::DeviceIndex device_index = -1) const;
  // Create a new generator on a CUDA device (torch.Generator(device="cuda")).
  virtual Generator createCUDAGenerator(c10::DeviceIndex device_index) const;
  // Whether `data` lies in pinned host memory (Tensor.is_pinned()); never starts CUDA.
  virtual bool isPinnedPtr(const void* /*data*/) const { return false; }
  // The allocator of pinned host memory (Tensor.pin_memory(), empty(..., pin_memory=True)).
  virtual c10::Allocator* getPinnedMemoryAllocator() const;
  // How many CUDA devices there are (0 without the library or a device); never starts CUDA.
  virtual int getNumGPUs() const { return 0; }
  // Make `device` the calling thread's current device (the autograd engine's device workers).
  virtual void setCurrentDevice(c10::DeviceIndex /*device*/) const {}
};

namespace detail {
TORCH_API const CUDAHooksInterface& getCUDAHooks();
// Called once by libtorch_cuda.so's static initializer.
TORCH_API void setCUDAHooks(CUDAHooksInterface* hooks);
}  // namespace detail

}  // namespace at
