// aten/src/ATen/native/Resize.h - growing or shrinking a storage's bytes.
// Mirrors PyTorch's aten/src/ATen/native/Resize.h. Guide: docs/source/internals/memory.rst.
#pragma once

#include <c10/core/StorageImpl.h>

namespace at::native {

// Reallocate `storage` to size_bytes through its own allocator, keeping the first
// min(old, new) bytes. Fails for storages that are not resizable (external memory).
TORCH_API void resize_bytes_cpu(c10::StorageImpl* storage, size_t size_bytes);

}  // namespace at::native
