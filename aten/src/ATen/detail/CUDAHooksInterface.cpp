// aten/src/ATen/detail/CUDAHooksInterface.cpp - the CUDA hooks until libtorch_cuda.so replaces
// them. Mirrors PyTorch's aten/src/ATen/detail/CUDAHooksInterface.cpp.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/detail/CUDAHooksInterface.h>

#include <atomic>

namespace at {

const Generator& CUDAHooksInterface::getDefaultCUDAGenerator(c10::DeviceIndex) const {
  TORCH_CHECK(false, "Cannot get default CUDA generator without ATen_cuda library. ", "PyTorch splits its backend into two shared libraries: a CPU library "
              "and a CUDA library; this error has occurred because you are trying to use some CUDA functionality, "
              "but the CUDA library has not been loaded by the dynamic linker for some reason.");
}

Generator CUDAHooksInterface::createCUDAGenerator(c10::DeviceIndex) const {
  TORCH_CHECK(false, "Cannot create a CUDA generator without ATen_cuda library.");
}

c10::Allocator* CUDAHooksInterface::getPinnedMemoryAllocator() const {
  TORCH_CHECK(false, "pin_memory=True requires a CUDA or other accelerator backend; no pinned memory allocator is "
              "available on this system.");
}

namespace detail {
namespace {
CUDAHooksInterface default_hooks;
std::atomic<CUDAHooksInterface*> hooks{&default_hooks};
}  // namespace

const CUDAHooksInterface& getCUDAHooks() {
  return *hooks.load();
}

void setCUDAHooks(CUDAHooksInterface* h) {
  hooks.store(h);
}
}  // namespace detail

}  // namespace at
