// Tests alloc_cpu (null for 0, 64-byte alignment, negative sizes, zero/junk fill), DefaultCPUAllocator and its memory reporter.
// Mirrors PyTorch's c10/core/impl/alloc_cpu.cpp and c10/core/CPUAllocator.cpp. Guide: docs/source/internals/memory.rst.
#include <c10/core/CPUAllocator.h>
#include <c10/core/alignment.h>
#include <c10/core/impl/alloc_cpu.h>

#include <gtest/gtest.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

using c10::DataPtr;
using c10::Device;
using c10::DeviceType;

namespace {

// Saves and restores the three allocator flags and the reporter switch around every test.
class CPUAllocatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    zero_ = FLAGS_caffe2_cpu_allocator_do_zero_fill;
    junk_ = FLAGS_caffe2_cpu_allocator_do_junk_fill;
    report_ = FLAGS_caffe2_report_cpu_memory_usage;
    stats_ = c10::profiledCPUMemoryReporter().enabled();
  }
  void TearDown() override {
    FLAGS_caffe2_cpu_allocator_do_zero_fill = zero_;
    FLAGS_caffe2_cpu_allocator_do_junk_fill = junk_;
    FLAGS_caffe2_report_cpu_memory_usage = report_;
    c10::profiledCPUMemoryReporter().setStatsEnabled(stats_);
  }

 private:
  bool zero_ = false;
  bool junk_ = false;
  bool report_ = false;
  bool stats_ = false;
};

std::string messageOf(const c10::Error& e) {
  return e.what_without_backtrace();
}

// The junk pattern's bytes in memory order (little endian): ef be ed 7f.
constexpr unsigned char kJunkBytes[4] = {0xef, 0xbe, 0xed, 0x7f};

}  // namespace

TEST_F(CPUAllocatorTest, AllocZeroBytesReturnsNull) {
  EXPECT_EQ(c10::alloc_cpu(0), nullptr);
  c10::free_cpu(nullptr);  // freeing null is harmless
}

TEST_F(CPUAllocatorTest, AllocationsAre64ByteAligned) {
  EXPECT_EQ(c10::gAlignment, 64u);
  for (size_t n : {size_t(1), size_t(3), size_t(63), size_t(64), size_t(65), size_t(1000),
                   size_t(4097), size_t(1) << 20}) {
    void* p = c10::alloc_cpu(n);
    ASSERT_NE(p, nullptr) << n;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << "size " << n;
    c10::free_cpu(p);
  }
}

TEST_F(CPUAllocatorTest, NegativeSizeThrowsEnforceError) {
  try {
    c10::alloc_cpu(static_cast<size_t>(-1));
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    const std::string msg = messageOf(e);
    EXPECT_EQ(msg.rfind("[enforce fail at alloc_cpu.cpp:", 0), 0u) << msg;
    EXPECT_NE(msg.find("((ptrdiff_t)nbytes) >= 0. "), std::string::npos) << msg;
    EXPECT_NE(msg.find("alloc_cpu() seems to have been called with negative number: 18446744073709551615"),
              std::string::npos)
        << msg;
  }
}

TEST_F(CPUAllocatorTest, DefaultAllocatorRethrowsNegativeSizeAndCountsOom) {
  auto& reporter = c10::profiledCPUMemoryReporter();
  reporter.setStatsEnabled(true);
  const auto before = reporter.stats();
  EXPECT_THROW(c10::GetDefaultCPUAllocator()->allocate(static_cast<size_t>(-1)), c10::Error);
  const auto after = reporter.stats();
  EXPECT_EQ(after.num_ooms, before.num_ooms + 1);
  EXPECT_EQ(after.allocated_bytes_current, before.allocated_bytes_current);
  EXPECT_EQ(after.allocation_current, before.allocation_current);
}

TEST_F(CPUAllocatorTest, JunkFillWritesPatternIncludingOddTail) {
  FLAGS_caffe2_cpu_allocator_do_junk_fill = true;
  EXPECT_TRUE(c10::GetBoolFlag("caffe2_cpu_allocator_do_junk_fill"));

  // Whole int32 words: every word is 0x7fedbeef (a NaN as float32).
  void* p = c10::alloc_cpu(64);
  ASSERT_NE(p, nullptr);
  const auto* words = static_cast<const int32_t*>(p);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(words[i], 0x7fedbeef) << "word " << i;
  }
  const auto* as_int64 = static_cast<const int64_t*>(p);
  EXPECT_EQ(as_int64[0], int64_t(0x7fedbeef7fedbeef));
  float f;
  std::memcpy(&f, p, sizeof(f));
  EXPECT_TRUE(std::isnan(f));
  c10::free_cpu(p);

  // 13 bytes: one int64 word plus a 5-byte tail copied from the pattern.
  p = c10::alloc_cpu(13);
  ASSERT_NE(p, nullptr);
  const auto* bytes = static_cast<const unsigned char*>(p);
  for (int i = 0; i < 13; ++i) {
    EXPECT_EQ(bytes[i], kJunkBytes[i % 4]) << "byte " << i;
  }
  c10::free_cpu(p);
}

TEST_F(CPUAllocatorTest, MemsetJunkTailOfSevenBytes) {
  unsigned char buf[16];
  std::memset(buf, 0, sizeof(buf));
  c10::memset_junk(buf, 7);
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(buf[i], kJunkBytes[i % 4]) << "byte " << i;
  }
  for (int i = 7; i < 16; ++i) {
    EXPECT_EQ(buf[i], 0) << "byte " << i << " past the end was written";
  }
}

TEST_F(CPUAllocatorTest, ZeroFillGivesZeros) {
  // Dirty some memory first so a zero result is not just fresh pages.
  FLAGS_caffe2_cpu_allocator_do_junk_fill = true;
  void* dirty = c10::alloc_cpu(4096);
  c10::free_cpu(dirty);
  FLAGS_caffe2_cpu_allocator_do_junk_fill = false;

  FLAGS_caffe2_cpu_allocator_do_zero_fill = true;
  for (size_t n : {size_t(13), size_t(4096)}) {
    void* p = c10::alloc_cpu(n);
    ASSERT_NE(p, nullptr);
    const auto* bytes = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(bytes[i], 0) << "byte " << i << " of " << n;
    }
    c10::free_cpu(p);
  }
}

TEST_F(CPUAllocatorTest, ZeroAndJunkFillTogetherThrow) {
  FLAGS_caffe2_cpu_allocator_do_zero_fill = true;
  FLAGS_caffe2_cpu_allocator_do_junk_fill = true;
  try {
    void* p = c10::alloc_cpu(16);
    c10::free_cpu(p);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_NE(messageOf(e).find("Cannot request both zero-fill and junk-fill at the same time"),
              std::string::npos)
        << messageOf(e);
  }
}

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
// The refused request must not leave memory behind. 64 MiB is far above glibc's mmap
// threshold, so a leaked block would show up as mmapped bytes (mallinfo2().hblkhd).
TEST_F(CPUAllocatorTest, ZeroAndJunkFillTogetherLeakNothing) {
  FLAGS_caffe2_cpu_allocator_do_zero_fill = true;
  FLAGS_caffe2_cpu_allocator_do_junk_fill = true;
  const size_t mmapped_before = mallinfo2().hblkhd;
  EXPECT_THROW(c10::alloc_cpu(size_t(64) << 20), c10::Error);
  EXPECT_EQ(mallinfo2().hblkhd, mmapped_before);
}
#endif

TEST_F(CPUAllocatorTest, GetCPUAllocatorIsTheDefaultAllocator) {
  EXPECT_EQ(c10::GetCPUAllocator(), c10::GetDefaultCPUAllocator());
  EXPECT_NE(dynamic_cast<c10::DefaultCPUAllocator*>(c10::GetCPUAllocator()), nullptr);
}

TEST_F(CPUAllocatorTest, DefaultDataPtrHasContextEqualDataAndCpuDevice) {
  c10::Allocator* alloc = c10::GetCPUAllocator();
  ASSERT_NE(alloc->raw_deleter(), nullptr);
  EXPECT_EQ(alloc->raw_deleter(), &c10::DefaultCPUAllocator::ReportAndDelete);
  DataPtr dp = alloc->allocate(100);
  ASSERT_NE(dp.get(), nullptr);
  EXPECT_EQ(dp.get(), dp.get_context());
  EXPECT_EQ(dp.get_deleter(), alloc->raw_deleter());
  EXPECT_EQ(dp.device(), Device(DeviceType::CPU));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(dp.get()) % 64, 0u);
}

TEST_F(CPUAllocatorTest, DefaultAllocateZeroIsNullDataPtr) {
  DataPtr dp = c10::GetCPUAllocator()->allocate(0);
  EXPECT_TRUE(dp == nullptr);
  EXPECT_EQ(dp.device(), Device(DeviceType::CPU));
}

TEST_F(CPUAllocatorTest, SetCPUAllocatorEqualPriorityReplacesAndRestores) {
  struct Tagged final : c10::Allocator {
    DataPtr allocate(size_t) override { return {}; }
    void copy_data(void* d, const void* s, std::size_t n) const override { default_copy_data(d, s, n); }
  };
  static Tagged tagged;
  c10::Allocator* original = c10::GetCPUAllocator();
  ASSERT_EQ(original, c10::GetDefaultCPUAllocator());
  c10::SetCPUAllocator(&tagged, 0);
  EXPECT_EQ(c10::GetCPUAllocator(), &tagged);
  EXPECT_EQ(c10::GetDefaultCPUAllocator(), original);  // the instance itself is unchanged
  c10::SetCPUAllocator(original, 0);
  EXPECT_EQ(c10::GetCPUAllocator(), original);
}

// ---- MemoryAllocationReporter (PyTorch's ProfiledCPUMemoryReporter) ----

TEST_F(CPUAllocatorTest, ReporterCountsAllocationsAndFrees) {
  auto& reporter = c10::profiledCPUMemoryReporter();
  reporter.setStatsEnabled(true);
  EXPECT_TRUE(reporter.enabled());
  c10::Allocator* alloc = c10::GetDefaultCPUAllocator();
  const auto s0 = reporter.stats();

  DataPtr a = alloc->allocate(100);
  DataPtr b = alloc->allocate(200);
  const auto s1 = reporter.stats();
  EXPECT_EQ(s1.allocated_bytes_current, s0.allocated_bytes_current + 300);
  EXPECT_EQ(s1.allocated_bytes_allocated, s0.allocated_bytes_allocated + 300);
  EXPECT_EQ(s1.allocation_current, s0.allocation_current + 2);
  EXPECT_EQ(s1.allocation_allocated, s0.allocation_allocated + 2);
  EXPECT_GE(s1.allocated_bytes_peak, s1.allocated_bytes_current);
  EXPECT_GE(s1.allocation_peak, s1.allocation_current);
  EXPECT_EQ(s1.allocated_bytes_freed, s0.allocated_bytes_freed);

  a.clear();  // frees the 100-byte block
  const auto s2 = reporter.stats();
  EXPECT_EQ(s2.allocated_bytes_current, s0.allocated_bytes_current + 200);
  EXPECT_EQ(s2.allocated_bytes_freed, s0.allocated_bytes_freed + 100);
  EXPECT_EQ(s2.allocation_current, s0.allocation_current + 1);
  EXPECT_EQ(s2.allocation_freed, s0.allocation_freed + 1);
  EXPECT_EQ(s2.allocated_bytes_peak, s1.allocated_bytes_peak);  // a free never lowers the peak

  reporter.resetPeakStats();
  const auto s3 = reporter.stats();
  EXPECT_EQ(s3.allocated_bytes_peak, s3.allocated_bytes_current);
  EXPECT_EQ(s3.allocation_peak, s3.allocation_current);

  b.clear();
  const auto s4 = reporter.stats();
  EXPECT_EQ(s4.allocated_bytes_current, s0.allocated_bytes_current);
  EXPECT_EQ(s4.allocation_current, s0.allocation_current);
  EXPECT_EQ(s4.allocated_bytes_freed, s0.allocated_bytes_freed + 300);
  EXPECT_EQ(s4.allocated_bytes_peak, s3.allocated_bytes_peak);
}

TEST_F(CPUAllocatorTest, ReporterRawAllocateIsCountedToo) {
  auto& reporter = c10::profiledCPUMemoryReporter();
  reporter.setStatsEnabled(true);
  c10::Allocator* alloc = c10::GetDefaultCPUAllocator();
  const auto s0 = reporter.stats();
  void* p = alloc->raw_allocate(48);
  EXPECT_EQ(reporter.stats().allocated_bytes_current, s0.allocated_bytes_current + 48);
  alloc->raw_deallocate(p);
  EXPECT_EQ(reporter.stats().allocated_bytes_current, s0.allocated_bytes_current);
  EXPECT_EQ(reporter.stats().allocated_bytes_freed, s0.allocated_bytes_freed + 48);
}

TEST_F(CPUAllocatorTest, ReporterResetAccumulatedKeepsCurrent) {
  auto& reporter = c10::profiledCPUMemoryReporter();
  reporter.setStatsEnabled(true);
  DataPtr a = c10::GetDefaultCPUAllocator()->allocate(64);
  const auto s0 = reporter.stats();
  reporter.resetAccumulatedStats();
  const auto s1 = reporter.stats();
  EXPECT_EQ(s1.allocated_bytes_allocated, 0);
  EXPECT_EQ(s1.allocated_bytes_freed, 0);
  EXPECT_EQ(s1.allocation_allocated, 0);
  EXPECT_EQ(s1.allocation_freed, 0);
  EXPECT_EQ(s1.num_ooms, 0);
  EXPECT_EQ(s1.allocated_bytes_current, s0.allocated_bytes_current);
  EXPECT_EQ(s1.allocation_current, s0.allocation_current);
}

TEST_F(CPUAllocatorTest, ReporterIgnoresBlocksAllocatedWhileDisabled) {
  auto& reporter = c10::profiledCPUMemoryReporter();
  reporter.setStatsEnabled(false);
  EXPECT_FALSE(reporter.enabled());
  c10::Allocator* alloc = c10::GetDefaultCPUAllocator();
  const auto s0 = reporter.stats();
  DataPtr before = alloc->allocate(500);
  EXPECT_EQ(reporter.stats().allocated_bytes_current, s0.allocated_bytes_current);
  EXPECT_EQ(reporter.stats().allocation_allocated, s0.allocation_allocated);

  reporter.setStatsEnabled(true);
  // One tracked block alive, so the free below takes the lookup path, not the fast exit.
  DataPtr tracked = alloc->allocate(32);
  const auto s1 = reporter.stats();
  before.clear();
  const auto s2 = reporter.stats();
  EXPECT_EQ(s2.allocated_bytes_current, s1.allocated_bytes_current);
  EXPECT_EQ(s2.allocated_bytes_freed, s1.allocated_bytes_freed);
  EXPECT_EQ(s2.allocation_current, s1.allocation_current);
  EXPECT_EQ(s2.allocation_freed, s1.allocation_freed);
  tracked.clear();
  EXPECT_EQ(reporter.stats().allocated_bytes_current, s0.allocated_bytes_current);

  reporter.setStatsEnabled(false);
  EXPECT_FALSE(reporter.enabled());
}

TEST_F(CPUAllocatorTest, ReporterEnabledByReportFlag) {
  auto& reporter = c10::profiledCPUMemoryReporter();
  reporter.setStatsEnabled(false);
  EXPECT_FALSE(reporter.enabled());
  FLAGS_caffe2_report_cpu_memory_usage = true;
  EXPECT_TRUE(reporter.enabled());
  const auto s0 = reporter.stats();
  {
    DataPtr a = c10::GetDefaultCPUAllocator()->allocate(24);
    EXPECT_EQ(reporter.stats().allocated_bytes_current, s0.allocated_bytes_current + 24);
  }
  EXPECT_EQ(reporter.stats().allocated_bytes_current, s0.allocated_bytes_current);
  FLAGS_caffe2_report_cpu_memory_usage = false;
  EXPECT_FALSE(reporter.enabled());
}
