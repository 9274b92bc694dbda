// aten/src/ATen/native/Resize.cpp - storage resizing (UntypedStorage.resize_).
// Mirrors PyTorch's aten/src/ATen/native/Resize.cpp. Guide: docs/source/internals/memory.rst.
#include <ATen/native/Resize.h>

#include <ATen/EmptyTensor.h>
#include <ATen/NativeFunctions.h>

#include <algorithm>
#include <cstring>

namespace at::native {

// [marker: resize_bytes_cpu]
std::pair<c10::DataPtr, size_t> swap_in_new_bytes(c10::StorageImpl* storage, size_t size_bytes) {
  TORCH_CHECK(storage->resizable(), "Trying to resize storage that is not resizable");

  c10::DataPtr new_data;
  if (size_bytes != 0) {
    new_data = storage->allocator()->allocate(size_bytes);
  }
  // Swap in the new memory; the old DataPtr frees the old memory when the caller drops it.
  c10::DataPtr old_data = storage->set_data_ptr(std::move(new_data));
  const size_t old_capacity = storage->nbytes();
  storage->set_nbytes(size_bytes);
  const size_t copy_capacity = old_data != nullptr ? std::min(size_bytes, old_capacity) : 0;
  return {std::move(old_data), copy_capacity};
}

void resize_bytes_cpu(c10::StorageImpl* storage, size_t size_bytes) {
  auto [old_data, copy_capacity] = swap_in_new_bytes(storage, size_bytes);
  if (copy_capacity > 0) {
    std::memcpy(storage->mutable_data(), old_data.get(), copy_capacity);
  }
}
// [end marker: resize_bytes_cpu]

// [marker: checkInBoundsForStorage]
void checkInBoundsForStorage(IntArrayRef size, IntArrayRef stride, int64_t storage_offset,
                             const caffe2::TypeMeta& data_type, const c10::Storage& new_storage) {
  const size_t storage_size_bytes =
      at::detail::computeStorageNbytes(size, stride, data_type.itemsize(), static_cast<size_t>(storage_offset));
  if (storage_size_bytes == 0) {
    return;  // no elements: any storage will do
  }
  const size_t new_storage_size_bytes = new_storage.nbytes();
  TORCH_CHECK(storage_size_bytes <= new_storage_size_bytes, "setStorage: sizes ", size, ", strides ", stride,
              ", storage offset ", storage_offset, ", and itemsize ", data_type.itemsize(),
              " requiring a storage size of ", storage_size_bytes, " are out of bounds for storage of size ",
              new_storage_size_bytes);
}
// [end marker: checkInBoundsForStorage]

// [marker: resize_impl_cpu_]
TensorImpl* resize_impl_cpu_(TensorImpl* self, IntArrayRef size) {
  if (self->sizes().equals(size)) {
    return self;
  }
  at::detail::check_size_nonnegative(size);
  // Bytes needed from the storage's start: the offset plus the new elements, checked for
  // overflow before the tensor changes.
  c10::safe_compute_numel(size);
  const size_t needed = at::detail::computeStorageNbytesContiguous(size, self->itemsize(),
                                                                   static_cast<size_t>(self->storage_offset()));
  self->set_sizes_contiguous(size);
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
  // The CPU path without a second trip through the dispatcher, as PyTorch's (a meta tensor's
  // storage has the meta allocator, so it takes the same path); another device resizes
  // through its own resize_ (resize_cuda_ allocates on the tensor's device).
  if (output.is_cpu() || output.is_meta()) {
    resize_impl_cpu_(output.unsafeGetTensorImpl(), shape);
  } else {
    output.resize_(shape);
  }
  return true;
}

const Tensor& as_strided_(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                          std::optional<int64_t> storage_offset) {
  TORCH_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
  self.unsafeGetTensorImpl()->set_sizes_and_strides(size, stride, storage_offset);
  return self;
}

void set_storage_(const Tensor& self, c10::Storage storage, int64_t storage_offset, IntArrayRef size,
                  IntArrayRef stride) {
  TORCH_CHECK(storage_offset >= 0, "Tensor: invalid storage offset ", storage_offset);
  TORCH_CHECK(stride.empty() || stride.size() == size.size(), "dimensionality of sizes (", size.size(),
              ") must match dimensionality of strides (", stride.size(), ")");
  TORCH_CHECK(storage.device() == self.device(), "Attempted to set the storage of a tensor on device \"",
              self.device(), "\" to a storage on different device \"", storage.device(),
              "\".  This is no longer allowed; the devices must match.");
  const std::vector<int64_t> strides = stride.empty() ? c10::contiguous_strides(size) : stride.vec();
  const size_t needed = at::detail::computeStorageNbytes(size, strides, self.dtype().itemsize(),
                                                         static_cast<size_t>(storage_offset));
  if (needed > storage.nbytes()) {
    if (self.is_cpu()) {
      resize_bytes_cpu(storage.unsafeGetStorageImpl(), needed);  // "Trying to resize storage that is not resizable"
    } else {
      checkInBoundsForStorage(size, strides, storage_offset, self.dtype(), storage);  // raises (setStorage)
    }
  }
  TensorImpl* impl = self.unsafeGetTensorImpl();
  impl->set_storage_keep_dtype(std::move(storage));
  impl->set_sizes_and_strides(size, strides, storage_offset);
  impl->bump_version();
}

}  // namespace at::native

namespace at::native {

// resize_as_(t): resize_ to t's sizes (Preserve takes t's memory format).
Tensor& resize_as_(Tensor& self, const Tensor& the_template, std::optional<MemoryFormat> memory_format) {
  std::optional<MemoryFormat> format = memory_format;
  if (format == MemoryFormat::Preserve) {
    format = the_template.is_contiguous() ? std::optional<MemoryFormat>(MemoryFormat::Contiguous) : std::nullopt;
  }
  return self.resize_(the_template.sizes(), format);
}

}  // namespace at::native
