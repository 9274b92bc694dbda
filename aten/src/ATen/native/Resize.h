// aten/src/ATen/native/Resize.h - growing or shrinking a storage's bytes.
// Mirrors PyTorch's aten/src/ATen/native/Resize.h. Guide: docs/source/internals/memory.rst.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/StorageImpl.h>

#include <utility>

namespace at::native {

// The part of resize_bytes_cpu and resize_bytes_cuda (aten/src/ATen/native/cuda/Resize.cpp)
// that is the same on every device: checks that the storage is resizable, gives it
// size_bytes of new memory from its allocator, and returns the old memory with the number
// of its bytes the new memory must keep. Each device copies them its own way.
TORCH_API std::pair<c10::DataPtr, size_t> swap_in_new_bytes(c10::StorageImpl* storage, size_t size_bytes);
// Reallocate `storage` to size_bytes through its own allocator, keeping the first
// min(old, new) bytes. Fails for storages that are not resizable (external memory).
TORCH_API void resize_bytes_cpu(c10::StorageImpl* storage, size_t size_bytes);

// Give a tensor new sizes with contiguous strides, growing its storage if it is too small
// (never shrinking it). The body of Tensor.resize_ (resize_impl_cpu_ in PyTorch).
TORCH_API TensorImpl* resize_impl_cpu_(TensorImpl* self, IntArrayRef size);

// Resize an out= tensor to the shape an operator computed. Returns true if the shape
// changed. PyTorch also warns here when a non-empty tensor is resized (deprecated); this
// tree has no warning channel yet, so it resizes silently.
TORCH_API bool resize_output(const Tensor& output, IntArrayRef shape);

// [marker: checkInBoundsForStorage]
// A view (sizes, strides, offset) of `new_storage` must end inside it; PyTorch's setStorage
// message otherwise. Every path that puts a tensor over an existing storage (as_strided,
// the legacy storage constructors, torch.load) checks this first.
TORCH_API void checkInBoundsForStorage(IntArrayRef size, IntArrayRef stride, int64_t storage_offset,
                                       const caffe2::TypeMeta& data_type, const c10::Storage& new_storage);
// [end marker: checkInBoundsForStorage]

// Tensor.set_(storage, offset, size, stride): self becomes that view of `storage` (an empty
// stride means contiguous). A CPU storage too small for the view grows to fit, as in PyTorch
// (the new bytes are uninitialized), if it is resizable; otherwise, and on other devices, it is
// refused. Devices must match; the offset must be >= 0.
TORCH_API void set_storage_(const Tensor& self, c10::Storage storage, int64_t storage_offset, IntArrayRef size,
                            IntArrayRef stride);

// Set sizes, strides (and offset) of a tensor in place, over its existing storage.
// The storage must already be large enough (TensorIterator uses it on a freshly resized output).
TORCH_API const Tensor& as_strided_(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                                    std::optional<int64_t> storage_offset = std::nullopt);

}  // namespace at::native
