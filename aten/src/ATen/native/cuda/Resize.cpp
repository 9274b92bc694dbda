// aten/src/ATen/native/cuda/Resize.cpp - resize_ on CUDA tensors: a storage too small gets new
// device memory from the caching allocator, the old bytes copied over on the current stream.
// Mirrors PyTorch's aten/src/ATen/native/cuda/Resize.cpp (resize_bytes_cuda).
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/EmptyTensor.h>
#include <ATen/NativeFunctions.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAAllocator.h>

#include <algorithm>

namespace at::native {

// [marker: resize_bytes_cuda]
void resize_bytes_cuda(c10::StorageImpl* storage, size_t size_bytes) {
  TORCH_CHECK(storage->resizable(), "Trying to resize storage that is not resizable");
  c10::DataPtr new_data;
  if (size_bytes != 0) {
    new_data = storage->allocator()->allocate(size_bytes);
  }
  c10::DataPtr old_data = storage->set_data_ptr(std::move(new_data));
  const size_t copy_bytes = std::min(size_bytes, storage->nbytes());
  storage->set_nbytes(size_bytes);
  if (old_data != nullptr && copy_bytes > 0) {
    AT_CUDA_CHECK(cudaMemcpyAsync(storage->mutable_data(), old_data.get(), copy_bytes, cudaMemcpyDeviceToDevice,
                                  at::cuda::getCurrentCUDAStream()));
  }
}
// [end marker: resize_bytes_cuda]

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
