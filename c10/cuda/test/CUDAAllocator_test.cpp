// c10/cuda/test/CUDAAllocator_test.cpp - the CUDA caching allocator behind DeviceType::CUDA.
// Mirrors PyTorch's test/test_cuda.py memory tests, in C++. Guide:
// docs/source/internals/cuda_caching_allocator.rst.
// Without a GPU: the allocator is registered, and using it raises a c10::Error (no crash).
// With a GPU: the rules of the policy, on real memory and real streams (the same rules are
// tested on the simulated device in c10/test/core).
#include <c10/core/Allocator.h>
#include <c10/cuda/CUDAAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAStream.h>

#include <c10/cuda/test/CUDATestUtils.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

using namespace c10::cuda;
using c10::DeviceIndex;
namespace CCA = c10::cuda::CUDACachingAllocator;
using c10::CachingAllocator::StatType;

using c10::cuda::test::contains;

namespace {
constexpr size_t kAll = static_cast<size_t>(StatType::AGGREGATE);
constexpr size_t kSmall = static_cast<size_t>(StatType::SMALL_POOL);
}  // namespace

// ---- any machine ----

TEST(CUDAAllocatorTest, IsRegisteredForCUDA) {
  c10::Allocator* allocator = c10::GetAllocator(c10::DeviceType::CUDA);
  EXPECT_EQ(allocator, CCA::get());
  EXPECT_NE(allocator->raw_deleter(), nullptr);
  EXPECT_EQ(CCA::name(), "native");
}

TEST(CUDAAllocatorTest, AllocatingWithoutAGPURaises) {
  if (device_count() > 0) {
    GTEST_SKIP() << "this machine has a GPU";
  }
  // An error, not a crash: GetDevice fails and C10_CUDA_CHECK throws.
  EXPECT_THROW(c10::GetAllocator(c10::DeviceType::CUDA)->allocate(16), c10::Error);
  EXPECT_THROW(CCA::raw_alloc(16), c10::Error);
  try {
    CCA::getDeviceStats(0);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_TRUE(contains(e.msg(), "Invalid device argument 0")) << e.msg();
  }
}

TEST(CUDAAllocatorTest, MoreThanOneExabyteIsRefusedFirst) {
  try {
    CCA::get()->allocate(size_t{1} << 61);
    FAIL() << "expected c10::OutOfMemoryError";
  } catch (const c10::OutOfMemoryError& e) {
    EXPECT_TRUE(contains(e.msg(), "Tried to allocate more than 1EB memory")) << e.msg();
  }
}

TEST(CUDAAllocatorTest, FreeingNullIsANoOpAndUnknownPointersRaise) {
  EXPECT_NO_THROW(CCA::raw_delete(nullptr));
  try {
    CCA::raw_delete(reinterpret_cast<void*>(uintptr_t{0x1234}));
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_TRUE(contains(e.msg(), "invalid device pointer")) << e.msg();
  }
}

TEST(CUDAAllocatorTest, SettingsAreCheckedBeforeTheyApply) {
  const std::string before = CCA::getAllocatorSettings();
  EXPECT_THROW(CCA::setAllocatorSettings("foo:1"), c10::ValueError);
  EXPECT_EQ(CCA::getAllocatorSettings(), before);
  CCA::setAllocatorSettings("max_split_size_mb:40");
  EXPECT_EQ(CCA::getAllocatorSettings(), "max_split_size_mb:40");
  CCA::setAllocatorSettings(before);
}

// ---- GPU ----

TEST(CUDAAllocatorTest, FourBytesTakeA512ByteBlockOfA2MiBSegment) {
  SKIP_WITHOUT_GPU();
  set_device(0);
  CCA::emptyCache();
  const auto before = CCA::getDeviceStats(0);
  c10::DataPtr p = c10::GetAllocator(c10::DeviceType::CUDA)->allocate(4);
  ASSERT_NE(p.get(), nullptr);
  EXPECT_EQ(p.device(), c10::Device(c10::DeviceType::CUDA, 0));
  const auto after = CCA::getDeviceStats(0);
  EXPECT_EQ(after.allocated_bytes[kAll].current - before.allocated_bytes[kAll].current, 512);
  EXPECT_EQ(after.requested_bytes[kAll].current - before.requested_bytes[kAll].current, 4);
  EXPECT_EQ(after.reserved_bytes[kSmall].current - before.reserved_bytes[kSmall].current, 2 * 1024 * 1024);
  EXPECT_EQ(after.segment[kSmall].current - before.segment[kSmall].current, 1);
  p.clear();  // the deleter (local_raw_delete) gives the block back
  EXPECT_EQ(CCA::getDeviceStats(0).allocated_bytes[kAll].current, before.allocated_bytes[kAll].current);
  CCA::emptyCache();
  EXPECT_EQ(CCA::getDeviceStats(0).reserved_bytes[kAll].current, before.reserved_bytes[kAll].current);
}

TEST(CUDAAllocatorTest, FreedBlockIsReusedOnTheSameStream) {
  SKIP_WITHOUT_GPU();
  set_device(0);
  void* p = CCA::raw_alloc(1000);
  CCA::raw_delete(p);
  void* q = CCA::raw_alloc(1000);
  EXPECT_EQ(q, p);  // cached, not returned to CUDA
  CCA::raw_delete(q);
}

namespace {
void CUDART_CB sleepFor100ms(void*) {
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
}
}  // namespace

TEST(CUDAAllocatorTest, RecordStreamDefersReuseUntilTheOtherStreamIsDone) {
  SKIP_WITHOUT_GPU();
  set_device(0);
  CUDAStream alloc_stream = getStreamFromPool(false, 0);
  CUDAStream other = getStreamFromPool(false, 0);
  ASSERT_NE(alloc_stream, other);
  void* p = CCA::raw_alloc_with_stream(512, alloc_stream);
  // `other` is busy for a while, and uses p meanwhile.
  C10_CUDA_CHECK(cudaLaunchHostFunc(other, &sleepFor100ms, nullptr));
  c10::DataPtr view(p, p, CCA::get()->raw_deleter(), c10::Device(c10::DeviceType::CUDA, 0));
  CCA::recordStream(view, other);
  view.release_context();  // a view: the allocation is freed below
  CCA::raw_delete(p);
  // While `other` has not reached the free, p is not handed out again...
  void* q = CCA::raw_alloc_with_stream(512, alloc_stream);
  EXPECT_NE(q, p);
  EXPECT_GE(CCA::getDeviceStats(0).active[kAll].current, 2);  // p is still active (pending free)
  // ...and once it has, it is.
  other.synchronize();
  void* r = CCA::raw_alloc_with_stream(512, alloc_stream);
  EXPECT_EQ(r, p);
  CCA::raw_delete(q);
  CCA::raw_delete(r);
}

TEST(CUDAAllocatorTest, OutOfMemoryRaisesAndTheDeviceStaysUsable) {
  SKIP_WITHOUT_GPU();
  set_device(0);
  auto [free_bytes, total_bytes] = memGetInfo(0);
  try {
    CCA::raw_alloc(total_bytes * 2);
    FAIL() << "expected c10::OutOfMemoryError";
  } catch (const c10::OutOfMemoryError& e) {
    EXPECT_TRUE(contains(e.msg(), "CUDA out of memory. Tried to allocate")) << e.msg();
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // the failed cudaMalloc left no sticky error
  void* p = CCA::raw_alloc(1024);
  EXPECT_NE(p, nullptr);
  CCA::raw_delete(p);
}
