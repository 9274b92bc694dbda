// c10/cuda/test/CUDAStream_test.cpp - stream pools, round robin, the per-thread current stream.
// Mirrors PyTorch's aten/src/ATen/test/cuda_stream_test.cpp. Guide: docs/source/internals/c10_cuda.rst.
// GPU tests skip when device_count() is 0; the first group runs anywhere.
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <c10/cuda/test/CUDATestUtils.h>
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <thread>

using namespace c10::cuda;
using c10::DeviceIndex;

using c10::cuda::test::contains;

// ---- any machine ----

TEST(CUDAStreamTest, PositivePriorityIsRejected) {
  try {
    getStreamFromPool(1, /*device=*/0);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_TRUE(contains(e.msg(), "Expected cuda stream priority to be less than or equal to 0, got 1")) << e.msg();
  }
}

TEST(CUDAStreamTest, ExternalStreamKeepsThePointerAsId) {
  // No runtime call: an external stream is just the cudaStream_t, whose last bit is 0.
  auto fake = reinterpret_cast<cudaStream_t>(uintptr_t{0x1000});
  CUDAStream s = getStreamFromExternal(fake, 0);
  EXPECT_EQ(s.id(), 0x1000);
  EXPECT_EQ(s.stream(), fake);
  EXPECT_EQ(s.device(), c10::Device(c10::DeviceType::CUDA, 0));
}

TEST(CUDAStreamTest, DefaultStreamIdIsZeroAndNull) {
  CUDAStream s(0, 0);
  EXPECT_EQ(s.stream(), nullptr);
  auto [id, device, type] = s.pack3();
  EXPECT_EQ(id, 0);
  EXPECT_EQ(device, 0);
  EXPECT_EQ(type, static_cast<int>(c10::DeviceType::CUDA));
  EXPECT_EQ(CUDAStream::unpack3(id, device, c10::DeviceType::CUDA), s);
}

TEST(CUDAStreamTest, NoGPUMeansNoStreams) {
  if (device_count() > 0) {
    GTEST_SKIP() << "this machine has a GPU";
  }
  try {
    getCurrentCUDAStream(0);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_TRUE(contains(e.msg(), "Device index value 0 is out of index range [0, 0)")) << e.msg();
  }
}

// ---- GPU ----

TEST(CUDAStreamTest, CurrentStreamStartsAsTheDefaultStream) {
  SKIP_WITHOUT_GPU();
  CUDAStream current = getCurrentCUDAStream();
  EXPECT_EQ(current, getDefaultCUDAStream());
  EXPECT_EQ(current.id(), 0);
  EXPECT_EQ(current.stream(), nullptr);
}

TEST(CUDAStreamTest, PoolHandsOut32StreamsRoundRobin) {
  SKIP_WITHOUT_GPU();
  CUDAStream first = getStreamFromPool();
  std::set<cudaStream_t> seen{first.stream()};
  for (int i = 1; i < kStreamsPerPool; ++i) {
    seen.insert(getStreamFromPool().stream());
  }
  EXPECT_EQ(seen.size(), static_cast<size_t>(kStreamsPerPool));  // 32 distinct streams
  EXPECT_EQ(seen.count(nullptr), 0u);                             // none is the default stream
  EXPECT_EQ(getStreamFromPool(), first);                          // the 33rd wraps around
}

TEST(CUDAStreamTest, StreamIdEncodesIndexAndPriorityType) {
  SKIP_WITHOUT_GPU();
  CUDAStream low = getStreamFromPool(/*isHighPriority=*/false);
  EXPECT_EQ(low.id() & 1, 1);                                  // a pool stream
  EXPECT_EQ((low.id() >> 1) & ((1 << kStreamTypeBits) - 1), 1);  // type 1: priority 0 pool
  EXPECT_EQ(low.priority(), 0);
  CUDAStream high = getStreamFromPool(/*isHighPriority=*/true);
  auto [least, greatest] = CUDAStream::priority_range();
  EXPECT_EQ(least, 0);
  EXPECT_EQ(high.priority(), greatest);
  EXPECT_NE(low.stream(), high.stream());
}

TEST(CUDAStreamTest, CurrentStreamIsPerThread) {
  SKIP_WITHOUT_GPU();
  CUDAStream mine = getStreamFromPool();
  setCurrentCUDAStream(mine);
  EXPECT_EQ(getCurrentCUDAStream(), mine);
  CUDAStream seen_by_other = mine;
  std::thread other([&] {
    seen_by_other = getCurrentCUDAStream(0);  // a new thread starts on the default stream
    setCurrentCUDAStream(getStreamFromPool(false, 0));
  });
  other.join();
  EXPECT_EQ(seen_by_other, getDefaultCUDAStream(0));
  EXPECT_EQ(getCurrentCUDAStream(), mine);  // the other thread's change is its own
  setCurrentCUDAStream(getDefaultCUDAStream());
}

TEST(CUDAStreamTest, StreamGuardRestoresTheCurrentStream) {
  SKIP_WITHOUT_GPU();
  CUDAStream before = getCurrentCUDAStream(0);
  CUDAStream s = getStreamFromPool(false, 0);
  {
    CUDAStreamGuard guard(s);
    EXPECT_EQ(getCurrentCUDAStream(0), s);
    EXPECT_EQ(guard.original_stream(), before);
  }
  EXPECT_EQ(getCurrentCUDAStream(0), before);
}

TEST(CUDAStreamTest, QueryAndSynchronize) {
  SKIP_WITHOUT_GPU();
  CUDAStream s = getStreamFromPool();
  s.synchronize();
  EXPECT_TRUE(s.query());
}
