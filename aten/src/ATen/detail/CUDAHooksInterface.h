// aten/src/ATen/detail/CUDAHooksInterface.h - what libtorch_cpu (and torch._C) may ask of the
// CUDA half of ATen without linking it: libtorch_cuda.so installs its CUDAHooks when it is
// loaded; until then every call raises why CUDA cannot serve it. Mirrors PyTorch's
// aten/src/ATen/detail/CUDAHooksInterface.h. Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <ATen/core/Generator.h>
#include <c10/core/Device.h>
#include <c10/macros/Export.h>

namespace at {

// [marker: CUDAHooksInterface]
struct TORCH_API CUDAHooksInterface {
  virtual ~CUDAHooksInterface() = default;
  // Whether libtorch_cuda.so (CUDA kernels and generators) is loaded.
  virtual bool hasCUDA() const { return false; }
  // The default random generator of a CUDA device (-1: the current one).
  virtual const Generator& getDefaultCUDAGenerator(c10::DeviceIndex device_index = -1) const;
  // Create a new generator on a CUDA device (torch.Generator(device="cuda")).
  virtual Generator createCUDAGenerator(c10::DeviceIndex device_index) const;
};

namespace detail {
TORCH_API const CUDAHooksInterface& getCUDAHooks();
// Called once by libtorch_cuda.so's static initializer.
TORCH_API void setCUDAHooks(CUDAHooksInterface* hooks);
}  // namespace detail
// [end marker: CUDAHooksInterface]

}  // namespace at
