// aten/src/ATen/CPUFixedAllocator.cpp - the DataPtr glue for CPUFixedAllocator.
// PyTorch keeps only the header; this file holds the part that needs a home in a library.
// Guide: docs/source/internals/memory.rst.
#include <ATen/CPUFixedAllocator.h>

namespace at {
namespace {

// The DataPtr context: the external memory and its owner's callback.
struct FixedContext {
  void* allocation;
  std::function<void(void*)>* on_release;
};

void deleteFixedContext(void* ctx) {
  auto* fixed = static_cast<FixedContext*>(ctx);
  cpu_fixed_free(fixed->on_release, fixed->allocation);
  delete fixed;
}

}  // namespace

c10::DataPtr CPUFixedAllocator::makeDataPtr(void* data, std::function<void(void*)> on_release) {
  auto* ctx = new FixedContext{data, new std::function<void(void*)>(std::move(on_release))};
  return {data, ctx, &deleteFixedContext, c10::Device(c10::DeviceType::CPU)};
}

CPUFixedAllocator* getCPUFixedAllocator() {
  static CPUFixedAllocator allocator;
  return &allocator;
}

}  // namespace at
