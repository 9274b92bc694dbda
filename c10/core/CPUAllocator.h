// c10/core/CPUAllocator.h - the default CPU allocator and its memory reporter.
// Mirrors PyTorch's c10/core/CPUAllocator.h. Guide: docs/source/internals/memory.rst.
//
// Seed 000, "Memory management": CPU tensor memory comes from GetAllocator(DeviceType::CPU),
// which is DefaultCPUAllocator unless something registered a higher-priority one.
// DefaultCPUAllocator::allocate -> alloc_cpu (posix_memalign, 64-byte aligned) and
// returns DataPtr{data, ctx = data, deleter = ReportAndDelete, Device(CPU)}.
#pragma once

#include <c10/core/Allocator.h>
#include <c10/macros/Macros.h>
#include <c10/util/Flags.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_map>

C10_DECLARE_bool(caffe2_report_cpu_memory_usage);

namespace c10 {

// [marker: MemoryAllocationReporter]
// Counts CPU allocations: current and peak bytes, numbers of allocations and frees.
// (PyTorch calls this ProfiledCPUMemoryReporter; the seed's MemoryAllocationReporter is
// the same object under its older name.) Off by default, because recording means a
// hash-table insert under a lock per allocation. It records while enabled by
// setStatsEnabled(true) (torch.cpu.memory.record_memory_stats in Python) or while
// FLAGS_caffe2_report_cpu_memory_usage is set, which also prints each event to stderr.
class C10_API MemoryAllocationReporter {
 public:
  struct Stats {
    int64_t allocated_bytes_current = 0;  // bytes live now
    int64_t allocated_bytes_peak = 0;     // most bytes live at once since the last reset
    int64_t allocated_bytes_allocated = 0;  // bytes ever allocated (accumulated)
    int64_t allocated_bytes_freed = 0;      // bytes ever freed (accumulated)
    int64_t allocation_current = 0;       // live allocations
    int64_t allocation_peak = 0;
    int64_t allocation_allocated = 0;     // allocations ever made
    int64_t allocation_freed = 0;
    int64_t num_ooms = 0;                 // failed allocations
  };

  MemoryAllocationReporter() = default;
  C10_DISABLE_COPY_AND_ASSIGN(MemoryAllocationReporter);

  void New(void* ptr, size_t nbytes);
  void Delete(void* ptr);
  void OutOfMemory(size_t nbytes);

  bool enabled() const {
    return stats_enabled_.load(std::memory_order_relaxed) || FLAGS_caffe2_report_cpu_memory_usage;
  }
  void setStatsEnabled(bool enabled) { stats_enabled_.store(enabled); }
  Stats stats() const;
  void resetPeakStats();
  void resetAccumulatedStats();

 private:
  std::atomic<bool> stats_enabled_{false};
  // Allocations recorded and not yet freed: lets Delete skip the lock when zero.
  std::atomic<int64_t> tracked_{0};
  mutable std::mutex mutex_;
  std::unordered_map<void*, size_t> size_table_;
  Stats stats_;
};

C10_API MemoryAllocationReporter& profiledCPUMemoryReporter();
// [end marker: MemoryAllocationReporter]

// [marker: DefaultCPUAllocator]
struct C10_API DefaultCPUAllocator final : Allocator {
  DefaultCPUAllocator() = default;
  DataPtr allocate(size_t nbytes) override;
  // Every DataPtr from here has ctx == data and this deleter, so raw_allocate works.
  static void ReportAndDelete(void* ptr);
  DeleterFnPtr raw_deleter() const override { return &ReportAndDelete; }
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    default_copy_data(dest, src, count);
  }
};
// [end marker: DefaultCPUAllocator]

// GetAllocator(DeviceType::CPU): the registered CPU allocator (the default one unless replaced).
C10_API Allocator* GetCPUAllocator();
// Register a CPU allocator; replaces the current one if priority >= the current priority.
C10_API void SetCPUAllocator(Allocator* alloc, uint8_t priority = 0);
// The DefaultCPUAllocator instance itself, whatever is registered.
C10_API Allocator* GetDefaultCPUAllocator();

}  // namespace c10
