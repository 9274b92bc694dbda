// c10/core/impl/alloc_cpu.cpp - posix_memalign/free behind every CPU tensor.
// Mirrors PyTorch's c10/core/impl/alloc_cpu.cpp. Guide: docs/source/internals/memory.rst.
#include <c10/core/alignment.h>
#include <c10/core/impl/alloc_cpu.h>
#include <c10/util/Exception.h>
#include <c10/util/numa.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

C10_DEFINE_bool(caffe2_cpu_allocator_do_zero_fill, false,
                "Zero-fill every CPU allocation (the memory a new tensor starts with).");
C10_DEFINE_bool(caffe2_cpu_allocator_do_junk_fill, false,
                "Fill every CPU allocation with a junk pattern (NaN as float), to catch reads "
                "of memory that was never written.");

namespace c10 {
namespace {

// [marker: thp]
// Transparent huge pages (2 MiB instead of 4 KiB) for big allocations: 512 times fewer page
// faults when fresh memory is first written, and fewer TLB misses. PyTorch turns them on
// with THP_MEM_ALLOC_ENABLE=1 for every allocation of at least 2 MiB; this tree also uses
// them, by default, for allocations of at least 32 MiB (as numpy does for large arrays).
// That size is above glibc's largest mmap threshold, so such an allocation is always a
// fresh mapping whose every page would fault on first touch; smaller ones are usually
// recycled from the heap, where huge pages only add the cost of zeroing 2 MiB at a time.
// THP_MEM_ALLOC_ENABLE=0 turns both off.
constexpr size_t kDefaultThpThreshold = static_cast<size_t>(32) * 1024 * 1024;

bool use_thp(size_t nbytes) {
  static const int setting = [] {
    const char* ptr = std::getenv("THP_MEM_ALLOC_ENABLE");
    return ptr == nullptr ? -1 : (std::atoi(ptr) != 0 ? 1 : 0);
  }();
  if (setting == 1) return nbytes >= gAlloc_threshold_thp;
  if (setting == 0) return false;
  return nbytes >= kDefaultThpThreshold;
}
// [end marker: thp]

size_t c10_compute_alignment(size_t nbytes) {
  // Huge-page allocations start on a 2 MiB boundary, so every 2 MiB of them can be a huge page.
  return use_thp(nbytes) ? gAlloc_threshold_thp : gAlignment;
}

}  // namespace

// [marker: alloc_cpu]
void* alloc_cpu(size_t nbytes) {
  if (nbytes == 0) {
    return nullptr;
  }
  // A negative size converted to size_t is enormous; catch it before the system does.
  CAFFE_ENFORCE(((ptrdiff_t)nbytes) >= 0,
                "alloc_cpu() seems to have been called with negative number: ", nbytes);

  // Checked before allocating: PyTorch aborts here (CHECK), this tree throws, and a throw
  // after posix_memalign would leak the block.
  CAFFE_ENFORCE(!(FLAGS_caffe2_cpu_allocator_do_zero_fill && FLAGS_caffe2_cpu_allocator_do_junk_fill),
                "Cannot request both zero-fill and junk-fill at the same time");

  void* data = nullptr;
  int err = posix_memalign(&data, c10_compute_alignment(nbytes), nbytes);
  CAFFE_ENFORCE(err == 0, "DefaultCPUAllocator: can't allocate memory: you tried to allocate ",
                nbytes, " bytes. Error code ", err, " (", std::strerror(err), ")");
  if (use_thp(nbytes)) {
    madvise(data, nbytes, MADV_HUGEPAGE);
  }

  // Move the pages to the NUMA node of the calling thread (a no-op unless USE_NUMA).
  NUMAMove(data, nbytes, GetCurrentNUMANode());

  if (FLAGS_caffe2_cpu_allocator_do_zero_fill) {
    std::memset(data, 0, nbytes);
  } else if (FLAGS_caffe2_cpu_allocator_do_junk_fill) {
    memset_junk(data, nbytes);
  }
  return data;
}

void free_cpu(void* data) {
  std::free(data);
}
// [end marker: alloc_cpu]

void memset_junk(void* data, size_t num) {
  // 0x7fedbeef: a NaN as float32, a large positive number as int32.
  static constexpr int32_t kJunkPattern = 0x7fedbeef;
  static constexpr int64_t kJunkPattern64 =
      static_cast<int64_t>(kJunkPattern) << 32 | static_cast<uint32_t>(kJunkPattern);
  auto* data_i64 = static_cast<int64_t*>(data);
  const size_t n_i64 = num / sizeof(kJunkPattern64);
  for (size_t i = 0; i < n_i64; ++i) {
    data_i64[i] = kJunkPattern64;
  }
  const size_t rest = num % sizeof(kJunkPattern64);
  if (rest > 0) {
    std::memcpy(data_i64 + n_i64, &kJunkPattern64, rest);
  }
}

}  // namespace c10
