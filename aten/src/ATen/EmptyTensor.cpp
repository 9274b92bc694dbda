// aten/src/ATen/EmptyTensor.cpp - allocators ATen registers for device types c10 leaves open.
// Mirrors PyTorch's aten/src/ATen/EmptyTensor.cpp. Guide: docs/source/internals/memory.rst.
#include <c10/core/Allocator.h>

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

}  // namespace at
