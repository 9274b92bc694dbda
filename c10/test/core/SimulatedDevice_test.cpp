// Tests the simulated device the caching allocator runs on in tests: capacity, addresses, streams and events.
// This tree's aid (PyTorch has none); it stands in for cudaMalloc/cudaFree/cudaEvent*. Guide: docs/source/internals/cuda_caching_allocator.rst
#include <c10/cuda/impl/SimulatedDevice.h>
#include <c10/util/Exception.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using c10::cuda::CUDACachingAllocator::DeviceEvent;
using c10::cuda::CUDACachingAllocator::SimulatedDevice;

namespace {
constexpr size_t kMiB = 1024 * 1024;

uintptr_t mallocOrZero(SimulatedDevice& device, size_t size) {
  void* ptr = nullptr;
  return device.malloc(&ptr, size) ? reinterpret_cast<uintptr_t>(ptr) : 0;
}
}  // namespace

TEST(SimulatedDeviceTest, MallocFailsPastCapacityLikeCudaMalloc) {
  SimulatedDevice device(kMiB);
  const uintptr_t a = mallocOrZero(device, kMiB / 2);
  const uintptr_t b = mallocOrZero(device, kMiB / 2);
  ASSERT_NE(a, 0u);
  ASSERT_NE(b, 0u);
  void* ptr = nullptr;
  EXPECT_FALSE(device.malloc(&ptr, 1));
  size_t free = 1, total = 0;
  device.memGetInfo(&free, &total);
  EXPECT_EQ(free, 0u);
  EXPECT_EQ(total, kMiB);
  device.free(reinterpret_cast<void*>(a));
  EXPECT_EQ(device.used_memory(), kMiB / 2);
  EXPECT_NE(mallocOrZero(device, kMiB / 2), 0u);  // room again
  EXPECT_FALSE(device.malloc(&ptr, kMiB + 1));
}

TEST(SimulatedDeviceTest, AddressesAreDistinct512AlignedAndNeverReused) {
  SimulatedDevice device(kMiB);
  std::vector<std::pair<uintptr_t, size_t>> blocks;
  for (size_t size : {1, 100, 513, 4096, 7}) {
    const uintptr_t p = mallocOrZero(device, size);
    ASSERT_NE(p, 0u);
    EXPECT_EQ(p % 512, 0u) << size;
    EXPECT_GE(p, SimulatedDevice::kBaseAddress);
    for (auto& [q, qsize] : blocks) {
      EXPECT_TRUE(p + size <= q || q + qsize <= p) << "overlap";
    }
    blocks.emplace_back(p, size);
  }
  EXPECT_EQ(blocks[0].first, SimulatedDevice::kBaseAddress);
  EXPECT_EQ(blocks[1].first, SimulatedDevice::kBaseAddress + 512);
  EXPECT_EQ(blocks[3].first, SimulatedDevice::kBaseAddress + 512 + 512 + 1024);
  EXPECT_EQ(device.used_memory(), 1u + 100 + 513 + 4096 + 7);  // sizes as asked, not rounded
  device.free(reinterpret_cast<void*>(blocks[0].first));
  EXPECT_NE(mallocOrZero(device, 1), blocks[0].first);  // fresh addresses: stale pointers stay invalid
  EXPECT_EQ(device.num_mallocs(), 6);
  EXPECT_EQ(device.num_frees(), 1);
}

TEST(SimulatedDeviceTest, FreeingAnUnknownAddressThrows) {
  SimulatedDevice device(kMiB);
  const uintptr_t p = mallocOrZero(device, 512);
  EXPECT_THROW(device.free(reinterpret_cast<void*>(p + 512)), c10::Error);
  device.free(reinterpret_cast<void*>(p));
  try {
    device.free(reinterpret_cast<void*>(p));  // double free
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(e.msg(), "SimulatedDevice: free of an address it never allocated: " +
                           c10::str(reinterpret_cast<void*>(p)));
  }
}

TEST(SimulatedDeviceTest, AnEventCompletesOnlyAfterItsStreamIsSynchronized) {
  SimulatedDevice device(kMiB);
  const DeviceEvent e = device.createEvent();
  EXPECT_TRUE(device.queryEvent(e));  // never recorded: complete, as in CUDA
  device.recordEvent(e, 1);
  EXPECT_FALSE(device.queryEvent(e));
  device.synchronizeStream(2);  // another stream
  EXPECT_FALSE(device.queryEvent(e));
  device.synchronizeStream(1);
  EXPECT_TRUE(device.queryEvent(e));
  device.recordEvent(e, 1);  // re-recorded after the sync: pending again
  EXPECT_FALSE(device.queryEvent(e));
  device.synchronizeDevice();
  EXPECT_TRUE(device.queryEvent(e));
}

TEST(SimulatedDeviceTest, SynchronizingAnEventCompletesEarlierEventsOfItsStreamOnly) {
  SimulatedDevice device(kMiB);
  const DeviceEvent first = device.createEvent(), second = device.createEvent(), other = device.createEvent();
  EXPECT_NE(first, second);
  device.recordEvent(first, 3);
  device.recordEvent(second, 3);
  device.recordEvent(other, 4);
  device.synchronizeEvent(first);
  EXPECT_TRUE(device.queryEvent(first));
  EXPECT_FALSE(device.queryEvent(second));
  EXPECT_FALSE(device.queryEvent(other));
  device.synchronizeEvent(second);
  EXPECT_TRUE(device.queryEvent(second));
  EXPECT_FALSE(device.queryEvent(other));
}

TEST(SimulatedDeviceTest, UnknownOrDestroyedEventsThrow) {
  SimulatedDevice device(kMiB);
  const DeviceEvent e = device.createEvent();
  device.destroyEvent(e);
  EXPECT_THROW(device.queryEvent(e), c10::Error);
  EXPECT_THROW(device.recordEvent(e, 0), c10::Error);
  EXPECT_THROW(device.synchronizeEvent(12345), c10::Error);
}
