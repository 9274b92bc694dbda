// aten/src/ATen/CPUFixedAllocator.h - an allocator that refuses to allocate.
// Mirrors PyTorch's aten/src/ATen/CPUFixedAllocator.h. Guide: docs/source/internals/memory.rst.
//
// Seed 000, "Memory management": a tensor built over an external blob (memory someone else
// owns, e.g. from_blob) still needs an allocator in its storage, but must never grow: a
// resize would have to allocate and copy behind the owner's back. This allocator throws
// on any attempt to allocate or reallocate, and on release calls the owner's callback.
// The functions keep the old C allocator shape (malloc/realloc/free taking a state pointer)
// that the seed shows; CPUFixedAllocator wraps them in today's c10::Allocator interface.
#pragma once

#include <c10/core/Allocator.h>
#include <c10/macros/Macros.h>
#include <c10/util/Exception.h>

#include <cstddef>
#include <functional>

namespace at {

// [marker: cpu_fixed]
static inline void* cpu_fixed_malloc(void* /*state*/, ptrdiff_t /*size*/) {
  AT_ERROR("attempting to resize a tensor view of an external blob");
}

static inline void* cpu_fixed_realloc(void* /*state*/, void* /*ptr*/, ptrdiff_t /*size*/) {
  AT_ERROR("attempting to resize a tensor view of an external blob");
}

// state is the std::function<void(void*)> the owner gave; it is called with the memory.
static inline void cpu_fixed_free(void* state, void* allocation) {
  auto on_release = static_cast<std::function<void(void*)>*>(state);
  (*on_release)(allocation);
  delete on_release;
}
// [end marker: cpu_fixed]

// The same three functions as a c10::Allocator, for storages over external memory.
struct TORCH_API CPUFixedAllocator final : c10::Allocator {
  c10::DataPtr allocate(size_t n) override {
    cpu_fixed_malloc(nullptr, static_cast<ptrdiff_t>(n));
    return {};
  }
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    default_copy_data(dest, src, count);
  }
  // A DataPtr over `data` that calls on_release(data) when the last user lets go.
  static c10::DataPtr makeDataPtr(void* data, std::function<void(void*)> on_release);
};

TORCH_API CPUFixedAllocator* getCPUFixedAllocator();

}  // namespace at
