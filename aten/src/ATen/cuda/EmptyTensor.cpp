// aten/src/ATen/cuda/EmptyTensor.cpp - empty_cuda: empty_generic with the CUDA caching allocator,
// on the device of the options (or the current one). Mirrors PyTorch's aten/src/ATen/cuda/EmptyTensor.cpp.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/cuda/EmptyTensor.h>

#include <ATen/EmptyTensor.h>
#include <c10/cuda/CUDAAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/core/DispatchKeySet.h>

namespace at::detail {

namespace {
// "cuda" without an index means the current device; the allocator serves the current device,
// so a guard makes the one asked for current while the bytes are taken.
c10::DeviceIndex device_index_of(std::optional<Device> device_opt) {
  const Device device = device_opt.value_or(Device(DeviceType::CUDA));
  TORCH_INTERNAL_ASSERT(device.is_cuda());
  return device.has_index() ? device.index() : c10::cuda::current_device();
}
}  // namespace

// [marker: empty_cuda]
TensorBase empty_cuda(IntArrayRef size, ScalarType dtype, std::optional<Device> device_opt,
                      std::optional<c10::MemoryFormat> memory_format_opt) {
  c10::cuda::CUDAGuard guard(device_index_of(device_opt));
  return empty_generic(size, c10::cuda::CUDACachingAllocator::get(), c10::DispatchKeySet(c10::DispatchKey::CUDA), dtype,
                       memory_format_opt);
}
// [end marker: empty_cuda]

TensorBase empty_strided_cuda(IntArrayRef size, IntArrayRef stride, ScalarType dtype,
                              std::optional<Device> device_opt) {
  c10::cuda::CUDAGuard guard(device_index_of(device_opt));
  return empty_strided_generic(size, stride, c10::cuda::CUDACachingAllocator::get(),
                               c10::DispatchKeySet(c10::DispatchKey::CUDA), dtype);
}

}  // namespace at::detail
