// aten/src/ATen/native/Resize.cpp - storage resizing (UntypedStorage.resize_).
// Mirrors PyTorch's aten/src/ATen/native/Resize.cpp. Guide: docs/source/internals/memory.rst.
#include <ATen/native/Resize.h>

#include <ATen/EmptyTensor.h>
#include <ATen/NativeFunctions.h>

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

// [marker: resize_impl_cpu_]
TensorImpl* resize_impl_cpu_(TensorImpl* self, IntArrayRef size) {
  if (self->sizes().equals(size)) {
    return self;
  }
  at::detail::check_size_nonnegative(size);
  self->set_sizes_contiguous(size);
  // Bytes needed from the storage's start: the offset plus the new elements.
  const size_t needed =
      (static_cast<size_t>(self->storage_offset()) + static_cast<size_t>(self->numel())) * self->itemsize();
  if (self->numel() > 0 && needed > self->storage().nbytes()) {
    resize_bytes_cpu(self->storage().unsafeGetStorageImpl(), needed);
  }
  return self;
}
// [end marker: resize_impl_cpu_]

Tensor& resize_(Tensor& self, IntArrayRef size, std::optional<MemoryFormat> memory_format) {
  TORCH_CHECK(!memory_format.has_value() || *memory_format == MemoryFormat::Contiguous ||
                  *memory_format == MemoryFormat::Preserve,
              "resize_: only the contiguous memory format is supported by this build");
  resize_impl_cpu_(self.unsafeGetTensorImpl(), size);
  return self;
}

bool resize_output(const Tensor& output, IntArrayRef shape) {
  if (output.sizes().equals(shape)) {
    return false;
  }
  if (output.numel() != 0) {
    TORCH_WARN("An output with one or more elements was resized since it had shape ", output.sizes(),
               ", which does not match the required output shape ", shape,
               ". This behavior is deprecated, and in a future PyTorch release outputs will not be resized unless "
               "they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero "
               "elements with t.resize_(0).");
  }
  resize_impl_cpu_(output.unsafeGetTensorImpl(), shape);
  return true;
}

const Tensor& as_strided_(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                          std::optional<int64_t> storage_offset) {
  TORCH_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
  self.unsafeGetTensorImpl()->set_sizes_and_strides(size, stride, storage_offset);
  return self;
}

}  // namespace at::native
