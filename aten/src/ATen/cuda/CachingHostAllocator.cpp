// aten/src/ATen/cuda/CachingHostAllocator.cpp - a cache of pinned host blocks, reused only once
// the asynchronous copies that read them have finished. Mirrors PyTorch's
// aten/src/ATen/cuda/CachingHostAllocator.cpp (and the CachingHostAllocatorImpl of
// aten/src/ATen/core/CachingHostAllocator.h). Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/cuda/CachingHostAllocator.h>

#include <ATen/cuda/Exceptions.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>

#include <cuda_runtime_api.h>

#include <deque>
#include <map>
#include <mutex>
#include <unordered_set>
#include <utility>
#include <vector>

namespace at::cuda {
namespace {

struct HostBlock {
  HostBlock(size_t size, void* ptr) : size_(size), ptr_(ptr) {}
  size_t size_;  // a power of two: blocks of one size serve every request that rounds to it
  void* ptr_;
  bool allocated_ = true;
  // Events recorded when the block was freed, one per stream that used it, not yet complete.
  int event_count_ = 0;
  // The streams whose queued work reads or writes the block (CachingHostAllocator_recordEvent).
  std::vector<c10::cuda::CUDAStream> streams_;
};

size_t round_up_to_power_of_two(size_t n) {
  size_t p = 1;
  while (p < n) {
    p <<= 1;
  }
  return p;
}

class CachingHostAllocatorImpl {
 public:
  std::pair<void*, HostBlock*> allocate(size_t size) {
    if (size == 0) {
      return {nullptr, nullptr};
    }
    std::lock_guard<std::mutex> lock(mutex_);
    process_events();
    const size_t rounded = round_up_to_power_of_two(size);
    auto& free_list = free_blocks_[rounded];
    if (!free_list.empty()) {
      HostBlock* block = free_list.back();
      free_list.pop_back();
      block->allocated_ = true;
      stats_.allocations++;
      stats_.allocated_bytes += static_cast<int64_t>(block->size_);
      return {block->ptr_, block};
    }
    // Nothing cached: ask CUDA for page-locked memory. Without a device this raises why
    // (no driver, no GPU), as any other CUDA work does.
    c10::cuda::device_count_ensure_non_zero();
    void* ptr = nullptr;
    C10_CUDA_CHECK(cudaHostAlloc(&ptr, rounded, cudaHostAllocDefault));
    auto* block = new HostBlock(rounded, ptr);
    blocks_.insert(block);
    ptr_to_block_.emplace(ptr, block);
    stats_.segments++;
    stats_.reserved_bytes += static_cast<int64_t>(rounded);
    stats_.num_host_alloc++;
    stats_.allocations++;
    stats_.allocated_bytes += static_cast<int64_t>(rounded);
    return {ptr, block};
  }

  // [marker: host_free]
  // A block no stream used goes straight back to its free list. One that streams used gets
  // an event on each of them and waits in events_ until all have completed.
  void free(HostBlock* block) {
    std::lock_guard<std::mutex> lock(mutex_);
    block->allocated_ = false;
    stats_.allocations--;
    stats_.allocated_bytes -= static_cast<int64_t>(block->size_);
    if (block->streams_.empty()) {
      free_blocks_[block->size_].push_back(block);
      return;
    }
    for (const c10::cuda::CUDAStream& stream : block->streams_) {
      at::cuda::CUDAEvent event(cudaEventDisableTiming);
      event.record(stream);
      block->event_count_++;
      events_.emplace_back(std::move(event), block);
    }
    block->streams_.clear();
  }
  // [end marker: host_free]

  bool record_event(void* ptr, void* ctx, c10::cuda::CUDAStream stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto* block = static_cast<HostBlock*>(ctx);
    if (blocks_.count(block) == 0) {
      return false;  // not pinned by this allocator (pageable memory, or another allocator's)
    }
    TORCH_INTERNAL_ASSERT(block->allocated_ && static_cast<char*>(ptr) >= static_cast<char*>(block->ptr_) &&
                          static_cast<char*>(ptr) < static_cast<char*>(block->ptr_) + block->size_);
    for (const auto& s : block->streams_) {
      if (s == stream) {
        return true;
      }
    }
    block->streams_.push_back(stream);
    return true;
  }

  bool is_pinned(const void* ptr) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = ptr_to_block_.upper_bound(const_cast<void*>(ptr));
    if (it == ptr_to_block_.begin()) {
      return false;
    }
    --it;
    const char* base = static_cast<const char*>(it->first);
    return static_cast<const char*>(ptr) < base + it->second->size_;
  }

  void empty_cache() {
    std::lock_guard<std::mutex> lock(mutex_);
    process_events();
    for (auto& [size, free_list] : free_blocks_) {
      for (HostBlock* block : free_list) {
        C10_CUDA_CHECK(cudaFreeHost(block->ptr_));
        stats_.segments--;
        stats_.reserved_bytes -= static_cast<int64_t>(block->size_);
        stats_.num_host_free++;
        ptr_to_block_.erase(block->ptr_);
        blocks_.erase(block);
        delete block;
      }
      free_list.clear();
    }
  }

  HostStats stats() {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
  }

 private:
  // [marker: process_events]
  // Oldest first; the first event not yet complete stops the walk (the ones after it were
  // recorded later, so they are unlikely to be done). A block whose last event completes
  // becomes free.
  void process_events() {
    while (!events_.empty()) {
      auto& [event, block] = events_.front();
      if (!event.query()) {
        break;
      }
      if (--block->event_count_ == 0) {
        free_blocks_[block->size_].push_back(block);
      }
      events_.pop_front();
    }
  }
  // [end marker: process_events]

  std::mutex mutex_;
  std::unordered_set<HostBlock*> blocks_;  // every block (the DataPtr contexts)
  std::map<void*, HostBlock*> ptr_to_block_;           // by address, for is_pinned
  std::map<size_t, std::vector<HostBlock*>> free_blocks_;
  std::deque<std::pair<at::cuda::CUDAEvent, HostBlock*>> events_;
  HostStats stats_;
};

// Never destroyed: DataPtrs of pinned tensors may be freed during interpreter shutdown.
CachingHostAllocatorImpl& impl() {
  static auto* instance = new CachingHostAllocatorImpl();
  return *instance;
}

void raw_host_deleter(void* ctx) {
  impl().free(static_cast<HostBlock*>(ctx));
}

struct CachingHostAllocator final : public c10::Allocator {
  c10::DataPtr allocate(size_t size) override {
    auto [ptr, block] = impl().allocate(size);
    return {ptr, block, &raw_host_deleter, c10::Device(c10::DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &raw_host_deleter; }
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    default_copy_data(dest, src, count);
  }
};

CachingHostAllocator caching_host_allocator;

}  // namespace

c10::Allocator* getCachingHostAllocator() {
  return &caching_host_allocator;
}

bool CachingHostAllocator_recordEvent(void* ptr, void* ctx, c10::cuda::CUDAStream stream) {
  return impl().record_event(ptr, ctx, stream);
}

bool CachingHostAllocator_isPinned(const void* ptr) {
  return impl().is_pinned(ptr);
}

void CachingHostAllocator_emptyCache() {
  impl().empty_cache();
}

HostStats CachingHostAllocator_getStats() {
  return impl().stats();
}

}  // namespace at::cuda
