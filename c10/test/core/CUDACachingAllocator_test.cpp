// Tests the caching allocator's policy (rounding, best fit, split/merge, streams, retry, OOM, stats, history) on a SimulatedDevice.
// Mirrors PyTorch's c10/cuda/CUDACachingAllocator.cpp rules and test/test_cuda.py memory tests. Guide: docs/source/internals/cuda_caching_allocator.rst
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/impl/SimulatedDevice.h>
#include <c10/util/Exception.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace c10::cuda::CUDACachingAllocator;
using c10::CachingAllocator::DeviceStats;
using c10::CachingAllocator::kMB;
using c10::CachingAllocator::StatArray;

namespace {

constexpr size_t kAll = 0, kSmall = 1, kLarge = 2;  // StatType order
constexpr size_t kGiB = 1024 * kMB;

const char* const kOomSuffix =
    " If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to "
    "avoid fragmentation.  See documentation for Memory Management  "
    "(https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)";

// The environment variables the allocator reads when it is constructed; tests start without them.
void clearAllocatorEnv() {
  unsetenv("PYTORCH_ALLOC_CONF");
  unsetenv("PYTORCH_CUDA_ALLOC_CONF");
  unsetenv("PYTORCH_NO_CUDA_MEMORY_CACHING");
}

// A device and the allocator on it, like torch.cuda.memory.CachingAllocatorSimulator.
struct Sim {
  explicit Sim(size_t capacity) : device((clearAllocatorEnv(), capacity)), allocator(&device) {}
  SimulatedDevice device;
  DeviceCachingAllocator allocator;

  uintptr_t alloc(size_t size, DeviceStream stream = 0) {
    return reinterpret_cast<uintptr_t>(allocator.allocate(size, stream));
  }
  void free(uintptr_t ptr) { allocator.deallocate(reinterpret_cast<void*>(ptr)); }
};

// The nine per-pool counters, in the order PyTorch's DeviceStats declares them.
struct PoolStats {
  int64_t allocation, segment, active, inactive_split;
  int64_t allocated_bytes, reserved_bytes, active_bytes, inactive_split_bytes, requested_bytes;
};

PoolStats current(const DeviceStats& s, size_t pool) {
  return {s.allocation[pool].current,      s.segment[pool].current,        s.active[pool].current,
          s.inactive_split[pool].current,  s.allocated_bytes[pool].current, s.reserved_bytes[pool].current,
          s.active_bytes[pool].current,    s.inactive_split_bytes[pool].current,
          s.requested_bytes[pool].current};
}

#define EXPECT_POOL_STATS(stats, pool, ...)                                                          \
  do {                                                                                              \
    const PoolStats expected_ = __VA_ARGS__;                                                        \
    const PoolStats got_ = current(stats, pool);                                                    \
    EXPECT_EQ(got_.allocation, expected_.allocation) << "allocation, pool " << pool;                \
    EXPECT_EQ(got_.segment, expected_.segment) << "segment, pool " << pool;                         \
    EXPECT_EQ(got_.active, expected_.active) << "active, pool " << pool;                            \
    EXPECT_EQ(got_.inactive_split, expected_.inactive_split) << "inactive_split, pool " << pool;    \
    EXPECT_EQ(got_.allocated_bytes, expected_.allocated_bytes) << "allocated_bytes, pool " << pool; \
    EXPECT_EQ(got_.reserved_bytes, expected_.reserved_bytes) << "reserved_bytes, pool " << pool;    \
    EXPECT_EQ(got_.active_bytes, expected_.active_bytes) << "active_bytes, pool " << pool;          \
    EXPECT_EQ(got_.inactive_split_bytes, expected_.inactive_split_bytes)                            \
        << "inactive_split_bytes, pool " << pool;                                                   \
    EXPECT_EQ(got_.requested_bytes, expected_.requested_bytes) << "requested_bytes, pool " << pool; \
  } while (0)

template <typename Fn>
std::string errorMessage(Fn&& fn) {
  try {
    fn();
  } catch (const c10::Error& e) {
    return e.msg();
  }
  return "<no exception>";
}

template <typename Fn>
std::string oomMessage(Fn&& fn) {
  try {
    fn();
  } catch (const c10::OutOfMemoryError& e) {
    return e.msg();
  }
  return "<no OutOfMemoryError>";
}

}  // namespace

// ---- size functions --------------------------------------------------------------------

TEST(CUDACachingAllocatorSizes, RoundSizeRoundsUpToMultiplesOf512) {
  Sim sim(kGiB);
  EXPECT_EQ(sim.allocator.round_size(1), 512u);
  EXPECT_EQ(sim.allocator.round_size(511), 512u);
  EXPECT_EQ(sim.allocator.round_size(512), 512u);
  EXPECT_EQ(sim.allocator.round_size(513), 1024u);
  EXPECT_EQ(sim.allocator.round_size(1200), 1536u);
  EXPECT_EQ(sim.allocator.round_size(84 * kMB), 84 * kMB);
  EXPECT_EQ(sim.allocator.round_size(11 * kMB + 1), 11534848u);
}

TEST(CUDACachingAllocatorSizes, RoundSizeWithPower2DivisionsRoundsToTheNextDivision) {
  Sim sim(kGiB);
  sim.allocator.setAllocatorSettings("roundup_power2_divisions:4");
  // Divisions apply only when size > 512 * divisions: 1200 <= 2048 still rounds to 512s.
  // (roundup_power2_next_division(1200, 4) alone would give 1280.)
  EXPECT_EQ(sim.allocator.round_size(1200), 1536u);
  // Sizes under 1 MiB use interval 0: 4500 is between 4096 and 8192, steps of 1024.
  EXPECT_EQ(sim.allocator.round_size(4500), 5120u);
  EXPECT_EQ(sim.allocator.round_size(1 * kMB + 1), 1310720u);  // 1 MiB + one 256 KiB step
  EXPECT_EQ(sim.allocator.round_size(84 * kMB), 96 * kMB);      // 64 MiB + two 16 MiB steps
  EXPECT_EQ(sim.allocator.round_size(64 * kMB), 64 * kMB);      // powers of two stay
  sim.allocator.setAllocatorSettings("roundup_power2_divisions:2");
  EXPECT_EQ(sim.allocator.round_size(2500), 3072u);  // 2048 + one 1024 step (plain rounding: 2560)
  sim.allocator.setAllocatorSettings("");
  EXPECT_EQ(sim.allocator.round_size(2500), 2560u);
  EXPECT_EQ(sim.allocator.round_size(84 * kMB), 84 * kMB);
}

TEST(CUDACachingAllocatorSizes, GetAllocationSizePicksTheSegmentSize) {
  EXPECT_EQ(DeviceCachingAllocator::get_allocation_size(512), 2 * kMB);
  EXPECT_EQ(DeviceCachingAllocator::get_allocation_size(1 * kMB), 2 * kMB);
  EXPECT_EQ(DeviceCachingAllocator::get_allocation_size(1 * kMB + 1), 20 * kMB);
  EXPECT_EQ(DeviceCachingAllocator::get_allocation_size(10 * kMB - 512), 20 * kMB);
  EXPECT_EQ(DeviceCachingAllocator::get_allocation_size(10 * kMB), 10 * kMB);
  EXPECT_EQ(DeviceCachingAllocator::get_allocation_size(11534848), 12 * kMB);  // round_size(11 MiB + 1)
}

// ---- worked examples of the size functions (round_size, segment sizes) --------------------

TEST(CUDACachingAllocatorWorkedExamples, FourBytesTake512BytesFromANew2MiBSegment) {
  Sim sim(kGiB);
  const uintptr_t p = sim.alloc(4);
  const DeviceStats s = sim.allocator.getStats();
  EXPECT_POOL_STATS(s, kSmall, {1, 1, 1, 1, 512, 2 * kMB, 512, 2 * kMB - 512, 4});
  EXPECT_POOL_STATS(s, kAll, {1, 1, 1, 1, 512, 2 * kMB, 512, 2 * kMB - 512, 4});
  EXPECT_POOL_STATS(s, kLarge, {0, 0, 0, 0, 0, 0, 0, 0, 0});
  const auto segments = sim.allocator.snapshot();
  ASSERT_EQ(segments.size(), 1u);
  EXPECT_EQ(segments[0].address, p);
  EXPECT_FALSE(segments[0].is_large);
  EXPECT_EQ(segments[0].total_size, 2 * kMB);
  ASSERT_EQ(segments[0].blocks.size(), 2u);
  EXPECT_EQ(segments[0].blocks[0].size, 512u);
  EXPECT_EQ(segments[0].blocks[0].requested_size, 4u);
  EXPECT_STREQ(segments[0].blocks[0].state(), "active_allocated");
  EXPECT_EQ(segments[0].blocks[1].address, p + 512);
  EXPECT_EQ(segments[0].blocks[1].size, 2 * kMB - 512);
  EXPECT_STREQ(segments[0].blocks[1].state(), "inactive");
  EXPECT_EQ(sim.device.used_memory(), 2 * kMB);
}

TEST(CUDACachingAllocatorWorkedExamples, OneMiBPlusOneTakes1049088BytesFromANew20MiBSegment) {
  Sim sim(kGiB);
  sim.alloc(kMB + 1);
  const DeviceStats s = sim.allocator.getStats();
  EXPECT_POOL_STATS(s, kLarge, {1, 1, 1, 1, 1049088, 20 * kMB, 1049088, 20 * kMB - 1049088, kMB + 1});
  EXPECT_POOL_STATS(s, kSmall, {0, 0, 0, 0, 0, 0, 0, 0, 0});
  const auto segments = sim.allocator.snapshot();
  ASSERT_EQ(segments.size(), 1u);
  EXPECT_TRUE(segments[0].is_large);
  ASSERT_EQ(segments[0].blocks.size(), 2u);
  EXPECT_EQ(segments[0].blocks[1].size, 20 * kMB - 1049088);
}

TEST(CUDACachingAllocatorWorkedExamples, TenMiBIsAnExactUnsplitSegment) {
  Sim sim(kGiB);
  sim.alloc(10 * kMB);
  EXPECT_POOL_STATS(sim.allocator.getStats(), kLarge, {1, 1, 1, 0, 10 * kMB, 10 * kMB, 10 * kMB, 0, 10 * kMB});
  const auto segments = sim.allocator.snapshot();
  ASSERT_EQ(segments.size(), 1u);
  EXPECT_EQ(segments[0].blocks.size(), 1u);
}

TEST(CUDACachingAllocatorWorkedExamples, ElevenMiBPlusOneKeepsTheWhole12MiBBlock) {
  // round_size = 11534848, segment 12582912; the 1048064-byte rest is <= 1 MiB: no split.
  Sim sim(kGiB);
  sim.alloc(11 * kMB + 1);
  const DeviceStats s = sim.allocator.getStats();
  EXPECT_POOL_STATS(s, kLarge, {1, 1, 1, 0, 12 * kMB, 12 * kMB, 12 * kMB, 0, 11 * kMB + 1});
  const auto segments = sim.allocator.snapshot();
  ASSERT_EQ(segments.size(), 1u);
  ASSERT_EQ(segments[0].blocks.size(), 1u);
  EXPECT_EQ(segments[0].blocks[0].size, 12 * kMB);
  EXPECT_EQ(segments[0].blocks[0].requested_size, 11 * kMB + 1);
  EXPECT_EQ(segments[0].requested_size, 11 * kMB + 1);
  EXPECT_EQ(segments[0].allocated_size, 12 * kMB);
}

// ---- best fit, split, merge -------------------------------------------------------------

TEST(CUDACachingAllocatorPolicy, BestFitReusesTheSmallestCachedLargeBlockThatFits) {
  Sim sim(kGiB);
  const uintptr_t a = sim.alloc(12 * kMB), b = sim.alloc(16 * kMB), c = sim.alloc(14 * kMB);
  sim.free(a);
  sim.free(b);
  sim.free(c);
  EXPECT_EQ(sim.alloc(13 * kMB), c);  // 14 MiB: the rest (1 MiB) is too small to split off
  EXPECT_EQ(sim.alloc(11 * kMB), a);
  EXPECT_EQ(sim.alloc(15 * kMB), b);
  const DeviceStats s = sim.allocator.getStats();
  EXPECT_EQ(s.num_device_alloc, 3);
  EXPECT_EQ(s.allocated_bytes[kAll].current, int64_t(42 * kMB));  // whole blocks
  EXPECT_EQ(s.requested_bytes[kAll].current, int64_t(39 * kMB));
}

TEST(CUDACachingAllocatorPolicy, BestFitInsideASmallSegment) {
  Sim sim(kGiB);
  // Free blocks of 1024, 3072 and 2048 bytes, kept apart by allocated 512-byte blocks.
  const uintptr_t p1 = sim.alloc(1000);
  sim.alloc(512);
  const uintptr_t p3 = sim.alloc(3000);
  sim.alloc(512);
  const uintptr_t p5 = sim.alloc(2048);
  sim.alloc(512);
  sim.free(p1);
  sim.free(p3);
  sim.free(p5);
  EXPECT_EQ(sim.alloc(1800), p5);  // 2048 fits exactly
  EXPECT_EQ(sim.alloc(900), p1);   // 1024
  EXPECT_EQ(sim.alloc(2100), p3);  // 2560 from the 3072 block; 512 stays free
  EXPECT_EQ(sim.allocator.getStats().num_device_alloc, 1);
}

TEST(CUDACachingAllocatorPolicy, FreedNeighboursMergeBackIntoOneBlock) {
  Sim sim(kGiB);
  const uintptr_t a = sim.alloc(512), b = sim.alloc(512), c = sim.alloc(512);
  EXPECT_EQ(b, a + 512);
  EXPECT_EQ(c, a + 1024);
  EXPECT_EQ(sim.allocator.getStats().inactive_split[kSmall].current, 1);  // the tail
  sim.free(b);  // neighbours allocated: nothing to merge
  auto s = sim.allocator.getStats();
  EXPECT_EQ(s.inactive_split[kSmall].current, 2);
  EXPECT_EQ(s.inactive_split_bytes[kSmall].current, int64_t(2 * kMB - 1536 + 512));
  sim.free(a);  // a absorbs b
  s = sim.allocator.getStats();
  EXPECT_EQ(s.inactive_split[kSmall].current, 2);
  EXPECT_EQ(s.inactive_split_bytes[kSmall].current, int64_t(2 * kMB - 512));
  sim.free(c);  // c absorbs a+b and the tail: the segment is one block again
  s = sim.allocator.getStats();
  EXPECT_EQ(s.inactive_split[kSmall].current, 0);
  EXPECT_EQ(s.inactive_split_bytes[kSmall].current, 0);
  const auto segments = sim.allocator.snapshot();
  ASSERT_EQ(segments.size(), 1u);
  ASSERT_EQ(segments[0].blocks.size(), 1u);
  EXPECT_EQ(segments[0].blocks[0].address, a);
  EXPECT_EQ(segments[0].blocks[0].size, 2 * kMB);
  EXPECT_STREQ(segments[0].blocks[0].state(), "inactive");
}

// ---- streams ----------------------------------------------------------------------------

TEST(CUDACachingAllocatorStreams, ABlockFreedOnOneStreamIsNotReusedOnAnother) {
  Sim sim(kGiB);
  const uintptr_t p = sim.alloc(512, /*stream=*/1);
  sim.free(p);
  const uintptr_t q = sim.alloc(512, /*stream=*/2);
  EXPECT_NE(q, p);
  EXPECT_EQ(sim.allocator.getStats().segment[kAll].current, 2);  // stream 2 got its own segment
  EXPECT_EQ(sim.alloc(512, /*stream=*/1), p);
  const auto segments = sim.allocator.snapshot();
  ASSERT_EQ(segments.size(), 2u);
  EXPECT_EQ(segments[0].stream, 1u);
  EXPECT_EQ(segments[1].stream, 2u);
}

TEST(CUDACachingAllocatorStreams, RecordStreamDefersReuseUntilThatStreamIsSynchronized) {
  // test_record_stream: a different pointer while the other stream is busy, the same after.
  Sim sim(kGiB);
  const uintptr_t p = sim.alloc(4096, /*stream=*/0);
  sim.allocator.recordStream(reinterpret_cast<void*>(p), /*stream=*/1);
  sim.free(p);
  auto s = sim.allocator.getStats();
  EXPECT_EQ(s.allocation[kAll].current, 0);
  EXPECT_EQ(s.allocated_bytes[kAll].current, 0);
  EXPECT_EQ(s.active[kAll].current, 1);  // still active: pending free
  EXPECT_EQ(s.active_bytes[kAll].current, 4096);
  EXPECT_EQ(s.requested_bytes[kAll].current, 4096);
  auto segments = sim.allocator.snapshot();
  ASSERT_EQ(segments.size(), 1u);
  EXPECT_STREQ(segments[0].blocks[0].state(), "active_pending_free");
  EXPECT_EQ(segments[0].active_size, 4096u);
  EXPECT_EQ(segments[0].allocated_size, 0u);

  const uintptr_t q = sim.alloc(4096, 0);
  EXPECT_NE(q, p);
  sim.free(q);
  sim.device.synchronizeStream(1);
  EXPECT_EQ(sim.alloc(4096, 0), p);
  s = sim.allocator.getStats();
  EXPECT_EQ(s.active[kAll].current, 1);
  EXPECT_EQ(s.num_sync_all_streams, 0);  // process_events, not a global sync
}

TEST(CUDACachingAllocatorStreams, SynchronizingAnotherStreamDoesNotReleaseThePendingBlock) {
  Sim sim(kGiB);
  const uintptr_t p = sim.alloc(4096, 0);
  sim.allocator.recordStream(reinterpret_cast<void*>(p), 1);
  sim.allocator.recordStream(reinterpret_cast<void*>(p), 2);
  sim.free(p);
  sim.device.synchronizeStream(1);
  EXPECT_NE(sim.alloc(4096, 0), p);  // stream 2 still has to pass the free
  EXPECT_STREQ(sim.allocator.snapshot()[0].blocks[0].state(), "active_pending_free");
  sim.device.synchronizeStream(2);
  EXPECT_EQ(sim.alloc(4096, 0), p);  // back in the pool, and the best fit
}

TEST(CUDACachingAllocatorStreams, RecordStreamOnTheAllocationStreamIsIgnored) {
  Sim sim(kGiB);
  const uintptr_t p = sim.alloc(4096, 1);
  sim.allocator.recordStream(reinterpret_cast<void*>(p), 1);
  sim.free(p);
  EXPECT_EQ(sim.allocator.getStats().active[kAll].current, 0);
  EXPECT_EQ(sim.alloc(4096, 1), p);
}

TEST(CUDACachingAllocatorStreams, EmptyCacheWaitsForPendingEventsAndFreesEverything) {
  Sim sim(kGiB);
  const uintptr_t p = sim.alloc(4096, 0);
  sim.allocator.recordStream(reinterpret_cast<void*>(p), 1);
  sim.free(p);
  sim.allocator.emptyCache();
  const auto s = sim.allocator.getStats();
  EXPECT_EQ(s.active[kAll].current, 0);
  EXPECT_EQ(s.reserved_bytes[kAll].current, 0);
  EXPECT_EQ(s.num_sync_all_streams, 1);
  EXPECT_EQ(sim.device.used_memory(), 0u);
}

// ---- max_split_size_mb / max_non_split_rounding_mb --------------------------------------

TEST(CUDACachingAllocatorMaxSplitSize, BlocksOfAtLeastMaxSplitSizeAreNeverSplit) {
  Sim sim(kGiB);
  sim.allocator.setAllocatorSettings("max_split_size_mb:20");
  EXPECT_EQ(sim.allocator.getStats().max_split_size, int64_t(20 * kMB));
  sim.free(sim.alloc(30 * kMB));
  sim.alloc(25 * kMB);  // oversize request: takes the whole cached 30 MiB block (30 < 25 + 20)
  const DeviceStats s = sim.allocator.getStats();
  EXPECT_POOL_STATS(s, kLarge, {1, 1, 1, 0, 30 * kMB, 30 * kMB, 30 * kMB, 0, 25 * kMB});
  EXPECT_EQ(s.num_device_alloc, 1);
  EXPECT_EQ(s.oversize_allocations.current, 1);
  EXPECT_EQ(s.oversize_segments.current, 1);
}

TEST(CUDACachingAllocatorMaxSplitSize, AnOversizeCachedBlockIsNotGivenToASmallerRequest) {
  Sim sim(kGiB);
  sim.allocator.setAllocatorSettings("max_split_size_mb:20");
  const uintptr_t big = sim.alloc(30 * kMB);
  sim.free(big);
  const uintptr_t p = sim.alloc(12 * kMB);  // < max_split_size: needs its own segment
  EXPECT_NE(p, big);
  const DeviceStats s = sim.allocator.getStats();
  EXPECT_EQ(s.num_device_alloc, 2);
  EXPECT_EQ(s.segment[kLarge].current, 2);
  EXPECT_EQ(s.oversize_allocations.current, 0);
}

TEST(CUDACachingAllocatorMaxSplitSize, OversizeRequestReusesOnlyWithinMaxNonSplitRounding) {
  Sim sim(kGiB);
  sim.allocator.setAllocatorSettings("max_split_size_mb:20");
  const uintptr_t big = sim.alloc(60 * kMB);
  sim.free(big);
  const uintptr_t p40 = sim.alloc(40 * kMB);  // 60 >= 40 + 20: too wasteful, a new segment
  EXPECT_NE(p40, big);
  EXPECT_EQ(sim.allocator.getStats().num_device_alloc, 2);
  EXPECT_EQ(sim.alloc(41 * kMB), big);  // 60 < 41 + 20: reused whole
  EXPECT_EQ(sim.allocator.getStats().allocated_bytes[kAll].current, int64_t(100 * kMB));
  EXPECT_EQ(sim.allocator.getStats().num_device_alloc, 2);
}

TEST(CUDACachingAllocatorMaxSplitSize, MaxNonSplitRoundingWidensTheReuseWindow) {
  Sim sim(kGiB);
  sim.allocator.setAllocatorSettings("max_split_size_mb:20,max_non_split_rounding_mb:40");
  const uintptr_t big = sim.alloc(60 * kMB);
  sim.free(big);
  EXPECT_EQ(sim.alloc(30 * kMB), big);  // 60 < 30 + 40
}

TEST(CUDACachingAllocatorMaxSplitSize, OutOfMemoryReleasesOversizeCachedBlocksLargestFirst) {
  // release_available_cached_blocks: no cached block >= 35 MiB, so oversize ones are freed
  // from the largest down until 35 MiB are released; then cudaMalloc succeeds (no retry).
  Sim sim(100 * kMB);
  sim.allocator.setAllocatorSettings("max_split_size_mb:20");
  const uintptr_t a = sim.alloc(30 * kMB), b = sim.alloc(30 * kMB), c = sim.alloc(30 * kMB);
  sim.free(a);
  sim.free(b);
  sim.free(c);
  sim.alloc(35 * kMB);
  const DeviceStats s = sim.allocator.getStats();
  EXPECT_EQ(s.num_device_free, 2);
  EXPECT_EQ(s.num_alloc_retries, 0);
  EXPECT_EQ(s.segment[kLarge].current, 2);  // one cached 30 MiB + the new segment
  EXPECT_EQ(s.reserved_bytes[kLarge].current, int64_t(66 * kMB));  // 35 MiB -> a 36 MiB segment
  const auto segments = sim.allocator.snapshot();
  ASSERT_EQ(segments.size(), 2u);
  EXPECT_EQ(segments[0].address, a);  // equal sizes: the highest address goes first
}

// ---- retry, OOM, memory fraction --------------------------------------------------------

TEST(CUDACachingAllocatorOutOfMemory, MallocRetriesAfterFreeingTheCache) {
  Sim sim(64 * kMB);
  const uintptr_t a = sim.alloc(30 * kMB), b = sim.alloc(30 * kMB);
  sim.free(a);
  sim.free(b);
  sim.alloc(40 * kMB);  // no cached block fits, 4 MiB free on the device: free the cache, retry
  const DeviceStats s = sim.allocator.getStats();
  EXPECT_EQ(s.num_alloc_retries, 1);
  EXPECT_EQ(s.num_device_free, 2);
  EXPECT_EQ(s.num_device_alloc, 3);
  EXPECT_EQ(s.num_sync_all_streams, 1);
  EXPECT_EQ(s.num_ooms, 0);
  EXPECT_EQ(s.reserved_bytes[kAll].current, int64_t(40 * kMB));
}

TEST(CUDACachingAllocatorOutOfMemory, MessageNamesTheSegmentSizeAndTheDeviceState) {
  Sim sim(64 * kMB);
  sim.alloc(4);  // a split 2 MiB segment: reserved but unallocated, and not releasable
  const std::string msg = oomMessage([&] { sim.alloc(70 * kMB); });
  EXPECT_EQ(msg, std::string("CUDA out of memory. Tried to allocate 70.00 MiB. GPU 0 has a total capacity of "
                             "64.00 MiB of which 62.00 MiB is free. Of the allocated memory 512 bytes is "
                             "allocated by PyTorch, and 2.00 MiB is reserved by PyTorch but unallocated.") +
                     kOomSuffix);
  const DeviceStats s = sim.allocator.getStats();
  EXPECT_EQ(s.num_ooms, 1);
  EXPECT_EQ(s.num_alloc_retries, 1);
  EXPECT_EQ(s.reserved_bytes[kAll].current, int64_t(2 * kMB));
  // Still usable.
  sim.alloc(30 * kMB);
  EXPECT_EQ(sim.allocator.getStats().allocated_bytes[kAll].current, int64_t(30 * kMB + 512));
}

TEST(CUDACachingAllocatorOutOfMemory, SmallRequestsReportThe2MiBSegmentTheyNeeded) {
  Sim sim(3 * kMB);
  sim.alloc(kMB);
  sim.alloc(kMB);  // the other half of the same 2 MiB segment
  EXPECT_EQ(oomMessage([&] { sim.alloc(kMB); }),
            // format_size prints exactly 1 MiB as KiB: its tiers are "<= 1024", "<= 1 MiB", "<= 1 GiB".
            std::string("CUDA out of memory. Tried to allocate 2.00 MiB. GPU 0 has a total capacity of 3.00 MiB "
                        "of which 1024.00 KiB is free. Of the allocated memory 2.00 MiB is allocated by PyTorch, and "
                        "0 bytes is reserved by PyTorch but unallocated.") +
                kOomSuffix);
}

TEST(CUDACachingAllocatorOutOfMemory, OneToTenMiBRequestsNeedA20MiBSegment) {
  Sim sim(4 * kMB);
  const std::string msg = oomMessage([&] { sim.alloc(3 * kMB); });
  EXPECT_EQ(msg.rfind("CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 4.00 MiB "
                      "of which 4.00 MiB is free. ",
                      0),
            0u)
      << msg;
}

TEST(CUDACachingAllocatorOutOfMemory, MoreThanOneExbibyteIsRefusedBeforeRounding) {
  Sim sim(kGiB);
  EXPECT_EQ(oomMessage([&] { sim.alloc(size_t(1) << 60); }),
            "CUDA out of memory. Tried to allocate more than 1EB memory.");
  EXPECT_EQ(sim.allocator.getStats().num_ooms, 0);  // checked in allocate(), not malloc()
}

TEST(CUDACachingAllocatorOutOfMemory, MemoryFractionCapsWhatTheAllocatorMayHold) {
  Sim sim(100 * kMB);
  sim.allocator.setMemoryFraction(0.5);  // 50 MiB
  EXPECT_EQ(sim.allocator.getMemoryFraction(), 0.5);
  sim.alloc(30 * kMB);
  EXPECT_EQ(oomMessage([&] { sim.alloc(30 * kMB); }),
            std::string("CUDA out of memory. Tried to allocate 30.00 MiB. GPU 0 has a total capacity of 100.00 MiB "
                        "of which 70.00 MiB is free. 50.00 MiB allowed; Of the allocated memory 30.00 MiB is "
                        "allocated by PyTorch, and 0 bytes is reserved by PyTorch but unallocated.") +
                kOomSuffix);
  sim.alloc(20 * kMB);  // 30 + 20 == 50: exactly the cap is allowed
  EXPECT_EQ(sim.allocator.getStats().reserved_bytes[kAll].current, int64_t(50 * kMB));
  EXPECT_EQ(sim.allocator.getStats().num_ooms, 1);
}

TEST(CUDACachingAllocatorOutOfMemory, MemoryFractionOutsideZeroToOneIsAValueError) {
  Sim sim(kGiB);
  EXPECT_THROW(sim.allocator.setMemoryFraction(2.0), c10::ValueError);
  EXPECT_THROW(sim.allocator.setMemoryFraction(-0.1), c10::ValueError);
  EXPECT_EQ(errorMessage([&] { sim.allocator.setMemoryFraction(2.0); }),
            "Invalid fraction value: 2. Allowed range: 0~1");
}

TEST(CUDACachingAllocatorOutOfMemory, FreeingAnUnknownPointerIsAnError) {
  Sim sim(kGiB);
  const uintptr_t p = sim.alloc(512);
  EXPECT_EQ(errorMessage([&] { sim.free(p + 512); }), "invalid device pointer: " + c10::str(reinterpret_cast<void*>(p + 512)));
  sim.free(p);
  EXPECT_THROW(sim.free(p), c10::Error);  // double free
}

// ---- emptyCache -------------------------------------------------------------------------

TEST(CUDACachingAllocatorEmptyCache, ReleasesUnusedSegmentsAndKeepsThoseInUse) {
  Sim sim(kGiB);
  const uintptr_t a = sim.alloc(4);
  const uintptr_t b = sim.alloc(12 * kMB), c = sim.alloc(14 * kMB);
  sim.free(b);
  sim.free(c);
  sim.allocator.emptyCache();
  DeviceStats s = sim.allocator.getStats();
  EXPECT_EQ(s.reserved_bytes[kAll].current, int64_t(2 * kMB));  // a's segment stays
  EXPECT_EQ(s.segment[kAll].current, 1);
  EXPECT_EQ(s.num_device_free, 2);
  EXPECT_EQ(sim.device.used_memory(), 2 * kMB);
  sim.free(a);
  sim.allocator.emptyCache();
  s = sim.allocator.getStats();
  EXPECT_EQ(s.reserved_bytes[kAll].current, 0);
  EXPECT_EQ(s.segment[kAll].current, 0);
  EXPECT_EQ(s.reserved_bytes[kAll].peak, int64_t(28 * kMB));  // peaks survive
  EXPECT_EQ(sim.device.used_memory(), 0u);
  EXPECT_TRUE(sim.allocator.snapshot().empty());
}

// ---- stats ------------------------------------------------------------------------------

TEST(CUDACachingAllocatorStats, EveryCounterAfterEachStepOfAScript) {
  Sim sim(kGiB);
  const size_t b_size = 1049088;  // round_size(1 MiB + 1)
  const uintptr_t a = sim.alloc(4);
  EXPECT_POOL_STATS(sim.allocator.getStats(), kSmall, {1, 1, 1, 1, 512, 2 * kMB, 512, 2 * kMB - 512, 4});

  const uintptr_t c = sim.alloc(10 * kMB);
  DeviceStats s = sim.allocator.getStats();
  EXPECT_POOL_STATS(s, kLarge, {1, 1, 1, 0, 10 * kMB, 10 * kMB, 10 * kMB, 0, 10 * kMB});
  EXPECT_POOL_STATS(s, kAll, {2, 2, 2, 1, 10 * kMB + 512, 12 * kMB, 10 * kMB + 512, 2 * kMB - 512, 10 * kMB + 4});

  const uintptr_t b = sim.alloc(kMB + 1);
  s = sim.allocator.getStats();
  EXPECT_POOL_STATS(s, kLarge,
                    {2, 2, 2, 1, 10 * kMB + b_size, 30 * kMB, 10 * kMB + b_size, 20 * kMB - b_size, 11 * kMB + 1});
  EXPECT_POOL_STATS(s, kAll,
                    {3, 3, 3, 2, 10 * kMB + b_size + 512, 32 * kMB, 10 * kMB + b_size + 512,
                     22 * kMB - 512 - b_size, 11 * kMB + 5});

  sim.free(b);  // merges with its tail: the 20 MiB segment is whole (and cached) again
  s = sim.allocator.getStats();
  EXPECT_POOL_STATS(s, kLarge, {1, 2, 1, 0, 10 * kMB, 30 * kMB, 10 * kMB, 0, 10 * kMB});
  EXPECT_POOL_STATS(s, kAll, {2, 3, 2, 1, 10 * kMB + 512, 32 * kMB, 10 * kMB + 512, 2 * kMB - 512, 10 * kMB + 4});

  const uintptr_t d = sim.alloc(1000);  // 1024 more from the small segment's (already split) tail
  EXPECT_EQ(d, a + 512);
  s = sim.allocator.getStats();
  EXPECT_POOL_STATS(s, kSmall, {2, 1, 2, 1, 1536, 2 * kMB, 1536, 2 * kMB - 1536, 1004});

  sim.allocator.emptyCache();  // the free 20 MiB segment goes back to the device
  s = sim.allocator.getStats();
  EXPECT_POOL_STATS(s, kLarge, {1, 1, 1, 0, 10 * kMB, 10 * kMB, 10 * kMB, 0, 10 * kMB});
  EXPECT_POOL_STATS(s, kSmall, {2, 1, 2, 1, 1536, 2 * kMB, 1536, 2 * kMB - 1536, 1004});

  sim.free(a);
  sim.free(c);
  sim.free(d);
  sim.allocator.emptyCache();
  s = sim.allocator.getStats();
  for (size_t pool : {kAll, kSmall, kLarge}) {
    EXPECT_POOL_STATS(s, pool, {0, 0, 0, 0, 0, 0, 0, 0, 0});
  }
  EXPECT_EQ(s.allocated_bytes[kAll].peak, int64_t(512 + b_size + 10 * kMB));
  EXPECT_EQ(s.reserved_bytes[kAll].peak, int64_t(32 * kMB));
  EXPECT_EQ(s.allocation[kAll].peak, 3);
  EXPECT_EQ(s.allocation[kAll].allocated, 4);
  EXPECT_EQ(s.allocation[kAll].freed, 4);
  EXPECT_EQ(s.allocation[kSmall].allocated, 2);
  EXPECT_EQ(s.segment[kAll].allocated, 3);
  EXPECT_EQ(s.requested_bytes[kAll].allocated, int64_t(4 + 10 * kMB + kMB + 1 + 1000));
  EXPECT_EQ(s.num_device_alloc, 3);
  EXPECT_EQ(s.num_device_free, 3);
  EXPECT_EQ(s.max_split_size, -1);  // SIZE_MAX seen as int64
}

TEST(CUDACachingAllocatorStats, ResetPeakSetsPeakToCurrent) {
  Sim sim(kGiB);
  const uintptr_t a = sim.alloc(12 * kMB);
  sim.alloc(4);
  sim.free(a);
  DeviceStats s = sim.allocator.getStats();
  EXPECT_EQ(s.allocated_bytes[kAll].peak, int64_t(12 * kMB + 512));
  sim.allocator.resetPeakStats();
  s = sim.allocator.getStats();
  EXPECT_EQ(s.allocated_bytes[kAll].peak, 512);
  EXPECT_EQ(s.allocated_bytes[kLarge].peak, 0);
  EXPECT_EQ(s.reserved_bytes[kAll].peak, int64_t(14 * kMB));  // the freed segment is still cached
  EXPECT_EQ(s.allocation[kAll].peak, 1);
  EXPECT_EQ(s.allocated_bytes[kAll].allocated, int64_t(12 * kMB + 512));  // accumulated untouched
}

TEST(CUDACachingAllocatorStats, ResetAccumulatedZeroesTotalsAndCounters) {
  Sim sim(64 * kMB);
  const uintptr_t a = sim.alloc(30 * kMB), b = sim.alloc(30 * kMB);
  sim.free(a);
  sim.free(b);
  sim.alloc(40 * kMB);  // a retry
  EXPECT_THROW(sim.alloc(40 * kMB), c10::OutOfMemoryError);
  sim.allocator.resetAccumulatedStats();
  const DeviceStats s = sim.allocator.getStats();
  EXPECT_EQ(s.allocation[kAll].allocated, 0);
  EXPECT_EQ(s.allocation[kAll].freed, 0);
  EXPECT_EQ(s.reserved_bytes[kAll].allocated, 0);
  EXPECT_EQ(s.num_alloc_retries, 0);
  EXPECT_EQ(s.num_ooms, 0);
  EXPECT_EQ(s.num_sync_all_streams, 0);
  EXPECT_EQ(s.num_device_alloc, 0);
  EXPECT_EQ(s.num_device_free, 0);
  EXPECT_EQ(s.allocated_bytes[kAll].current, int64_t(40 * kMB));  // current and peak untouched
  EXPECT_EQ(s.reserved_bytes[kAll].peak, int64_t(60 * kMB));
}

// ---- PYTORCH_NO_CUDA_MEMORY_CACHING -----------------------------------------------------

TEST(CUDACachingAllocatorNoCaching, EveryAllocateIsADeviceMallocAndFreeReturnsAtOnce) {
  clearAllocatorEnv();
  SimulatedDevice device(kGiB);
  setenv("PYTORCH_NO_CUDA_MEMORY_CACHING", "1", 1);
  DeviceCachingAllocator allocator(&device);
  unsetenv("PYTORCH_NO_CUDA_MEMORY_CACHING");
  void* a = allocator.allocate(4, 0);
  void* b = allocator.allocate(4, 0);
  EXPECT_EQ(device.num_mallocs(), 2);
  EXPECT_EQ(device.used_memory(), 8u);  // raw sizes, no rounding, no segments
  EXPECT_EQ(allocator.getStats().allocation[kAll].current, 0);  // the cache keeps no books
  allocator.deallocate(a);
  EXPECT_EQ(device.num_frees(), 1);
  EXPECT_EQ(device.used_memory(), 4u);
  allocator.deallocate(b);
  EXPECT_EQ(device.used_memory(), 0u);
}

TEST(CUDACachingAllocatorNoCaching, AnyValueDisablesCachingEvenZero) {
  clearAllocatorEnv();
  SimulatedDevice device(kGiB);
  setenv("PYTORCH_NO_CUDA_MEMORY_CACHING", "0", 1);  // PyTorch checks getenv() != nullptr
  DeviceCachingAllocator allocator(&device);
  unsetenv("PYTORCH_NO_CUDA_MEMORY_CACHING");
  allocator.deallocate(allocator.allocate(4, 0));
  EXPECT_EQ(device.used_memory(), 0u);
  EXPECT_EQ(device.num_frees(), 1);
}

TEST(CUDACachingAllocatorConfigFromEnv, PytorchAllocConfIsReadAtConstruction) {
  clearAllocatorEnv();
  SimulatedDevice device(kGiB);
  setenv("PYTORCH_CUDA_ALLOC_CONF", "max_split_size_mb:64", 1);
  setenv("PYTORCH_ALLOC_CONF", "max_split_size_mb:32", 1);  // wins over the CUDA name
  DeviceCachingAllocator allocator(&device);
  clearAllocatorEnv();
  EXPECT_EQ(allocator.config().max_split_size(), 32 * kMB);
  EXPECT_EQ(allocator.getStats().max_split_size, int64_t(32 * kMB));
}

// ---- history ----------------------------------------------------------------------------

TEST(CUDACachingAllocatorHistory, TraceRecordsActionsInOrder) {
  Sim sim(kGiB);
  sim.alloc(4);  // before recording: not in the trace
  sim.allocator.recordHistory(true, 100);
  const uintptr_t a = sim.alloc(12 * kMB);
  sim.free(a);
  sim.allocator.emptyCache();
  const auto trace = sim.allocator.trace();
  ASSERT_EQ(trace.size(), 5u);
  const char* expected[] = {"segment_alloc", "alloc", "free_requested", "free_completed", "segment_free"};
  const size_t sizes[] = {12 * kMB, 12 * kMB, 12 * kMB, 12 * kMB, 12 * kMB};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_STREQ(toString(trace[i].action), expected[i]) << i;
    EXPECT_EQ(trace[i].addr, a) << i;
    EXPECT_EQ(trace[i].size, sizes[i]) << i;
    EXPECT_EQ(trace[i].stream, 0u) << i;
    if (i > 0) {
      EXPECT_GE(trace[i].time_us, trace[i - 1].time_us);
    }
  }
}

TEST(CUDACachingAllocatorHistory, FreeCompletedNamesTheFreedBlockEvenWhenItMerges) {
  Sim sim(kGiB);
  sim.allocator.recordHistory(true, 100);
  const uintptr_t a = sim.alloc(100), b = sim.alloc(200);
  sim.free(a);
  sim.free(b);  // b merges into a's range: the trace still says b
  const auto trace = sim.allocator.trace();
  ASSERT_EQ(trace.size(), 7u);
  EXPECT_STREQ(toString(trace[6].action), "free_completed");
  EXPECT_EQ(trace[6].addr, b);
  EXPECT_EQ(trace[6].size, 200u);  // the requested size, as PyTorch records it
  EXPECT_STREQ(toString(trace[4].action), "free_completed");
  EXPECT_EQ(trace[4].addr, a);
  EXPECT_EQ(trace[4].size, 100u);
}

TEST(CUDACachingAllocatorHistory, PendingFreeCompletesOnlyAfterTheEvent) {
  Sim sim(kGiB);
  sim.allocator.recordHistory(true, 100);
  const uintptr_t p = sim.alloc(4096, 0);
  sim.allocator.recordStream(reinterpret_cast<void*>(p), 1);
  sim.free(p);
  EXPECT_STREQ(toString(sim.allocator.trace().back().action), "free_requested");
  sim.device.synchronizeStream(1);
  sim.alloc(4096, 0);  // malloc processes events first
  const auto trace = sim.allocator.trace();
  ASSERT_EQ(trace.size(), 5u);
  EXPECT_STREQ(toString(trace[3].action), "free_completed");
  EXPECT_EQ(trace[3].addr, p);
  EXPECT_STREQ(toString(trace[4].action), "alloc");
}

TEST(CUDACachingAllocatorHistory, OutOfMemoryIsRecorded) {
  Sim sim(4 * kMB);
  sim.allocator.recordHistory(true, 100);
  EXPECT_THROW(sim.alloc(3 * kMB), c10::OutOfMemoryError);
  const auto trace = sim.allocator.trace();
  ASSERT_EQ(trace.size(), 1u);
  EXPECT_STREQ(toString(trace[0].action), "oom");
  EXPECT_EQ(trace[0].size, 20 * kMB);
}

TEST(CUDACachingAllocatorHistory, RingBufferKeepsTheLastEntries) {
  Sim sim(kGiB);
  sim.allocator.recordHistory(true, 3);
  const uintptr_t a = sim.alloc(512);           // segment_alloc, alloc
  sim.free(a);                                  // free_requested, free_completed
  const uintptr_t b = sim.alloc(512);           // alloc
  const auto trace = sim.allocator.trace();
  ASSERT_EQ(trace.size(), 3u);
  EXPECT_STREQ(toString(trace[0].action), "free_requested");
  EXPECT_STREQ(toString(trace[1].action), "free_completed");
  EXPECT_STREQ(toString(trace[2].action), "alloc");
  EXPECT_EQ(trace[2].addr, b);
  sim.allocator.recordHistory(false, 0);
  EXPECT_TRUE(sim.allocator.trace().empty());
  sim.free(b);
  EXPECT_TRUE(sim.allocator.trace().empty());
}

// ---- threads ----------------------------------------------------------------------------

TEST(CUDACachingAllocatorThreads, ConcurrentAllocateAndFreeOnOwnStreamsLeavesNothingBehind) {
  Sim sim(8 * kGiB);
  std::mutex live_mutex;
  std::map<uintptr_t, size_t> live;  // every live allocation of every thread: none may overlap
  std::atomic<int> overlaps{0};
  auto worker = [&](int id) {
    std::mt19937_64 rng(1234 + id);
    std::uniform_int_distribution<int> kind(0, 9);
    std::vector<std::pair<uintptr_t, size_t>> mine;
    const DeviceStream stream = static_cast<DeviceStream>(id + 1);
    for (int i = 0; i < 20000; ++i) {
      if (mine.size() < 16 && kind(rng) < 6) {
        const int k = kind(rng);
        const size_t size = k < 6 ? 1 + rng() % kMB : (k < 9 ? kMB + rng() % (9 * kMB) : 10 * kMB + rng() % (30 * kMB));
        const uintptr_t p = sim.alloc(size, stream);
        {
          std::lock_guard<std::mutex> g(live_mutex);
          auto next = live.lower_bound(p);
          if (next != live.end() && next->first < p + size) overlaps++;
          if (next != live.begin() && std::prev(next)->first + std::prev(next)->second > p) overlaps++;
          live.emplace(p, size);
        }
        mine.emplace_back(p, size);
      } else if (!mine.empty()) {
        const size_t idx = rng() % mine.size();
        const uintptr_t p = mine[idx].first;
        mine.erase(mine.begin() + static_cast<std::ptrdiff_t>(idx));
        {
          std::lock_guard<std::mutex> g(live_mutex);
          live.erase(p);
        }
        sim.free(p);
      }
      if (i % 2000 == 0) sim.allocator.emptyCache();
    }
    for (auto& [p, size] : mine) {
      {
        std::lock_guard<std::mutex> g(live_mutex);
        live.erase(p);
      }
      sim.free(p);
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) threads.emplace_back(worker, t);
  for (auto& t : threads) t.join();

  EXPECT_EQ(overlaps.load(), 0);
  DeviceStats s = sim.allocator.getStats();
  EXPECT_EQ(s.allocation[kAll].current, 0);
  EXPECT_EQ(s.active_bytes[kAll].current, 0);
  EXPECT_EQ(s.requested_bytes[kAll].current, 0);
  EXPECT_EQ(s.inactive_split[kAll].current, 0);  // every segment merged back whole
  sim.allocator.emptyCache();
  s = sim.allocator.getStats();
  EXPECT_EQ(s.reserved_bytes[kAll].current, 0);
  EXPECT_EQ(s.segment[kAll].current, 0);
  EXPECT_EQ(sim.device.used_memory(), 0u);
  EXPECT_EQ(s.num_ooms, 0);
}
