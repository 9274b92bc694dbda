// aten/src/ATen/native/TensorFactories.cpp - empty, empty_strided, zeros, ones, full, empty_like, clone;
// eye, zeros_like/ones_like/full_like, rand/randn/randint and their *_like forms.
// Mirrors PyTorch's aten/src/ATen/native/TensorFactories.cpp. Guide: docs/source/internals/one_call.rst.
#include <ATen/EmptyTensor.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/detail/CUDAHooksInterface.h>

namespace at::native {
namespace {

void check_layout(std::optional<Layout> layout) {
  TORCH_CHECK(!layout.has_value() || *layout == kStrided, "Only strided tensors are supported by this build, got layout ",
              *layout);
}

}  // namespace

Tensor empty_cpu(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  check_layout(layout);
  if (pin_memory.value_or(false)) {
    // Page-locked memory from the CUDA hooks (CachingHostAllocator), else their error.
    return at::detail::empty_generic(size, at::detail::getCUDAHooks().getPinnedMemoryAllocator(),
                                     c10::DispatchKeySet(c10::DispatchKey::CPU),
                                     dtype.value_or(c10::get_default_dtype_as_scalartype()), memory_format);
  }
  return at::detail::empty_cpu(size, dtype.value_or(c10::get_default_dtype_as_scalartype()), memory_format);
}

Tensor empty_strided_cpu(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                         std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  check_layout(layout);
  if (pin_memory.value_or(false)) {
    return at::detail::empty_strided_generic(size, stride, at::detail::getCUDAHooks().getPinnedMemoryAllocator(),
                                             c10::DispatchKeySet(c10::DispatchKey::CPU),
                                             dtype.value_or(c10::get_default_dtype_as_scalartype()));
  }
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

// Composite: an empty tensor, then zero_() - each a call through the dispatcher.
Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  auto result = at::empty(size, dtype, layout, device, pin_memory, std::nullopt);
  return result.zero_();
}

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
  return at::empty(self.sizes(), dt, layout, dev, pin_memory,
                   memory_format == MemoryFormat::Preserve ? MemoryFormat::Contiguous : memory_format);
}

Tensor clone(const Tensor& src, std::optional<MemoryFormat> optional_memory_format) {
  auto self = at::empty_like(src, std::nullopt, std::nullopt, std::nullopt, std::nullopt, optional_memory_format);
  self.copy_(src);
  return self;
}

// ---- eye, the *_like factories, random factories ----
// Each is an empty tensor and one in-place operator (zero_, fill_, uniform_, normal_,
// random_), so the random ones draw from the generator exactly as the in-place forms do.

namespace {

Tensor empty_like_for(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                      std::optional<Device> device, std::optional<bool> pin_memory,
                      std::optional<MemoryFormat> memory_format) {
  return at::empty_like(self, dtype, layout, device, pin_memory, memory_format);
}

}  // namespace

Tensor eye(int64_t n, int64_t m, std::optional<ScalarType> dtype, std::optional<Layout> layout,
           std::optional<Device> device, std::optional<bool> pin_memory) {
  TORCH_CHECK(n >= 0, "n must be greater or equal to 0, got ", n);
  TORCH_CHECK(m >= 0, "m must be greater or equal to 0, got ", m);
  auto result = at::empty({n, m}, dtype, layout, device, pin_memory, std::nullopt);
  result.zero_();
  result.diagonal().fill_(1);
  return result;
}

Tensor eye(int64_t n, std::optional<ScalarType> dtype, std::optional<Layout> layout, std::optional<Device> device,
           std::optional<bool> pin_memory) {
  return at::native::eye(n, n, dtype, layout, device, pin_memory);
}

Tensor zeros_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  return empty_like_for(self, dtype, layout, device, pin_memory, memory_format).zero_();
}

Tensor ones_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  return empty_like_for(self, dtype, layout, device, pin_memory, memory_format).fill_(1);
}

Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                 std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  return empty_like_for(self, dtype, layout, device, pin_memory, memory_format).fill_(fill_value);
}

Tensor rand_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  return empty_like_for(self, dtype, layout, device, pin_memory, memory_format).uniform_(0, 1);
}

Tensor randn_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  return empty_like_for(self, dtype, layout, device, pin_memory, memory_format).normal_(0, 1);
}

Tensor randint_like(const Tensor& self, int64_t low, int64_t high, std::optional<ScalarType> dtype,
                    std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory,
                    std::optional<MemoryFormat> memory_format) {
  return empty_like_for(self, dtype, layout, device, pin_memory, memory_format).random_(low, high);
}

Tensor randint_like(const Tensor& self, int64_t high, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                    std::optional<Device> device, std::optional<bool> pin_memory,
                    std::optional<MemoryFormat> memory_format) {
  return at::native::randint_like(self, 0, high, dtype, layout, device, pin_memory, memory_format);
}

Tensor rand(IntArrayRef size, std::optional<Generator> generator, std::optional<ScalarType> dtype,
            std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  auto result = at::empty(size, dtype, layout, device, pin_memory, std::nullopt);
  return result.uniform_(0, 1, std::move(generator));
}

Tensor rand(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
            std::optional<Device> device, std::optional<bool> pin_memory) {
  return at::native::rand(size, std::nullopt, dtype, layout, device, pin_memory);
}

Tensor randn(IntArrayRef size, std::optional<Generator> generator, std::optional<ScalarType> dtype,
             std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  auto result = at::empty(size, dtype, layout, device, pin_memory, std::nullopt);
  return result.normal_(0, 1, std::move(generator));
}

Tensor randn(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  return at::native::randn(size, std::nullopt, dtype, layout, device, pin_memory);
}

Tensor randint(int64_t low, int64_t high, IntArrayRef size, std::optional<Generator> generator,
               std::optional<ScalarType> dtype, std::optional<Layout> layout, std::optional<Device> device,
               std::optional<bool> pin_memory) {
  auto result = at::empty(size, dtype.value_or(kLong), layout, device, pin_memory, std::nullopt);
  return result.random_(low, high, std::move(generator));
}

Tensor randint(int64_t low, int64_t high, IntArrayRef size, std::optional<ScalarType> dtype,
               std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  return at::native::randint(low, high, size, std::nullopt, dtype, layout, device, pin_memory);
}

Tensor randint(int64_t high, IntArrayRef size, std::optional<Generator> generator, std::optional<ScalarType> dtype,
               std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  return at::native::randint(0, high, size, std::move(generator), dtype, layout, device, pin_memory);
}

Tensor randint(int64_t high, IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
               std::optional<Device> device, std::optional<bool> pin_memory) {
  return at::native::randint(0, high, size, std::nullopt, dtype, layout, device, pin_memory);
}

}  // namespace at::native

// ---- tril_indices, triu_indices, new_empty, new_empty_strided, new_full, new_zeros, new_ones ----
namespace at::native {

namespace {
// The (row, col) coordinates of the lower (upper) triangle of a row x col matrix, diagonal
// offset included, in row-major order: a 2 x N tensor.
Tensor triangle_indices(int64_t row, int64_t col, int64_t offset, bool lower, std::optional<ScalarType> dtype) {
  TORCH_CHECK(row >= 0, "row must be non-negative, got", row);
  TORCH_CHECK(col >= 0, "col must be non-negative, got", col);
  std::vector<int64_t> rows, cols;
  for (int64_t r = 0; r < row; ++r) {
    for (int64_t c = 0; c < col; ++c) {
      if (lower ? c - r <= offset : c - r >= offset) {
        rows.push_back(r);
        cols.push_back(c);
      }
    }
  }
  const int64_t n = static_cast<int64_t>(rows.size());
  Tensor result = at::empty({2, n}, kLong, std::nullopt, kCPU, std::nullopt, std::nullopt);
  int64_t* data = result.mutable_data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    data[i] = rows[i];
    data[n + i] = cols[i];
  }
  return result.to(dtype.value_or(kLong));
}
}  // namespace

Tensor tril_indices_cpu(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                        std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  return triangle_indices(row, col, offset, /*lower=*/true, dtype);
}
Tensor triu_indices_cpu(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                        std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  return triangle_indices(row, col, offset, /*lower=*/false, dtype);
}
// Computed on the host, then moved to the requested device.
Tensor tril_indices_cuda(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                         std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  return triangle_indices(row, col, offset, /*lower=*/true, dtype).to(device.value_or(Device(kCUDA)), dtype.value_or(kLong));
}
Tensor triu_indices_cuda(int64_t row, int64_t col, int64_t offset, std::optional<ScalarType> dtype,
                         std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  return triangle_indices(row, col, offset, /*lower=*/false, dtype).to(device.value_or(Device(kCUDA)), dtype.value_or(kLong));
}

// x.new_*(size): a factory whose dtype and device default to x's (not to the global defaults).
Tensor new_empty(const Tensor& self, IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory) {
  return at::empty(size, dtype.value_or(self.scalar_type()), layout, device.value_or(self.device()), pin_memory,
                   std::nullopt);
}
Tensor new_empty_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                         std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  return at::empty_strided(size, stride, dtype.value_or(self.scalar_type()), layout, device.value_or(self.device()),
                           pin_memory);
}
Tensor new_full(const Tensor& self, IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  return at::full(size, fill_value, dtype.value_or(self.scalar_type()), layout, device.value_or(self.device()),
                  pin_memory);
}
Tensor new_zeros(const Tensor& self, IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory) {
  return at::zeros(size, dtype.value_or(self.scalar_type()), layout, device.value_or(self.device()), pin_memory);
}
Tensor new_ones(const Tensor& self, IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory) {
  return at::ones(size, dtype.value_or(self.scalar_type()), layout, device.value_or(self.device()), pin_memory);
}

}  // namespace at::native
