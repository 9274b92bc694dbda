// aten/src/ATen/native/Memory.cpp - Tensor.pin_memory() and Tensor.is_pinned(): CPU tensors in
// page-locked memory, which a CUDA device can copy from without the host waiting. Mirrors
// PyTorch's aten/src/ATen/native/Memory.cpp. Guide: docs/source/internals/cuda_simulated_device.rst.
//
// The pinned memory comes from the CUDA hooks (libtorch_cuda.so's CachingHostAllocator); a
// pinned tensor is an ordinary CPU tensor whose storage has that allocator's DataPtr.
#include <ATen/EmptyTensor.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/detail/CUDAHooksInterface.h>

namespace at::native {

bool is_pinned(const Tensor& self, std::optional<Device> device) {
  TORCH_CHECK(!device.has_value() || device->is_cuda(), "is_pinned: only CUDA pinned memory is supported, got ",
              device->str());
  // Only CPU tensors can be pinned; asking never starts CUDA.
  if (!self.is_cpu() || !self.storage().data()) {
    return false;
  }
  return at::detail::getCUDAHooks().isPinnedPtr(self.storage().data());
}

Tensor pin_memory(const Tensor& self, std::optional<Device> device) {
  if (self.is_pinned(device)) {
    return self;
  }
  return at::_pin_memory(self, device);
}

// A pinned copy with self's sizes and strides.
Tensor _pin_memory(const Tensor& self, std::optional<Device> device) {
  // Named as Python names the tensor type ('torch.cuda.FloatTensor'), as PyTorch's message does.
  TORCH_CHECK(self.device().is_cpu(), "cannot pin 'torch.", c10::DeviceTypeName(self.device().type(), /*lower_case=*/true),
              ".", c10::toString(self.scalar_type()), "Tensor' only dense CPU tensors can be pinned");
  c10::Allocator* allocator = at::detail::getCUDAHooks().getPinnedMemoryAllocator();
  Tensor tensor(at::detail::empty_strided_generic(self.sizes(), self.strides(), allocator,
                                                   c10::DispatchKeySet(c10::DispatchKey::CPU), self.scalar_type()));
  tensor.copy_(self);
  return tensor;
}

}  // namespace at::native
