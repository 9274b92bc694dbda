// aten/src/ATen/cuda/EmptyTensor.h - a new CUDA tensor: bytes from the CUDA caching allocator
// on the device asked for. Mirrors PyTorch's aten/src/ATen/cuda/EmptyTensor.h.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <ATen/core/TensorBase.h>
#include <c10/core/MemoryFormat.h>

#include <optional>

namespace at::detail {

TORCH_API TensorBase empty_cuda(IntArrayRef size, ScalarType dtype, std::optional<Device> device_opt,
                                std::optional<c10::MemoryFormat> memory_format_opt);
TORCH_API TensorBase empty_strided_cuda(IntArrayRef size, IntArrayRef stride, ScalarType dtype,
                                        std::optional<Device> device_opt);

}  // namespace at::detail
