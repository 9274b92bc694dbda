// aten/src/ATen/cuda/CachingHostAllocator.h - the allocator of pinned (page-locked) host
// memory behind Tensor.pin_memory() and DataLoader(pin_memory=True). Mirrors PyTorch's
// aten/src/ATen/cuda/CachingHostAllocator.h. Guide: docs/source/internals/cuda_simulated_device.rst.
//
// Pinned memory is what lets cudaMemcpyAsync run without the host waiting: the device reads it
// directly, while pageable memory has to be staged first. cudaHostAlloc is slow (it locks
// pages), so blocks are cached as the CUDA caching allocator caches device memory, by size
// rounded up to a power of two. One rule makes the cache safe: a block that an asynchronous
// copy still reads is not handed out again until that copy has finished. The copy calls
// CachingHostAllocator_recordEvent; the block, once freed, waits for the events.
#pragma once

#include <c10/core/Allocator.h>
#include <c10/cuda/CUDAStream.h>

#include <cstddef>
#include <cstdint>

namespace at::cuda {

// The allocator (a c10::Allocator whose DataPtrs are CPU pointers into pinned memory).
TORCH_API c10::Allocator* getCachingHostAllocator();

// Record that work queued on `stream` uses the pinned block (ptr, ctx: a DataPtr's pointer and
// context). Returns false, doing nothing, if ctx is not one of this allocator's blocks.
TORCH_API bool CachingHostAllocator_recordEvent(void* ptr, void* ctx, c10::cuda::CUDAStream stream);

// Whether ptr points into a block of this allocator (Tensor.is_pinned()).
TORCH_API bool CachingHostAllocator_isPinned(const void* ptr);

// Give the free blocks back with cudaFreeHost (torch._C._host_emptyCache()).
TORCH_API void CachingHostAllocator_emptyCache();

// What the allocator holds: blocks in use and their bytes (rounded sizes), all blocks
// (reserved), and the cudaHostAlloc / cudaFreeHost calls made so far.
struct HostStats {
  int64_t allocations = 0;
  int64_t allocated_bytes = 0;
  int64_t segments = 0;
  int64_t reserved_bytes = 0;
  int64_t num_host_alloc = 0;
  int64_t num_host_free = 0;
};
TORCH_API HostStats CachingHostAllocator_getStats();

}  // namespace at::cuda
