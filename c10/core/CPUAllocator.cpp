// c10/core/CPUAllocator.cpp - DefaultCPUAllocator, its registration, and the reporter.
// Mirrors PyTorch's c10/core/CPUAllocator.cpp. Guide: docs/source/internals/memory.rst.
#include <c10/core/CPUAllocator.h>
#include <c10/core/impl/alloc_cpu.h>

#include <algorithm>
#include <iostream>

C10_DEFINE_bool(caffe2_report_cpu_memory_usage, false,
                "If set, print out detailed memory usage");

namespace c10 {

// [marker: allocate]
DataPtr DefaultCPUAllocator::allocate(size_t nbytes) {
  void* data = nullptr;
  try {
    data = c10::alloc_cpu(nbytes);
  } catch (c10::Error&) {
    profiledCPUMemoryReporter().OutOfMemory(nbytes);
    throw;
  }
  profiledCPUMemoryReporter().New(data, nbytes);
  return {data, data, &ReportAndDelete, Device(DeviceType::CPU)};
}

void DefaultCPUAllocator::ReportAndDelete(void* ptr) {
  if (!ptr) {
    return;
  }
  profiledCPUMemoryReporter().Delete(ptr);
  free_cpu(ptr);
}
// [end marker: allocate]

// [marker: registration]
// The one instance, registered for DeviceType::CPU at priority 0 when libc10 loads.
static DefaultCPUAllocator g_cpu_alloc;
REGISTER_ALLOCATOR(DeviceType::CPU, &g_cpu_alloc)
// [end marker: registration]

Allocator* GetCPUAllocator() {
  return GetAllocator(DeviceType::CPU);
}

void SetCPUAllocator(Allocator* alloc, uint8_t priority) {
  SetAllocator(DeviceType::CPU, alloc, priority);
}

Allocator* GetDefaultCPUAllocator() {
  return &g_cpu_alloc;
}

MemoryAllocationReporter& profiledCPUMemoryReporter() {
  static MemoryAllocationReporter reporter_;
  return reporter_;
}

void MemoryAllocationReporter::New(void* ptr, size_t nbytes) {
  if (nbytes == 0 || !enabled()) {
    return;
  }
  int64_t total = 0;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    size_table_[ptr] = nbytes;
    tracked_.fetch_add(1, std::memory_order_relaxed);
    const auto n = static_cast<int64_t>(nbytes);
    stats_.allocated_bytes_current += n;
    stats_.allocated_bytes_allocated += n;
    stats_.allocated_bytes_peak = std::max(stats_.allocated_bytes_peak, stats_.allocated_bytes_current);
    stats_.allocation_current += 1;
    stats_.allocation_allocated += 1;
    stats_.allocation_peak = std::max(stats_.allocation_peak, stats_.allocation_current);
    total = stats_.allocated_bytes_current;
  }
  if (FLAGS_caffe2_report_cpu_memory_usage) {
    std::cerr << "C10 alloc " << nbytes << " bytes, total alloc " << total << " bytes.\n";
  }
}

void MemoryAllocationReporter::Delete(void* ptr) {
  // Nothing recorded is still live: this free cannot be one of ours. No lock taken.
  if (tracked_.load(std::memory_order_relaxed) == 0) {
    return;
  }
  size_t nbytes = 0;
  int64_t total = 0;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    auto it = size_table_.find(ptr);
    if (it == size_table_.end()) {
      return;  // allocated before recording started
    }
    nbytes = it->second;
    size_table_.erase(it);
    tracked_.fetch_sub(1, std::memory_order_relaxed);
    const auto n = static_cast<int64_t>(nbytes);
    stats_.allocated_bytes_current -= n;
    stats_.allocated_bytes_freed += n;
    stats_.allocation_current -= 1;
    stats_.allocation_freed += 1;
    total = stats_.allocated_bytes_current;
  }
  if (FLAGS_caffe2_report_cpu_memory_usage) {
    std::cerr << "C10 deleted " << nbytes << " bytes, total alloc " << total << " bytes.\n";
  }
}

void MemoryAllocationReporter::OutOfMemory(size_t nbytes) {
  int64_t total = 0;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    stats_.num_ooms += 1;
    total = stats_.allocated_bytes_current;
  }
  if (FLAGS_caffe2_report_cpu_memory_usage) {
    std::cerr << "C10 Out of Memory. Trying to allocate " << nbytes << " bytes, total alloc "
              << total << " bytes.\n";
  }
}

MemoryAllocationReporter::Stats MemoryAllocationReporter::stats() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return stats_;
}

void MemoryAllocationReporter::resetPeakStats() {
  std::lock_guard<std::mutex> guard(mutex_);
  stats_.allocated_bytes_peak = stats_.allocated_bytes_current;
  stats_.allocation_peak = stats_.allocation_current;
}

void MemoryAllocationReporter::resetAccumulatedStats() {
  std::lock_guard<std::mutex> guard(mutex_);
  stats_.allocated_bytes_allocated = 0;
  stats_.allocated_bytes_freed = 0;
  stats_.allocation_allocated = 0;
  stats_.allocation_freed = 0;
  stats_.num_ooms = 0;
}

}  // namespace c10
