// Tests CPUFixedAllocator: it refuses to allocate (a view of an external blob cannot grow) and its DataPtrs call the owner's on_release once.
// Mirrors PyTorch's aten/src/ATen/CPUFixedAllocator.h. Guide: docs/source/internals/memory.rst.
#include <ATen/CPUFixedAllocator.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::string messageOf(const c10::Error& e) {
  return e.what_without_backtrace();
}

}  // namespace

TEST(CPUFixedAllocatorTest, AllocateThrowsResizeError) {
  at::CPUFixedAllocator* alloc = at::getCPUFixedAllocator();
  ASSERT_NE(alloc, nullptr);
  EXPECT_EQ(alloc, at::getCPUFixedAllocator());  // one instance
  for (size_t n : {size_t(0), size_t(16)}) {
    try {
      (void)alloc->allocate(n);
      FAIL() << "expected c10::Error for " << n << " bytes";
    } catch (const c10::Error& e) {
      EXPECT_EQ(messageOf(e), "attempting to resize a tensor view of an external blob");
    }
  }
}

TEST(CPUFixedAllocatorTest, LegacyMallocAndReallocThrow) {
  try {
    at::cpu_fixed_malloc(nullptr, 8);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(messageOf(e), "attempting to resize a tensor view of an external blob");
  }
  int blob = 0;
  try {
    at::cpu_fixed_realloc(nullptr, &blob, 8);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(messageOf(e), "attempting to resize a tensor view of an external blob");
  }
}

TEST(CPUFixedAllocatorTest, MakeDataPtrCallsOnReleaseOnceWithData) {
  float external[8] = {};
  std::vector<void*> released;
  {
    c10::DataPtr dp = at::CPUFixedAllocator::makeDataPtr(external, [&](void* p) { released.push_back(p); });
    EXPECT_EQ(dp.get(), static_cast<void*>(external));
    EXPECT_EQ(dp.device(), c10::Device(c10::DeviceType::CPU));
    EXPECT_NE(dp.get_context(), nullptr);
    EXPECT_TRUE(released.empty());
    c10::DataPtr moved = std::move(dp);
    EXPECT_TRUE(released.empty());
  }
  ASSERT_EQ(released.size(), 1u);
  EXPECT_EQ(released[0], static_cast<void*>(external));
}

TEST(CPUFixedAllocatorTest, CopyDataIsMemcpy) {
  const int src[3] = {1, 2, 3};
  int dst[3] = {0, 0, 0};
  at::getCPUFixedAllocator()->copy_data(dst, src, sizeof(src));
  EXPECT_EQ(dst[0], 1);
  EXPECT_EQ(dst[2], 3);
}
