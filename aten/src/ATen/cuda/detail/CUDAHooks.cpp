// aten/src/ATen/cuda/detail/CUDAHooks.cpp - libtorch_cuda.so's answers to the CUDA hooks,
// installed when the library is loaded. Mirrors PyTorch's aten/src/ATen/cuda/detail/CUDAHooks.cpp.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/cuda/CUDAGeneratorImpl.h>
#include <ATen/cuda/CachingHostAllocator.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <c10/cuda/CUDAFunctions.h>

namespace at::cuda::detail {
namespace {

struct CUDAHooks final : public at::CUDAHooksInterface {
  bool hasCUDA() const override { return true; }
  const Generator& getDefaultCUDAGenerator(c10::DeviceIndex device_index) const override {
    return at::cuda::detail::getDefaultCUDAGenerator(device_index);
  }
  Generator createCUDAGenerator(c10::DeviceIndex device_index) const override {
    const c10::DeviceIndex index = device_index == -1 ? c10::cuda::current_device() : device_index;
    return Generator(c10::make_intrusive<at::CUDAGeneratorImpl>(index));
  }
  bool isPinnedPtr(const void* data) const override { return at::cuda::CachingHostAllocator_isPinned(data); }
  c10::Allocator* getPinnedMemoryAllocator() const override { return at::cuda::getCachingHostAllocator(); }
  int getNumGPUs() const override { return c10::cuda::device_count(); }
  void setCurrentDevice(c10::DeviceIndex device) const override { c10::cuda::set_device(device); }
};

CUDAHooks cuda_hooks;
const bool registered [[maybe_unused]] = (at::detail::setCUDAHooks(&cuda_hooks), true);

}  // namespace
}  // namespace at::cuda::detail
