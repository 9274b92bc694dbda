// aten/src/ATen/native/cuda/TensorFactories.cu - empty / empty_strided for device="cuda": the
// operators behind every CUDA factory (zeros, ones, full, rand ... are empty + a fill).
// Mirrors PyTorch's aten/src/ATen/native/cuda/TensorFactories.cu. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/NativeFunctions.h>
#include <ATen/cuda/EmptyTensor.h>
#include <c10/core/DefaultDtype.h>

namespace at::native {

Tensor empty_cuda(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  TORCH_CHECK(!layout.has_value() || *layout == Layout::Strided, "only strided CUDA tensors are supported");
  TORCH_CHECK(!pin_memory.value_or(false), "Only dense CPU tensors can be pinned");
  return at::detail::empty_cuda(size, dtype.value_or(c10::get_default_dtype_as_scalartype()), device,
                                memory_format);
}

Tensor empty_strided_cuda(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                          std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  TORCH_CHECK(!layout.has_value() || *layout == Layout::Strided, "only strided CUDA tensors are supported");
  TORCH_CHECK(!pin_memory.value_or(false), "Only dense CPU tensors can be pinned");
  return at::detail::empty_strided_cuda(size, stride, dtype.value_or(c10::get_default_dtype_as_scalartype()),
                                        device);
}

}  // namespace at::native
