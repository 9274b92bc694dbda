// aten/src/ATen/EmptyTensor.h - making a tensor with uninitialized memory: a StorageImpl from
// the device's allocator, and a TensorImpl viewing it with contiguous (or given) strides.
// Mirrors PyTorch's aten/src/ATen/EmptyTensor.h. Guide: docs/source/internals/one_call.rst.
#pragma once

#include <ATen/core/TensorBase.h>
#include <c10/core/MemoryFormat.h>

#include <optional>
#include <vector>

namespace at::detail {

// "Trying to create tensor with negative dimension -1: [-1]"
TORCH_API void check_size_nonnegative(IntArrayRef size);
// Bytes needed by a tensor of these sizes/strides (0 if any size is 0); overflow is an error.
// The strides of `format` (ChannelsLast or ChannelsLast3d) for `size`, checking the rank
// with PyTorch's "required rank 4 tensor to use channels_last format".
TORCH_API std::vector<int64_t> channels_last_strides(IntArrayRef size, c10::MemoryFormat format);
TORCH_API size_t computeStorageNbytesContiguous(IntArrayRef sizes, size_t itemsize, size_t storage_offset = 0);
TORCH_API size_t computeStorageNbytes(IntArrayRef sizes, IntArrayRef strides, size_t itemsize,
                                       size_t storage_offset = 0);

TORCH_API TensorBase empty_generic(IntArrayRef size, c10::Allocator* allocator, c10::DispatchKeySet ks,
                                   ScalarType scalar_type, std::optional<c10::MemoryFormat> memory_format);
TORCH_API TensorBase empty_strided_generic(IntArrayRef size, IntArrayRef stride, c10::Allocator* allocator,
                                           c10::DispatchKeySet ks, ScalarType scalar_type);

TORCH_API TensorBase empty_cpu(IntArrayRef size, ScalarType dtype,
                               std::optional<c10::MemoryFormat> memory_format = std::nullopt);
TORCH_API TensorBase empty_strided_cpu(IntArrayRef size, IntArrayRef stride, ScalarType dtype);
TORCH_API TensorBase empty_meta(IntArrayRef size, ScalarType dtype,
                                std::optional<c10::MemoryFormat> memory_format = std::nullopt);
TORCH_API TensorBase empty_strided_meta(IntArrayRef size, IntArrayRef stride, ScalarType dtype);

}  // namespace at::detail
