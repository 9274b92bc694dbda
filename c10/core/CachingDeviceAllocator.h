// c10/core/CachingDeviceAllocator.h - the statistics a caching device allocator keeps.
// Mirrors PyTorch's c10/core/CachingDeviceAllocator.h (Stat, StatType, DeviceStats).
// Guide: docs/source/internals/cuda_caching_allocator.rst.
//
// Every counter exists three times: for all blocks, for the small pool (<= 1 MiB) and for
// the large pool. torch.cuda.memory_stats() flattens them into keys such as
// "allocated_bytes.all.current" or "segment.large_pool.peak".
#pragma once

#include <c10/macros/Macros.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace c10::CachingAllocator {

// [marker: Stat]
struct Stat {
  int64_t current = 0;    // now
  int64_t peak = 0;       // highest `current` since the last reset_peak
  int64_t allocated = 0;  // total ever added (since reset_accumulated)
  int64_t freed = 0;      // total ever removed

  void increase(size_t amount) {
    current += static_cast<int64_t>(amount);
    peak = std::max(current, peak);
    allocated += static_cast<int64_t>(amount);
  }
  void decrease(size_t amount) {
    current -= static_cast<int64_t>(amount);
    freed += static_cast<int64_t>(amount);
  }
  void reset_accumulated() {
    allocated = 0;
    freed = 0;
  }
  void reset_peak() { peak = current; }
};
// [end marker: Stat]

enum struct StatType : uint64_t {
  AGGREGATE = 0,   // "all"
  SMALL_POOL = 1,  // "small_pool"
  LARGE_POOL = 2,  // "large_pool"
  NUM_TYPES = 3
};

constexpr size_t kNumStatTypes = static_cast<size_t>(StatType::NUM_TYPES);
using StatArray = std::array<Stat, kNumStatTypes>;
// Which of the three a change applies to: always AGGREGATE, plus the block's pool.
using StatTypes = std::array<bool, kNumStatTypes>;

template <typename Func>
void for_each_selected_stat_type(const StatTypes& stat_types, Func f) {
  for (size_t stat_type = 0; stat_type < stat_types.size(); ++stat_type) {
    if (stat_types[stat_type]) {
      f(stat_type);
    }
  }
}

// [marker: DeviceStats]
struct DeviceStats {
  StatArray allocation;            // blocks handed out by malloc and not yet freed
  StatArray segment;               // device allocations (cudaMalloc) held
  StatArray active;                // allocated blocks + freed blocks waiting for stream events
  StatArray inactive_split;        // free blocks that are pieces of a split segment
  StatArray allocated_bytes;       // bytes in `allocation` blocks (rounded block sizes)
  StatArray reserved_bytes;        // bytes in `segment`s: what the device has given us
  StatArray active_bytes;
  StatArray inactive_split_bytes;
  StatArray requested_bytes;       // bytes callers asked for (before rounding)

  int64_t num_alloc_retries = 0;     // device allocations retried after freeing the cache
  int64_t num_ooms = 0;              // OutOfMemoryErrors raised
  int64_t num_sync_all_streams = 0;  // times every pending event was waited for
  int64_t num_device_alloc = 0;      // cudaMalloc calls
  int64_t num_device_free = 0;       // cudaFree calls

  Stat oversize_allocations;  // allocations >= max_split_size
  Stat oversize_segments;     // segments >= max_split_size
  int64_t max_split_size = 0;
};
// [end marker: DeviceStats]

// "512 bytes", "2.00 MiB", "1.50 GiB": sizes as PyTorch prints them in messages.
C10_API std::string format_size(uint64_t size);

}  // namespace c10::CachingAllocator
