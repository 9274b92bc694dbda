// aten/src/ATen/native/cuda/Resize.cpp - resize_ on CUDA tensors: a storage too small gets new
// device memory from the caching allocator, the old bytes copied over on the current stream.
// Mirrors PyTorch's aten/src/ATen/native/cuda/Resize.cpp (resize_bytes_cuda).
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/EmptyTensor.h>
#include <ATen/NativeFunctions.h>
#include <ATen/native/Resize.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAAllocator.h>

namespace at::native {

void resize_bytes_cuda(c10::StorageImpl* storage, size_t size_bytes) {
  auto [old_data, copy_capacity] = swap_in_new_bytes(storage, size_bytes);
  if (copy_capacity > 0) {
    // On the current stream: the old block goes back to the caching allocator when old_data
    // is dropped, and is reused only by work ordered after this copy on that stream.
    AT_CUDA_CHECK(cudaMemcpyAsync(storage->mutable_data(), old_data.get(), copy_capacity, cudaMemcpyDeviceToDevice,
                                  at::cuda::getCurrentCUDAStream()));
  }
}

Tensor& resize_cuda_(Tensor& self, IntArrayRef size, std::optional<MemoryFormat> memory_format) {
  TORCH_CHECK(!memory_format.has_value() || *memory_format == MemoryFormat::Contiguous ||
                  *memory_format == MemoryFormat::Preserve,
              "resize_: only the contiguous memory format is supported by this build");
  c10::cuda::CUDAGuard guard(self.device());
  TensorImpl* impl = self.unsafeGetTensorImpl();
  const size_t needed = at::detail::computeStorageNbytesContiguous(size, self.dtype().itemsize(),
                                                                   static_cast<size_t>(self.storage_offset()));
  if (needed > self.storage().nbytes()) {
    resize_bytes_cuda(self.storage().unsafeGetStorageImpl(), needed);
  }
  impl->set_sizes_contiguous(size);
  return self;
}

}  // namespace at::native
