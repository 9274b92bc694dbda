// c10/cuda/CUDACachingAllocator.cpp - best fit, splitting, merging, stream-aware reuse,
// retry-after-free and the statistics, against the DeviceRuntime interface.
// Mirrors PyTorch's c10/cuda/CUDACachingAllocator.cpp (DeviceCachingAllocator).
// Guide: docs/source/internals/cuda_caching_allocator.rst.
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace c10::cuda::CUDACachingAllocator {
namespace {

uint64_t now_us() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// Requests of 1 EiB or more cannot be real; PyTorch refuses them before any rounding.
constexpr size_t kOneExbibyte = 1152921504606846976ULL;

size_t power2_floor(size_t v) {
  return size_t(1) << (63 - __builtin_clzll(v));
}

// Round size up to the next of `divisions` equal steps between the two powers of two
// around it: with 4 divisions, sizes in (1024, 2048] round to 1280, 1536, 1792 or 2048.
size_t roundup_power2_next_division(size_t size, size_t divisions) {
  if ((size & (size - 1)) == 0) {
    return size;  // already a power of two
  }
  TORCH_CHECK(divisions >= 2, "Only 2 or more divisions are supported");
  const size_t power2_floor_size = power2_floor(size);
  const size_t step = power2_floor_size >> (63 - __builtin_clzll(divisions));
  if (step == 0) {
    return power2_floor_size << 1;
  }
  return (size % step == 0) ? size : (size & ~(step - 1)) + step;
}

}  // namespace

bool BlockComparatorSize(const Block* a, const Block* b) {
  if (a->stream != b->stream) {
    return a->stream < b->stream;
  }
  if (a->size != b->size) {
    return a->size < b->size;
  }
  return reinterpret_cast<uintptr_t>(a->ptr) < reinterpret_cast<uintptr_t>(b->ptr);
}

const char* toString(TraceEntry::Action action) {
  switch (action) {
    case TraceEntry::ALLOC: return "alloc";
    case TraceEntry::FREE_REQUESTED: return "free_requested";
    case TraceEntry::FREE_COMPLETED: return "free_completed";
    case TraceEntry::SEGMENT_ALLOC: return "segment_alloc";
    case TraceEntry::SEGMENT_FREE: return "segment_free";
    case TraceEntry::OOM: return "oom";
  }
  return "unknown";
}

std::string allocatorSettingsFromEnv() {
  for (const char* name : {"PYTORCH_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF"}) {
    if (const char* value = std::getenv(name)) {
      return value;
    }
  }
  return "";
}

DeviceCachingAllocator::DeviceCachingAllocator(DeviceRuntime* runtime)
    : runtime_(runtime), device_(runtime->device()), start_us_(now_us()) {
  config_.parseArgs(allocatorSettingsFromEnv());
  // As in PyTorch, being set at all disables caching (even "0").
  caching_disabled_ = std::getenv("PYTORCH_NO_CUDA_MEMORY_CACHING") != nullptr;
  stats_.max_split_size = static_cast<int64_t>(config_.max_split_size());
}

DeviceCachingAllocator::~DeviceCachingAllocator() {
  // Give the device back everything: cached segments, and the segments of blocks still
  // allocated (their owners are gone with the allocator).
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  synchronize_and_free_events();
  std::unordered_set<void*> freed;
  auto release_segment_of = [&](Block* b) {
    while (b->prev) b = b->prev;
    if (freed.insert(b->ptr).second) runtime_->free(b->ptr);
  };
  for (Block* b : active_blocks_) release_segment_of(b);
  for (Block* b : large_blocks_.blocks) release_segment_of(b);
  for (Block* b : small_blocks_.blocks) release_segment_of(b);
  for (Block* b : active_blocks_) delete b;
  for (Block* b : large_blocks_.blocks) delete b;
  for (Block* b : small_blocks_.blocks) delete b;
  for (auto& [ptr, size] : uncached_blocks_) runtime_->free(ptr);
  for (DeviceEvent e : event_pool_) runtime_->destroyEvent(e);
}

// [marker: round_size]
size_t DeviceCachingAllocator::round_size(size_t size) {
  if (size < kMinBlockSize) {
    return kMinBlockSize;
  }
  const size_t divisions = config_.roundup_power2_divisions(size);
  if (divisions > 1 && size > (kMinBlockSize * divisions)) {
    return roundup_power2_next_division(size, divisions);
  }
  return kMinBlockSize * ((size + kMinBlockSize - 1) / kMinBlockSize);
}

// The segment to ask the device for, when no cached block fits a request of `size`.
size_t DeviceCachingAllocator::get_allocation_size(size_t size) {
  if (size <= kSmallSize) {
    return kSmallBuffer;  // small requests share 2 MiB segments
  } else if (size < kMinLargeAlloc) {
    return kLargeBuffer;  // 1-10 MiB requests share 20 MiB segments
  } else {
    return kRoundLarge * ((size + kRoundLarge - 1) / kRoundLarge);  // own segment, 2 MiB multiple
  }
}
// [end marker: round_size]

void* DeviceCachingAllocator::allocate(size_t size, DeviceStream stream) {
  TORCH_CHECK_WITH(OutOfMemoryError, size < kOneExbibyte,
                   "CUDA out of memory. Tried to allocate more than 1EB memory.");
  if (size == 0) {
    return nullptr;
  }
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (caching_disabled_) {
    void* ptr = nullptr;
    TORCH_CHECK_WITH(OutOfMemoryError, runtime_->malloc(&ptr, size), "CUDA out of memory. Tried to allocate ",
                     format_size(size), " (PYTORCH_NO_CUDA_MEMORY_CACHING is set: no cache to free).");
    uncached_blocks_.emplace(ptr, size);
    return ptr;
  }
  Block* block = malloc(size, stream);
  allocated_blocks_.emplace(block->ptr, block);
  return block->ptr;
}

void DeviceCachingAllocator::deallocate(void* ptr) {
  if (ptr == nullptr) {
    return;
  }
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (auto it = uncached_blocks_.find(ptr); it != uncached_blocks_.end()) {
    runtime_->free(ptr);
    uncached_blocks_.erase(it);
    return;
  }
  auto it = allocated_blocks_.find(ptr);
  TORCH_CHECK(it != allocated_blocks_.end(), "invalid device pointer: ", ptr);
  Block* block = it->second;
  allocated_blocks_.erase(it);
  free(block);
}

void DeviceCachingAllocator::recordStream(void* ptr, DeviceStream stream) {
  if (ptr == nullptr) {
    return;
  }
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  if (uncached_blocks_.count(ptr)) {
    return;  // uncached memory is freed at once; there is no reuse to delay
  }
  auto it = allocated_blocks_.find(ptr);
  TORCH_CHECK(it != allocated_blocks_.end(), "invalid device pointer: ", ptr);
  Block* block = it->second;
  if (stream == block->stream) {
    return;  // the allocation stream is always waited for: nothing to record
  }
  block->stream_uses.insert(stream);
}

// [marker: malloc]
Block* DeviceCachingAllocator::malloc(size_t orig_size, DeviceStream stream) {
  // Blocks freed on other streams become reusable once their events have completed.
  process_events();

  const size_t size = round_size(orig_size);
  BlockPool& pool = get_pool(size);
  const size_t alloc_size = get_allocation_size(size);
  AllocParams params(device_, size, stream, &pool, alloc_size);
  params.stat_types = get_stat_types_for_pool(pool);

  // 1. best fit among the cached blocks of this stream
  bool block_found = get_free_block(params);
  if (!block_found) {
    // 2. a new segment from the device; failing that, free cached blocks and retry:
    //    first oversize blocks (max_split_size), then every unsplit cached segment.
    if (set_fraction_ && config_.garbage_collection_threshold() > 0.0) {
      garbage_collect_cached_blocks();
    }
    block_found = alloc_block(params, false) ||
                  (release_available_cached_blocks(params) && alloc_block(params, false)) ||
                  (release_cached_blocks() && alloc_block(params, true));
  }
  if (!block_found) {
    raiseOutOfMemory(params);
  }
  const bool split_remainder = should_split(params.block, params.size());
  return alloc_found_block(params, orig_size, split_remainder);
}
// [end marker: malloc]

void DeviceCachingAllocator::raiseOutOfMemory(const AllocParams& params) {
  size_t device_free = 0, device_total = 0;
  runtime_->memGetInfo(&device_free, &device_total);
  std::string allowed_info;
  if (set_fraction_) {
    allowed_info = format_size(allowed_memory_maximum_) + " allowed; ";
  }
  stats_.num_ooms += 1;
  record_trace(TraceEntry::OOM, 0, params.alloc_size, params.stream());
  const auto allocated_bytes = stats_.allocated_bytes[static_cast<size_t>(StatType::AGGREGATE)].current;
  const auto reserved_bytes = stats_.reserved_bytes[static_cast<size_t>(StatType::AGGREGATE)].current;
  C10_THROW_ERROR(
      OutOfMemoryError,
      str("CUDA out of memory. Tried to allocate ", format_size(params.alloc_size), ". GPU ", device_,
          " has a total capacity of ", format_size(device_total), " of which ", format_size(device_free),
          " is free. ", allowed_info, "Of the allocated memory ", format_size(allocated_bytes),
          " is allocated by PyTorch, and ", format_size(reserved_bytes - allocated_bytes),
          " is reserved by PyTorch but unallocated.",
          " If reserved but unallocated memory is large try setting "
          "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for "
          "Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html"
          "#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)"));
}

StatTypes DeviceCachingAllocator::get_stat_types_for_pool(const BlockPool& pool) {
  StatTypes stat_types = {false};
  stat_types[static_cast<size_t>(StatType::AGGREGATE)] = true;
  stat_types[static_cast<size_t>(pool.is_small ? StatType::SMALL_POOL : StatType::LARGE_POOL)] = true;
  return stat_types;
}

// [marker: get_free_block]
bool DeviceCachingAllocator::get_free_block(AllocParams& p) {
  BlockPool& pool = *p.pool;
  if (set_fraction_ && config_.garbage_collection_threshold() > 0.0) {
    ++pool.get_free_blocks_call_count;  // ages of cached blocks, for the garbage collector
  }
  // The smallest block on this stream that is at least p.size() bytes.
  auto it = pool.blocks.lower_bound(&p.search_key);
  if (it == pool.blocks.end() || (*it)->stream != p.stream()) {
    return false;
  }
  const size_t max_split_size = config_.max_split_size();
  // Do not hand an oversize (never split) block to a request that is not oversize itself...
  if (p.size() < max_split_size && (*it)->size >= max_split_size) {
    return false;
  }
  // ...and give an oversize request an oversize block only if little of it would be wasted.
  if (p.size() >= max_split_size && (*it)->size >= p.size() + config_.max_non_split_rounding_size()) {
    return false;
  }
  p.block = *it;
  pool.blocks.erase(it);
  return true;
}
// [end marker: get_free_block]

// [marker: should_split]
bool DeviceCachingAllocator::should_split(const Block* block, size_t size) {
  const size_t remaining = block->size - size;
  if (block->pool->is_small) {
    return remaining >= kMinBlockSize;
  }
  // Large blocks split only below max_split_size and only if more than 1 MiB would remain
  // (a smaller remainder would be a small-pool-sized piece stuck in the large pool).
  return size < config_.max_split_size() && remaining > kSmallSize;
}
// [end marker: should_split]

Block* DeviceCachingAllocator::alloc_found_block(AllocParams& params, size_t orig_size, bool split_remainder) {
  Block* block = params.block;
  Block* remaining = nullptr;
  const bool already_split = block->is_split();
  const size_t size = params.size();
  if (split_remainder) {
    // The request takes the front of the block; the rest stays free in the pool.
    remaining = block;
    block = new Block(device_, params.stream(), size, params.pool, block->ptr);
    block->prev = remaining->prev;
    if (block->prev) {
      block->prev->next = block;
    }
    block->next = remaining;
    remaining->prev = block;
    remaining->ptr = static_cast<char*>(remaining->ptr) + size;
    remaining->size -= size;
    params.pool->blocks.insert(remaining);

    if (already_split) {
      // An already-split inactive block shrinks by `size` bytes.
      for_each_selected_stat_type(params.stat_types, [&](size_t t) {
        stats_.inactive_split_bytes[t].decrease(block->size);
      });
    } else {
      // A new inactive split block appears: the remainder.
      for_each_selected_stat_type(params.stat_types, [&](size_t t) {
        stats_.inactive_split_bytes[t].increase(remaining->size);
        stats_.inactive_split[t].increase(1);
      });
    }
  } else if (already_split) {
    // A whole inactive split block becomes active.
    for_each_selected_stat_type(params.stat_types, [&](size_t t) {
      stats_.inactive_split_bytes[t].decrease(block->size);
      stats_.inactive_split[t].decrease(1);
    });
  }

  block->allocated = true;
  block->requested_size = orig_size;
  active_blocks_.insert(block);
  for_each_selected_stat_type(params.stat_types, [&](size_t t) {
    stats_.allocation[t].increase(1);
    stats_.allocated_bytes[t].increase(block->size);
    stats_.active[t].increase(1);
    stats_.active_bytes[t].increase(block->size);
    stats_.requested_bytes[t].increase(block->requested_size);
  });
  if (block->size >= config_.max_split_size()) {
    stats_.oversize_allocations.increase(1);
  }
  record_trace(TraceEntry::ALLOC, reinterpret_cast<uintptr_t>(block->ptr), orig_size, block->stream);
  return block;
}

// [marker: alloc_block]
bool DeviceCachingAllocator::alloc_block(AllocParams& p, bool isRetry) {
  const size_t size = p.alloc_size;
  if (isRetry) {
    stats_.num_alloc_retries += 1;
  }
  if (set_fraction_ && total_allocated_memory_ + size > allowed_memory_maximum_) {
    return false;  // over the per-process memory fraction: treated as out of memory
  }
  void* ptr = nullptr;
  if (!runtime_->malloc(&ptr, size)) {
    return false;
  }
  total_allocated_memory_ += size;
  p.block = new Block(device_, p.stream(), size, p.pool, ptr);
  for_each_selected_stat_type(p.stat_types, [&](size_t t) {
    stats_.segment[t].increase(1);
    stats_.reserved_bytes[t].increase(size);
  });
  if (size >= config_.max_split_size()) {
    stats_.oversize_segments.increase(1);
  }
  stats_.num_device_alloc += 1;
  record_trace(TraceEntry::SEGMENT_ALLOC, reinterpret_cast<uintptr_t>(ptr), size, p.stream());
  return true;
}
// [end marker: alloc_block]

// [marker: free]
void DeviceCachingAllocator::free(Block* block) {
  block->allocated = false;
  record_trace(TraceEntry::FREE_REQUESTED, reinterpret_cast<uintptr_t>(block->ptr), block->requested_size,
               block->stream);
  const StatTypes stat_types = get_stat_types_for_pool(*block->pool);
  for_each_selected_stat_type(stat_types, [&](size_t t) {
    stats_.allocation[t].decrease(1);
    stats_.allocated_bytes[t].decrease(block->size);
  });
  if (block->size >= config_.max_split_size()) {
    stats_.oversize_allocations.decrease(1);
  }
  if (!block->stream_uses.empty()) {
    // Other streams may still be using it: record an event on each and reuse the block
    // only once they have all passed this point. Until then it stays active.
    insert_events(block);
  } else {
    free_block(block);
  }
}

void DeviceCachingAllocator::free_block(Block* block) {
  TORCH_INTERNAL_ASSERT(!block->allocated && block->event_count == 0 && block->stream_uses.empty());
  // Recorded before merging, which may move block->ptr to a free neighbour's address.
  record_trace(TraceEntry::FREE_COMPLETED, reinterpret_cast<uintptr_t>(block->ptr), block->requested_size,
               block->stream);
  const size_t original_block_size = block->size;
  const size_t requested_size = block->requested_size;
  BlockPool& pool = *block->pool;

  // Merge with free neighbours, so the segment can become one block again.
  int64_t net_change_inactive_split_blocks = 0;
  int64_t net_change_inactive_split_size = 0;
  for (Block* merge_candidate : {block->prev, block->next}) {
    const size_t subsumed_size = try_merge_blocks(block, merge_candidate, pool);
    if (subsumed_size > 0) {
      net_change_inactive_split_blocks -= 1;
      net_change_inactive_split_size -= static_cast<int64_t>(subsumed_size);
    }
  }
  active_blocks_.erase(block);
  block->requested_size = 0;
  pool.blocks.insert(block);
  block->gc_count_base = pool.get_free_blocks_call_count;
  if (block->is_split()) {
    net_change_inactive_split_blocks += 1;
    net_change_inactive_split_size += static_cast<int64_t>(block->size);
  }

  const StatTypes stat_types = get_stat_types_for_pool(pool);
  for_each_selected_stat_type(stat_types, [&](size_t t) {
    if (net_change_inactive_split_blocks > 0) {
      stats_.inactive_split[t].increase(static_cast<size_t>(net_change_inactive_split_blocks));
    } else if (net_change_inactive_split_blocks < 0) {
      stats_.inactive_split[t].decrease(static_cast<size_t>(-net_change_inactive_split_blocks));
    }
    if (net_change_inactive_split_size > 0) {
      stats_.inactive_split_bytes[t].increase(static_cast<size_t>(net_change_inactive_split_size));
    } else if (net_change_inactive_split_size < 0) {
      stats_.inactive_split_bytes[t].decrease(static_cast<size_t>(-net_change_inactive_split_size));
    }
    stats_.active[t].decrease(1);
    stats_.active_bytes[t].decrease(original_block_size);
    stats_.requested_bytes[t].decrease(requested_size);
  });
}

// Absorb the free neighbour `src` into `dst`; returns the bytes absorbed (0 if src is busy).
size_t DeviceCachingAllocator::try_merge_blocks(Block* dst, Block* src, BlockPool& pool) {
  if (!src || src->allocated || src->event_count > 0 || !src->stream_uses.empty()) {
    return 0;
  }
  TORCH_INTERNAL_ASSERT(dst->is_split() && src->is_split());
  if (dst->prev == src) {  // [src dst]
    dst->ptr = src->ptr;
    dst->prev = src->prev;
    if (dst->prev) {
      dst->prev->next = dst;
    }
  } else {  // [dst src]
    dst->next = src->next;
    if (dst->next) {
      dst->next->prev = dst;
    }
  }
  const size_t subsumed_size = src->size;
  dst->size += subsumed_size;
  pool.blocks.erase(src);
  delete src;
  return subsumed_size;
}
// [end marker: free]

// [marker: release]
// With max_split_size set, free cached oversize blocks of this stream: one big enough for
// the request if there is one, else the largest ones until enough bytes are released.
bool DeviceCachingAllocator::release_available_cached_blocks(const AllocParams& p) {
  const size_t max_split_size = config_.max_split_size();
  if (max_split_size == std::numeric_limits<size_t>::max()) {
    return false;
  }
  BlockPool& pool = *p.pool;
  Block key(p.search_key.device, p.search_key.stream, std::max(p.search_key.size, max_split_size));
  auto it = pool.blocks.lower_bound(&key);
  if (it == pool.blocks.end() || (*it)->stream != p.stream()) {
    if (it == pool.blocks.begin()) {
      return false;
    }
    size_t total_released = 0;
    --it;  // the largest block of a smaller size: walk down from here
    while (total_released < key.size && (*it)->size >= max_split_size && (*it)->stream == p.stream()) {
      auto cur = it;
      const bool is_first = cur == pool.blocks.begin();
      if (!is_first) {
        --it;
      }
      if (!(*cur)->is_split()) {
        total_released += (*cur)->size;
        release_block(*cur);
      }
      if (is_first) {
        break;
      }
    }
    return total_released >= key.size;
  }
  if ((*it)->is_split()) {
    return false;
  }
  release_block(*it);
  return true;
}

// Free every cached block that is a whole segment (emptyCache, and the last retry of malloc).
bool DeviceCachingAllocator::release_cached_blocks() {
  synchronize_and_free_events();
  release_blocks(large_blocks_);
  release_blocks(small_blocks_);
  return true;
}

void DeviceCachingAllocator::release_blocks(BlockPool& pool) {
  auto it = pool.blocks.begin();
  while (it != pool.blocks.end()) {
    Block* block = *it;
    ++it;
    if (!block->prev && !block->next) {
      release_block(block);
    }
  }
}

void DeviceCachingAllocator::release_block(Block* block) {
  runtime_->free(block->ptr);
  total_allocated_memory_ -= block->size;
  BlockPool* pool = block->pool;
  const StatTypes stat_types = get_stat_types_for_pool(*pool);
  for_each_selected_stat_type(stat_types, [&](size_t t) {
    stats_.segment[t].decrease(1);
    stats_.reserved_bytes[t].decrease(block->size);
  });
  if (block->size >= config_.max_split_size()) {
    stats_.oversize_segments.decrease(1);
  }
  stats_.num_device_free += 1;
  record_trace(TraceEntry::SEGMENT_FREE, reinterpret_cast<uintptr_t>(block->ptr), block->size, block->stream);
  pool->blocks.erase(block);
  delete block;
}
// [end marker: release]

// [marker: garbage_collect]
// Above garbage_collection_threshold * allowed memory, release the cached whole segments that
// have waited longest (age = malloc calls since they were freed), oldest first on average.
void DeviceCachingAllocator::garbage_collect_cached_blocks() {
  const auto gc_threshold =
      static_cast<size_t>(config_.garbage_collection_threshold() * static_cast<double>(allowed_memory_maximum_));
  if (total_allocated_memory_ <= gc_threshold) {
    return;
  }
  const size_t target_size = total_allocated_memory_ - gc_threshold;
  size_t gc_reclaimed = 0;
  auto age = [&](const Block* b) {
    return static_cast<double>(large_blocks_.get_free_blocks_call_count - b->gc_count_base);
  };
  double total_age = 0.0;
  int freeable_block_count = 0;
  for (const Block* b : large_blocks_.blocks) {
    if (!b->is_split()) {
      total_age += age(b);
      ++freeable_block_count;
    }
  }
  bool block_freed = true;
  while (gc_reclaimed < target_size && block_freed && freeable_block_count > 0) {
    const double age_threshold = total_age / freeable_block_count;
    block_freed = false;
    auto it = large_blocks_.blocks.begin();
    while (it != large_blocks_.blocks.end()) {
      Block* block = *it;
      ++it;
      if (!block->is_split() && age(block) >= age_threshold) {
        block_freed = true;
        gc_reclaimed += block->size;
        total_age -= age(block);
        freeable_block_count--;
        release_block(block);
      }
    }
  }
}
// [end marker: garbage_collect]

// [marker: events]
DeviceEvent DeviceCachingAllocator::create_event_internal() {
  if (!event_pool_.empty()) {
    DeviceEvent e = event_pool_.back();
    event_pool_.pop_back();
    return e;
  }
  return runtime_->createEvent();
}

void DeviceCachingAllocator::insert_events(Block* block) {
  std::unordered_set<DeviceStream> streams(std::move(block->stream_uses));
  block->stream_uses.clear();
  for (DeviceStream stream : streams) {
    DeviceEvent event = create_event_internal();
    runtime_->recordEvent(event, stream);
    block->event_count++;
    cuda_events_[stream].emplace_back(event, block);
  }
}

// Reclaim freed blocks whose events have all completed. Each stream's events complete in
// order, so the first one not done stops that stream's queue.
void DeviceCachingAllocator::process_events() {
  for (auto it = cuda_events_.begin(); it != cuda_events_.end();) {
    while (!it->second.empty()) {
      auto& [event, block] = it->second.front();
      if (!runtime_->queryEvent(event)) {
        break;
      }
      event_pool_.push_back(event);
      Block* done = block;
      it->second.pop_front();
      if (--done->event_count == 0) {
        free_block(done);
      }
    }
    it = it->second.empty() ? cuda_events_.erase(it) : std::next(it);
  }
}

void DeviceCachingAllocator::synchronize_and_free_events() {
  for (auto& [stream, events] : cuda_events_) {
    for (auto& [event, block] : events) {
      runtime_->synchronizeEvent(event);
      event_pool_.push_back(event);
      if (--block->event_count == 0) {
        free_block(block);
      }
    }
  }
  cuda_events_.clear();
  stats_.num_sync_all_streams += 1;
}
// [end marker: events]

void DeviceCachingAllocator::emptyCache() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  release_cached_blocks();
}

DeviceStats DeviceCachingAllocator::getStats() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return stats_;
}

void DeviceCachingAllocator::resetAccumulatedStats() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  for (StatArray* array : {&stats_.allocation, &stats_.segment, &stats_.active, &stats_.inactive_split,
                           &stats_.allocated_bytes, &stats_.reserved_bytes, &stats_.active_bytes,
                           &stats_.inactive_split_bytes, &stats_.requested_bytes}) {
    for (Stat& stat : *array) stat.reset_accumulated();
  }
  stats_.num_alloc_retries = 0;
  stats_.num_ooms = 0;
  stats_.num_sync_all_streams = 0;
  stats_.num_device_alloc = 0;
  stats_.num_device_free = 0;
  stats_.oversize_allocations.reset_accumulated();
  stats_.oversize_segments.reset_accumulated();
}

void DeviceCachingAllocator::resetPeakStats() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  for (StatArray* array : {&stats_.allocation, &stats_.segment, &stats_.active, &stats_.inactive_split,
                           &stats_.allocated_bytes, &stats_.reserved_bytes, &stats_.active_bytes,
                           &stats_.inactive_split_bytes, &stats_.requested_bytes}) {
    for (Stat& stat : *array) stat.reset_peak();
  }
  stats_.oversize_allocations.reset_peak();
  stats_.oversize_segments.reset_peak();
}

// [marker: snapshot]
std::vector<SegmentInfo> DeviceCachingAllocator::snapshot() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::vector<const Block*> heads;
  auto add_head = [&](const Block* b) {
    if (b->prev == nullptr) heads.push_back(b);
  };
  for (const Block* b : large_blocks_.blocks) add_head(b);
  for (const Block* b : small_blocks_.blocks) add_head(b);
  for (const Block* b : active_blocks_) add_head(b);

  std::vector<SegmentInfo> result;
  for (const Block* head : heads) {
    SegmentInfo segment;
    segment.device = head->device;
    segment.address = reinterpret_cast<uintptr_t>(head->ptr);
    segment.stream = head->stream;
    segment.is_large = !head->pool->is_small;
    for (const Block* block = head; block != nullptr; block = block->next) {
      BlockInfo info;
      info.address = reinterpret_cast<uintptr_t>(block->ptr);
      info.size = block->size;
      info.requested_size = block->requested_size;
      info.allocated = block->allocated;
      info.active = block->allocated || block->event_count > 0 || !block->stream_uses.empty();
      segment.total_size += info.size;
      if (info.allocated) segment.allocated_size += info.size;
      if (info.active) {
        segment.active_size += info.size;
        segment.requested_size += info.requested_size;
      }
      segment.blocks.push_back(info);
    }
    result.push_back(std::move(segment));
  }
  std::sort(result.begin(), result.end(),
            [](const SegmentInfo& a, const SegmentInfo& b) { return a.address < b.address; });
  return result;
}
// [end marker: snapshot]

void DeviceCachingAllocator::setMemoryFraction(double fraction) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  TORCH_CHECK_VALUE(fraction >= 0 && fraction <= 1, "Invalid fraction value: ", fraction, ". Allowed range: 0~1");
  size_t device_free = 0, device_total = 0;
  runtime_->memGetInfo(&device_free, &device_total);
  allowed_memory_maximum_ = static_cast<size_t>(fraction * static_cast<double>(device_total));
  set_fraction_ = true;
  fraction_ = fraction;
}

double DeviceCachingAllocator::getMemoryFraction() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return fraction_;
}

void DeviceCachingAllocator::setAllocatorSettings(const std::string& settings) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  AllocatorConfig parsed = config_;
  parsed.parseArgs(settings);  // on error nothing changes
  config_ = parsed;
  stats_.max_split_size = static_cast<int64_t>(config_.max_split_size());
}

AllocatorConfig DeviceCachingAllocator::config() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  return config_;
}

void DeviceCachingAllocator::recordHistory(bool enabled, size_t max_entries) {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  record_history_ = enabled && max_entries > 0;
  max_entries_ = record_history_ ? max_entries : 0;
  trace_.clear();
  trace_next_ = 0;
}

void DeviceCachingAllocator::record_trace(TraceEntry::Action action, uintptr_t addr, size_t size,
                                          DeviceStream stream) {
  if (!record_history_) {
    return;
  }
  TraceEntry entry{action, addr, size, stream, now_us() - start_us_};
  if (trace_.size() < max_entries_) {
    trace_.push_back(entry);
  } else {
    trace_[trace_next_] = entry;  // ring buffer: overwrite the oldest
    trace_next_ = (trace_next_ + 1) % max_entries_;
  }
}

std::vector<TraceEntry> DeviceCachingAllocator::trace() {
  std::lock_guard<std::recursive_mutex> lock(mutex_);
  std::vector<TraceEntry> ordered(trace_.begin() + static_cast<std::ptrdiff_t>(trace_next_), trace_.end());
  ordered.insert(ordered.end(), trace_.begin(), trace_.begin() + static_cast<std::ptrdiff_t>(trace_next_));
  return ordered;
}

}  // namespace c10::cuda::CUDACachingAllocator
