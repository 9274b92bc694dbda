// c10/cuda/CUDACachingAllocator.h - the CUDA caching allocator's policy, one object per device.
// Mirrors PyTorch's c10/cuda/CUDACachingAllocator.{h,cpp} (DeviceCachingAllocator, Block,
// BlockPool). Guide: docs/source/internals/cuda_caching_allocator.rst.
//
// Seed 000 quotes the rules this class implements:
//  - Allocations are associated with a stream. Once freed, blocks can be re-allocated on
//    the same stream, but not on any other stream.
//  - The allocator finds the smallest cached block that fits (best fit). A larger block
//    may be split. If none fits, it asks the device (cudaMalloc).
//  - If that fails, it frees all cached blocks that are not split and retries.
//  - Large (> 1 MiB) and small allocations live in separate pools. Small requests are
//    packed into 2 MiB segments; requests between 1 and 10 MiB get 20 MiB segments;
//    larger ones are rounded up to a multiple of 2 MiB.
// The policy talks to the device only through DeviceRuntime, so it runs unchanged on the
// CUDA runtime and on the simulated device. It is compiled into libc10 whether or not CUDA
// is built; the CUDA-only parts of c10/cuda live in libc10_cuda.
#pragma once

#include <c10/core/AllocatorConfig.h>
#include <c10/core/CachingDeviceAllocator.h>
#include <c10/cuda/impl/DeviceRuntime.h>
#include <c10/macros/Macros.h>

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace c10::cuda::CUDACachingAllocator {

using namespace c10::CachingAllocator;

struct Block;
struct BlockPool;

/// The unit of the caching allocator's bookkeeping (PyTorch keeps it in
/// c10/cuda/CUDACachingAllocator.cpp): a piece of device memory, handed out or cached.
/// DeviceCachingAllocator owns every Block; a free one sits in its BlockPool.
// [marker: Block]
/// A piece of a segment (one device allocation). A segment starts as one Block; splitting
/// cuts it into neighbours linked by prev/next, and freeing merges free neighbours back.
struct Block {
  int device;
  DeviceStream stream;                ///< the stream it was allocated on: reused only there
  std::unordered_set<DeviceStream> stream_uses;  ///< other streams that used it (recordStream)
  size_t size;                        ///< block size in bytes (rounded)
  size_t requested_size = 0;          ///< what the caller asked for
  BlockPool* pool;                    ///< the pool it returns to when free
  void* ptr;
  bool allocated = false;             ///< handed out and not yet freed
  Block* prev = nullptr;              ///< neighbours within the segment
  Block* next = nullptr;
  int event_count = 0;                ///< outstanding stream events before it can be reused
  int64_t gc_count_base = 0;          ///< pool's free-block call count when it was freed

  Block(int device, DeviceStream stream, size_t size, BlockPool* pool, void* ptr)
      : device(device), stream(stream), size(size), pool(pool), ptr(ptr) {}
  /// A search key for std::set::lower_bound.
  Block(int device, DeviceStream stream, size_t size)
      : device(device), stream(stream), size(size), pool(nullptr), ptr(nullptr) {}

  /// Part of a segment that was split (has a neighbour).
  bool is_split() const { return prev != nullptr || next != nullptr; }
};

// Free blocks ordered by (stream, size, address): lower_bound on a key (stream, size) finds
// the smallest block of that stream that is large enough, i.e. the best fit.
bool BlockComparatorSize(const Block* a, const Block* b);

/// The free blocks of one size class (small or large), ordered for best-fit search.
struct BlockPool {
  explicit BlockPool(bool small) : blocks(BlockComparatorSize), is_small(small) {}
  std::set<Block*, bool (*)(const Block*, const Block*)> blocks;
  const bool is_small;
  int64_t get_free_blocks_call_count = 0;  ///< the clock of the garbage collector's ages
};
// [end marker: Block]

// What memory_snapshot() reports, per block and per segment.
struct BlockInfo {
  uintptr_t address = 0;
  size_t size = 0;
  size_t requested_size = 0;
  bool allocated = false;
  bool active = false;  // allocated, or freed but still waiting for stream events
  // "active_allocated", "active_pending_free" or "inactive".
  const char* state() const {
    return allocated ? "active_allocated" : (active ? "active_pending_free" : "inactive");
  }
};

struct SegmentInfo {
  int device = 0;
  uintptr_t address = 0;
  size_t total_size = 0;
  size_t requested_size = 0;  // over active blocks
  size_t allocated_size = 0;
  size_t active_size = 0;
  DeviceStream stream = 0;
  bool is_large = false;
  std::vector<BlockInfo> blocks;
};

// One line of the allocation history (torch.cuda.memory._record_memory_history).
struct TraceEntry {
  enum Action {
    ALLOC,           // malloc returned a block
    FREE_REQUESTED,  // free called; the block may still wait for stream events
    FREE_COMPLETED,  // the block is back in its pool
    SEGMENT_ALLOC,   // the device gave a new segment (cudaMalloc)
    SEGMENT_FREE,    // a segment went back to the device (cudaFree)
    OOM,             // malloc raised OutOfMemoryError
  };
  Action action;
  uintptr_t addr;
  size_t size;
  DeviceStream stream;
  uint64_t time_us;  // microseconds since the allocator was created
};
C10_API const char* toString(TraceEntry::Action action);

/// The caching allocator of one device (PyTorch's DeviceCachingAllocator, in
/// c10/cuda/CUDACachingAllocator.cpp).
/// It owns every Block it carved from its segments and its two free pools (small and large),
/// keeps freed blocks cached for reuse on the same stream instead of returning them to the
/// device, and talks to the device only through the DeviceRuntime it borrows.
class C10_API DeviceCachingAllocator {
 public:
  /// The runtime is borrowed and must outlive the allocator.
  explicit DeviceCachingAllocator(DeviceRuntime* runtime);
  ~DeviceCachingAllocator();
  C10_DISABLE_COPY_AND_ASSIGN(DeviceCachingAllocator);

  /// A block of at least `size` bytes usable on `stream`; size 0 gives nullptr. Raises
  /// c10::OutOfMemoryError when even freeing the whole cache does not make room.
  void* allocate(size_t size, DeviceStream stream);
  /// Give a pointer from allocate() back. Unknown pointers: "invalid device pointer: <ptr>".
  void deallocate(void* ptr);
  /// `ptr` is being used on `stream` too: when freed, it waits for that stream's work.
  void recordStream(void* ptr, DeviceStream stream);
  /// Return every cached (free, unsplit) segment to the device, after waiting for all
  /// pending stream events (torch.cuda.empty_cache()).
  void emptyCache();

  /// The counters torch.cuda.memory_stats() reports.
  DeviceStats getStats();
  void resetAccumulatedStats();
  void resetPeakStats();
  /// Every segment and its blocks (torch.cuda.memory_snapshot()).
  std::vector<SegmentInfo> snapshot();

  /// Cap the memory this allocator may hold at fraction * total device memory.
  void setMemoryFraction(double fraction);
  double getMemoryFraction();
  /// Parse a PYTORCH_CUDA_ALLOC_CONF-style string (see AllocatorConfig).
  void setAllocatorSettings(const std::string& settings);
  AllocatorConfig config();

  /// Keep the last max_entries allocator events (0 entries or enabled=false: stop).
  void recordHistory(bool enabled, size_t max_entries);
  /// The events recorded since recordHistory() enabled it.
  std::vector<TraceEntry> trace();

  /// The rounding rules, exposed for tests and the guide.
  size_t round_size(size_t size);
  /// The segment size for a request: 2 MiB, 20 MiB, or rounded up to 2 MiB.
  static size_t get_allocation_size(size_t size);

  int device() const { return device_; }
  DeviceRuntime* runtime() const { return runtime_; }

 private:
  struct AllocParams {
    AllocParams(int device, size_t size, DeviceStream stream, BlockPool* pool, size_t alloc_size)
        : search_key(device, stream, size), pool(pool), alloc_size(alloc_size) {}
    DeviceStream stream() const { return search_key.stream; }
    size_t size() const { return search_key.size; }

    Block search_key;
    BlockPool* pool;
    size_t alloc_size;
    Block* block = nullptr;
    StatTypes stat_types = {false};
  };

  Block* malloc(size_t orig_size, DeviceStream stream);
  void free(Block* block);
  [[noreturn]] void raiseOutOfMemory(const AllocParams& params);

  BlockPool& get_pool(size_t size) { return size <= kSmallSize ? small_blocks_ : large_blocks_; }
  StatTypes get_stat_types_for_pool(const BlockPool& pool);
  bool get_free_block(AllocParams& p);
  bool should_split(const Block* block, size_t size);
  Block* alloc_found_block(AllocParams& params, size_t orig_size, bool split_remainder);
  bool alloc_block(AllocParams& p, bool isRetry);
  void free_block(Block* block);
  size_t try_merge_blocks(Block* dst, Block* src, BlockPool& pool);
  bool release_available_cached_blocks(const AllocParams& p);
  bool release_cached_blocks();
  void release_blocks(BlockPool& pool);
  void release_block(Block* block);
  void garbage_collect_cached_blocks();
  void insert_events(Block* block);
  void process_events();
  void synchronize_and_free_events();
  DeviceEvent create_event_internal();
  void record_trace(TraceEntry::Action action, uintptr_t addr, size_t size, DeviceStream stream);

  DeviceRuntime* runtime_;
  const int device_;
  // Recursive: emptyCache and the OOM path call other locked members.
  std::recursive_mutex mutex_;
  DeviceStats stats_;
  AllocatorConfig config_;
  BlockPool large_blocks_{false};  // free blocks of more than 1 MiB
  BlockPool small_blocks_{true};   // free blocks of at most 1 MiB
  std::unordered_set<Block*> active_blocks_;
  std::unordered_map<void*, Block*> allocated_blocks_;  // ptr -> its allocated Block
  // Per stream, the events recorded for freed blocks, oldest first.
  std::map<DeviceStream, std::deque<std::pair<DeviceEvent, Block*>>> cuda_events_;
  std::vector<DeviceEvent> event_pool_;  // events ready for reuse
  size_t total_allocated_memory_ = 0;    // bytes in segments held from the device
  size_t allowed_memory_maximum_ = 0;
  bool set_fraction_ = false;
  double fraction_ = 1.0;
  // PYTORCH_NO_CUDA_MEMORY_CACHING: every allocation goes straight to the device.
  bool caching_disabled_ = false;
  std::unordered_map<void*, size_t> uncached_blocks_;
  // History ring buffer.
  bool record_history_ = false;
  size_t max_entries_ = 0;
  size_t trace_next_ = 0;
  std::vector<TraceEntry> trace_;
  uint64_t start_us_ = 0;
};

// PYTORCH_ALLOC_CONF, else PYTORCH_CUDA_ALLOC_CONF, else "" (read at each call).
C10_API std::string allocatorSettingsFromEnv();

}  // namespace c10::cuda::CUDACachingAllocator
