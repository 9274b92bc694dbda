// c10/core/Allocator.cpp - the allocator registry and the default helpers.
// Mirrors PyTorch's c10/core/Allocator.cpp. Guide: docs/source/internals/memory.rst.
#include <c10/core/Allocator.h>

#include <cstring>

namespace c10 {

DataPtr Allocator::clone(const void* data, std::size_t n) {
  DataPtr new_data = allocate(n);
  copy_data(new_data.mutable_get(), data, n);
  return new_data;
}

void Allocator::default_copy_data(void* dest, const void* src, std::size_t count) const {
  if (count > 0) {
    std::memcpy(dest, src, count);
  }
}

bool Allocator::is_simple_data_ptr(const DataPtr& data_ptr) const {
  return data_ptr.get() == data_ptr.get_context();
}

static void deleteInefficientStdFunctionContext(void* ptr) {
  delete static_cast<InefficientStdFunctionContext*>(ptr);
}

DataPtr InefficientStdFunctionContext::makeDataPtr(void* ptr, std::function<void(void*)> deleter,
                                                   Device device) {
  return {ptr, new InefficientStdFunctionContext(ptr, std::move(deleter)),
          &deleteInefficientStdFunctionContext, device};
}

// [marker: registry]
// One slot and one priority per device type; both start empty (null, 0).
static std::array<Allocator*, COMPILE_TIME_MAX_DEVICE_TYPES> allocator_array{};
static std::array<uint8_t, COMPILE_TIME_MAX_DEVICE_TYPES> allocator_priority{};

void SetAllocator(DeviceType t, Allocator* alloc, uint8_t priority) {
  if (priority >= allocator_priority[static_cast<int>(t)]) {
    allocator_array[static_cast<int>(t)] = alloc;
    allocator_priority[static_cast<int>(t)] = priority;
  }
}

Allocator* GetAllocator(const DeviceType& t) {
  auto* alloc = allocator_array[static_cast<int>(t)];
  TORCH_CHECK(alloc, "Allocator for ", t, " is not set.");
  return alloc;
}
// [end marker: registry]

}  // namespace c10
