// aten/src/ATen/native/TensorFactories.cpp - empty, empty_strided, zeros, ones, full, empty_like, clone.
// Mirrors PyTorch's aten/src/ATen/native/TensorFactories.cpp. Guide: docs/source/internals/one_call.rst.
#include <ATen/EmptyTensor.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>

namespace at::native {
namespace {

void check_layout(std::optional<Layout> layout) {
  TORCH_CHECK(!layout.has_value() || *layout == kStrided, "Only strided tensors are supported by this build, got layout ",
              *layout);
}

}  // namespace

// [marker: empty_cpu]
Tensor empty_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  check_layout(layout);
  return at::detail::empty_cpu(size, dtype.value_or(c10::get_default_dtype_as_scalartype()), memory_format);
}
// [end marker: empty_cpu]

Tensor empty_strided_cpu(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                         std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  check_layout(layout);
  return at::detail::empty_strided_cpu(size, stride, dtype.value_or(c10::get_default_dtype_as_scalartype()));
}

Tensor empty_meta(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  check_layout(layout);
  return at::detail::empty_meta(size, dtype.value_or(c10::get_default_dtype_as_scalartype()), memory_format);
}

Tensor empty_strided_meta(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                          std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  check_layout(layout);
  return at::detail::empty_strided_meta(size, stride, dtype.value_or(c10::get_default_dtype_as_scalartype()));
}

// [marker: zeros]
// Composite: an empty tensor, then zero_() - each a call through the dispatcher.
Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  auto result = at::empty(size, dtype, layout, device, pin_memory, std::nullopt);
  return result.zero_();
}
// [end marker: zeros]

Tensor ones(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
            std::optional<Device> device, std::optional<bool> pin_memory) {
  auto result = at::empty(size, dtype, layout, device, pin_memory, std::nullopt);
  return result.fill_(1);
}

// torch.full infers the dtype from the fill value when none is given: bool -> bool,
// int -> int64, complex -> the default complex dtype, float -> the default dtype.
Tensor full(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype, std::optional<Layout> layout,
            std::optional<Device> device, std::optional<bool> pin_memory) {
  if (!dtype.has_value()) {
    if (fill_value.isBoolean()) {
      dtype = kBool;
    } else if (fill_value.isIntegral(/*includeBool=*/false)) {
      dtype = kLong;
    } else if (fill_value.isComplex()) {
      dtype = c10::get_default_complex_dtype().toScalarType();
    } else {
      dtype = c10::get_default_dtype_as_scalartype();
    }
  }
  auto result = at::empty(size, dtype, layout, device, pin_memory, std::nullopt);
  return result.fill_(fill_value);
}

// [marker: empty_like]
// Same shape as self; dtype/device as given or self's. With memory_format=preserve (the
// default) a dense self's strides are kept, so the result of an elementwise op on a
// transposed tensor is transposed too; anything else gets contiguous strides.
Tensor empty_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory,
                  std::optional<MemoryFormat> optional_memory_format) {
  const auto memory_format = optional_memory_format.value_or(MemoryFormat::Preserve);
  const ScalarType dt = dtype.value_or(self.scalar_type());
  const Device dev = device.value_or(self.device());
  if (memory_format == MemoryFormat::Preserve && self.is_non_overlapping_and_dense()) {
    return at::empty_strided(self.sizes(), self.strides(), dt, layout, dev, pin_memory);
  }
  return at::empty(self.sizes(), dt, layout, dev, pin_memory, MemoryFormat::Contiguous);
}
// [end marker: empty_like]

// [marker: clone]
Tensor clone(const Tensor& src, std::optional<MemoryFormat> optional_memory_format) {
  auto self = at::empty_like(src, std::nullopt, std::nullopt, std::nullopt, std::nullopt, optional_memory_format);
  self.copy_(src);
  return self;
}
// [end marker: clone]

}  // namespace at::native
