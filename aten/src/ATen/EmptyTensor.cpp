// aten/src/ATen/EmptyTensor.cpp - new tensors with uninitialized memory, and the meta allocator.
// Mirrors PyTorch's aten/src/ATen/EmptyTensor.cpp. Guide: docs/source/internals/memory.rst.
#include <ATen/EmptyTensor.h>
#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>
#include <c10/util/safe_numerics.h>

#include <limits>

namespace at {
namespace {

// [marker: MetaAllocator]
// The meta device has shapes but no data: its allocator hands out null pointers of any
// size, so a meta storage knows its nbytes without owning a byte.
void deleteNothingMeta(void*) {}

struct MetaAllocator final : public c10::Allocator {
  c10::DataPtr allocate(size_t /*nbytes*/) override {
    return {nullptr, nullptr, &deleteNothingMeta, c10::Device(c10::DeviceType::Meta)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &deleteNothingMeta; }
  void copy_data(void* /*dest*/, const void* /*src*/, std::size_t /*count*/) const override {}
};

static MetaAllocator g_meta_alloc;
// [end marker: MetaAllocator]

}  // namespace

REGISTER_ALLOCATOR(c10::DeviceType::Meta, &g_meta_alloc)

namespace detail {

namespace {
// The largest storage any device can have: byte offsets are ptrdiff_t.
constexpr uint64_t storage_max() {
  return static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
}
}  // namespace

void check_size_nonnegative(IntArrayRef size) {
  for (const auto& x : size) {
    TORCH_CHECK(x >= 0, "Trying to create tensor with negative dimension ", x, ": ", size);
  }
}

// [marker: computeStorageNbytesContiguous]
// numel * itemsize, refused when it does not fit: wrapped around, it would allocate a small
// storage under a huge tensor.
size_t computeStorageNbytesContiguous(IntArrayRef sizes, size_t itemsize, size_t storage_offset) {
  uint64_t size = 1;
  bool overflowed = c10::safe_multiplies_u64(sizes, &size);
  overflowed |= c10::add_overflows(size, static_cast<uint64_t>(storage_offset), &size);
  overflowed |= c10::mul_overflows(size, static_cast<uint64_t>(itemsize), &size);
  overflowed |= size > storage_max();
  TORCH_CHECK(!overflowed, "Storage size calculation overflowed with sizes=", sizes);
  return static_cast<size_t>(size);
}
// [end marker: computeStorageNbytesContiguous]

// [marker: computeStorageNbytes]
// The last element sits at offset storage_offset + sum((size[d] - 1) * stride[d]); the
// storage must reach one element past it. Every step is overflow-checked.
size_t computeStorageNbytes(IntArrayRef sizes, IntArrayRef strides, size_t itemsize, size_t storage_offset) {
  TORCH_CHECK(sizes.size() == strides.size(), "mismatch in length of strides and shape");
  uint64_t size = 1;
  bool overflowed = c10::add_overflows(size, static_cast<uint64_t>(storage_offset), &size);
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 0) {
      return 0;
    }
    uint64_t strided = 0;
    overflowed |= c10::mul_overflows(static_cast<uint64_t>(strides[i]), static_cast<uint64_t>(sizes[i] - 1), &strided);
    overflowed |= c10::add_overflows(size, strided, &size);
  }
  overflowed |= c10::mul_overflows(size, static_cast<uint64_t>(itemsize), &size);
  overflowed |= size > storage_max();
  TORCH_CHECK(!overflowed, "Storage size calculation overflowed with sizes=", sizes, " and strides=", strides);
  return static_cast<size_t>(size);
}
// [end marker: computeStorageNbytes]

std::vector<int64_t> channels_last_strides(IntArrayRef size, c10::MemoryFormat format) {
  if (format == c10::MemoryFormat::ChannelsLast) {
    TORCH_CHECK(size.size() == 4, "required rank 4 tensor to use channels_last format");
  } else {
    TORCH_CHECK(size.size() == 5, "required rank 5 tensor to use channels_last_3d format");
  }
  return c10::get_channels_last_strides(size);
}

TensorBase empty_generic(IntArrayRef size, c10::Allocator* allocator, c10::DispatchKeySet ks,
                         ScalarType scalar_type, std::optional<c10::MemoryFormat> memory_format) {
  check_size_nonnegative(size);
  if (C10_UNLIKELY(scalar_type == ScalarType::ComplexHalf)) {
    TORCH_WARN_ONCE("ComplexHalf support is experimental and many operators don't support it yet.");
  }
  const auto dtype = c10::scalarTypeToTypeMeta(scalar_type);
  const size_t size_bytes = computeStorageNbytesContiguous(size, dtype.itemsize());
  // 1. the bytes, from the device's allocator (resizable: resize_ may grow them later)
  c10::Storage storage(c10::Storage::use_byte_size_t(), size_bytes, allocator, /*resizable=*/true);
  // 2. the view: dtype, sizes, contiguous strides, offset 0
  auto impl = c10::make_intrusive<TensorImpl>(std::move(storage), ks, dtype);
  // 3. the strides of the memory format asked for (row-major unless channels-last)
  const auto format = memory_format.value_or(c10::MemoryFormat::Contiguous);
  TORCH_CHECK(format != c10::MemoryFormat::Preserve, "unsupported memory format Preserve");
  if (format == c10::MemoryFormat::ChannelsLast || format == c10::MemoryFormat::ChannelsLast3d) {
    impl->set_sizes_and_strides(size, channels_last_strides(size, format));
  } else {
    impl->set_sizes_contiguous(size);
  }
  return TensorBase(std::move(impl));
}

TensorBase empty_strided_generic(IntArrayRef size, IntArrayRef stride, c10::Allocator* allocator,
                                 c10::DispatchKeySet ks, ScalarType scalar_type) {
  check_size_nonnegative(size);
  const auto dtype = c10::scalarTypeToTypeMeta(scalar_type);
  const size_t size_bytes = computeStorageNbytes(size, stride, dtype.itemsize());
  c10::Storage storage(c10::Storage::use_byte_size_t(), size_bytes, allocator, /*resizable=*/true);
  auto impl = c10::make_intrusive<TensorImpl>(std::move(storage), ks, dtype);
  impl->set_sizes_and_strides(size, stride);
  return TensorBase(std::move(impl));
}

TensorBase empty_cpu(IntArrayRef size, ScalarType dtype, std::optional<c10::MemoryFormat> memory_format) {
  return empty_generic(size, c10::GetCPUAllocator(), c10::DispatchKeySet(c10::DispatchKey::CPU), dtype, memory_format);
}

TensorBase empty_strided_cpu(IntArrayRef size, IntArrayRef stride, ScalarType dtype) {
  return empty_strided_generic(size, stride, c10::GetCPUAllocator(), c10::DispatchKeySet(c10::DispatchKey::CPU), dtype);
}

TensorBase empty_meta(IntArrayRef size, ScalarType dtype, std::optional<c10::MemoryFormat> memory_format) {
  return empty_generic(size, &g_meta_alloc, c10::DispatchKeySet(c10::DispatchKey::Meta), dtype, memory_format);
}

TensorBase empty_strided_meta(IntArrayRef size, IntArrayRef stride, ScalarType dtype) {
  return empty_strided_generic(size, stride, &g_meta_alloc, c10::DispatchKeySet(c10::DispatchKey::Meta), dtype);
}

}  // namespace detail
}  // namespace at
