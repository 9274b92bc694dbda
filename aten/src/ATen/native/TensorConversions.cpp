// aten/src/ATen/native/TensorConversions.cpp - Tensor.to(...), _to_copy, contiguous.
// Mirrors PyTorch's aten/src/ATen/native/TensorConversions.cpp (contiguous lives in
// TensorProperties.cpp there). Guide: docs/source/internals/one_call.rst.
#include <ATen/Functions.h>
#include <ATen/EmptyTensor.h>
#include <ATen/NativeFunctions.h>

namespace at::native {

// [marker: _to_copy]
// A new tensor with the requested dtype/device, then copy_ does the conversion. Dense inputs
// keep their strides (memory_format=preserve), as in PyTorch.
Tensor _to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                std::optional<MemoryFormat> memory_format) {
  auto r = at::empty_like(self, dtype.value_or(self.scalar_type()), layout, device.value_or(self.device()), pin_memory,
                          memory_format.value_or(MemoryFormat::Preserve));
  r.copy_(self, non_blocking);
  return r;
}
// [end marker: _to_copy]

namespace {

// to() returns self itself (the same TensorImpl) when nothing would change and no copy was
// asked for: t.to(t.dtype) is t.
// Whether self already has the strides a new tensor of `format` would get (channels-last
// formats of the wrong rank raise PyTorch's "required rank 4 tensor..." here).
bool is_contiguous_as(const Tensor& self, MemoryFormat format) {
  if (format == MemoryFormat::Contiguous) {
    return self.is_contiguous();
  }
  if (format != MemoryFormat::ChannelsLast && format != MemoryFormat::ChannelsLast3d) {
    return true;
  }
  const auto expected = at::detail::channels_last_strides(self.sizes(), format);
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (self.size(d) > 1 && self.stride(d) != expected[d]) {
      return false;
    }
  }
  return true;
}

Tensor to_impl(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
               std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking, bool copy,
               std::optional<MemoryFormat> optional_memory_format) {
  const bool same_dtype = !dtype.has_value() || *dtype == self.scalar_type();
  bool same_device = true;
  if (device.has_value()) {
    same_device = device->type() == self.device().type() &&
                  (!device->has_index() || device->index() == self.device().index());
  }
  const auto memory_format = optional_memory_format.value_or(MemoryFormat::Preserve);
  const bool same_format = memory_format == MemoryFormat::Preserve || is_contiguous_as(self, memory_format);
  if (!copy && same_dtype && same_device && same_format) {
    return self;
  }
  return at::_to_copy(self, dtype, layout, device, pin_memory, non_blocking, optional_memory_format);
}

}  // namespace

// x.type_as(y): x in y's dtype (and on y's device), as TensorOptions say it.
Tensor type_as(const Tensor& self, const Tensor& other) {
  return self.to(other.options());
}

Tensor to(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
          std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking, bool copy,
          std::optional<MemoryFormat> memory_format) {
  return to_impl(self, dtype, layout, device, pin_memory, non_blocking, copy, memory_format);
}

Tensor to(const Tensor& self, Device device, ScalarType dtype, bool non_blocking, bool copy,
          std::optional<MemoryFormat> memory_format) {
  return to_impl(self, dtype, std::nullopt, device, std::nullopt, non_blocking, copy, memory_format);
}

Tensor to(const Tensor& self, ScalarType dtype, bool non_blocking, bool copy, std::optional<MemoryFormat> memory_format) {
  return to_impl(self, dtype, std::nullopt, std::nullopt, std::nullopt, non_blocking, copy, memory_format);
}

Tensor to(const Tensor& self, const Tensor& other, bool non_blocking, bool copy,
          std::optional<MemoryFormat> memory_format) {
  return to_impl(self, other.scalar_type(), std::nullopt, other.device(), std::nullopt, non_blocking, copy,
                 memory_format);
}

Tensor contiguous(const Tensor& self, MemoryFormat memory_format) {
  TORCH_CHECK(memory_format != MemoryFormat::Preserve, "preserve memory format is unsupported by the contiguous operator");
  if (is_contiguous_as(self, memory_format)) {
    return self;
  }
  return self.clone(memory_format);
}

}  // namespace at::native
