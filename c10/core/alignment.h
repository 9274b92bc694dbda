// c10/core/alignment.h - how CPU tensor memory is aligned.
// Mirrors PyTorch's c10/core/alignment.h. Guide: docs/source/internals/memory.rst.
#pragma once

#include <cstddef>

namespace c10 {

// 64 bytes: one cache line, and enough for AVX-512 aligned loads.
constexpr size_t gAlignment = 64;
constexpr size_t gPagesize = 4096;
// Allocations of at least this many bytes may use transparent huge pages (THP_MEM_ALLOC_ENABLE=1).
constexpr size_t gAlloc_threshold_thp = static_cast<size_t>(2) * 1024 * 1024;

}  // namespace c10
