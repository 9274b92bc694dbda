// aten/src/ATen/native/Resize.cpp - storage resizing (UntypedStorage.resize_).
// Mirrors PyTorch's aten/src/ATen/native/Resize.cpp. Guide: docs/source/internals/memory.rst.
#include <ATen/native/Resize.h>

#include <algorithm>
#include <cstring>

namespace at::native {

// [marker: resize_bytes_cpu]
void resize_bytes_cpu(c10::StorageImpl* storage, size_t size_bytes) {
  TORCH_CHECK(storage->resizable(), "Trying to resize storage that is not resizable");

  c10::DataPtr new_data;
  if (size_bytes != 0) {
    new_data = storage->allocator()->allocate(size_bytes);
  }
  // Swap in the new memory; the old DataPtr frees the old memory when it goes out of scope.
  c10::DataPtr old_data = storage->set_data_ptr(std::move(new_data));
  const size_t old_capacity = storage->nbytes();
  storage->set_nbytes(size_bytes);
  const size_t copy_capacity = std::min(size_bytes, old_capacity);
  if (old_data != nullptr && copy_capacity > 0) {
    std::memcpy(storage->mutable_data(), old_data.get(), copy_capacity);
  }
}
// [end marker: resize_bytes_cpu]

}  // namespace at::native
