// Tests DataPtr ownership (context + deleter), InefficientStdFunctionContext, Allocator::clone/raw_* and the priority registry.
// Mirrors PyTorch's c10/core/Allocator.{h,cpp}. Guide: docs/source/internals/memory.rst.
#include <c10/core/Allocator.h>
#include <c10/core/CPUAllocator.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using c10::DataPtr;
using c10::Device;
using c10::DeviceType;

namespace {

// Records every pointer a deleter was called with.
std::vector<void*>& deleted_pointers() {
  static std::vector<void*> v;
  return v;
}
void recordingDeleter(void* p) {
  deleted_pointers().push_back(p);
}
std::vector<void*>& other_deleted_pointers() {
  static std::vector<void*> v;
  return v;
}
void otherRecordingDeleter(void* p) {
  other_deleted_pointers().push_back(p);
}

// A do-nothing allocator whose identity is all the registry tests look at.
struct DummyAllocator final : c10::Allocator {
  DataPtr allocate(size_t) override { return {}; }
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    default_copy_data(dest, src, count);
  }
};

class DataPtrTest : public ::testing::Test {
 protected:
  void SetUp() override {
    deleted_pointers().clear();
    other_deleted_pointers().clear();
  }
};

}  // namespace

// ---- DataPtr ----

TEST_F(DataPtrTest, DefaultIsNullOnCpu) {
  DataPtr dp;
  EXPECT_EQ(dp.get(), nullptr);
  EXPECT_EQ(dp.get_context(), nullptr);
  EXPECT_FALSE(static_cast<bool>(dp));
  EXPECT_TRUE(dp == nullptr);
  EXPECT_EQ(dp.device(), Device(DeviceType::CPU));
  EXPECT_EQ(dp.device().index(), -1);
}

TEST_F(DataPtrTest, NonOwningConstructorRunsNoDeleter) {
  int value = 7;
  {
    DataPtr dp(&value, Device(DeviceType::CPU));
    EXPECT_EQ(dp.get(), &value);
    EXPECT_EQ(dp.get_context(), nullptr);
    EXPECT_TRUE(static_cast<bool>(dp));
    EXPECT_TRUE(dp != nullptr);
  }
  EXPECT_TRUE(deleted_pointers().empty());
  EXPECT_EQ(value, 7);
}

TEST_F(DataPtrTest, DeleterRunsOnContextNotData) {
  int data = 0;
  int ctx = 0;
  {
    DataPtr dp(&data, &ctx, &recordingDeleter, Device(DeviceType::CPU));
    EXPECT_EQ(dp.get(), &data);
    EXPECT_EQ(dp.get_context(), &ctx);
    EXPECT_EQ(dp.get_deleter(), &recordingDeleter);
    EXPECT_TRUE(deleted_pointers().empty());
  }
  ASSERT_EQ(deleted_pointers().size(), 1u);
  EXPECT_EQ(deleted_pointers()[0], &ctx);
}

TEST_F(DataPtrTest, ClearRunsDeleterOnceAndNulls) {
  int data = 0;
  int ctx = 0;
  DataPtr dp(&data, &ctx, &recordingDeleter, Device(DeviceType::CPU));
  dp.clear();
  ASSERT_EQ(deleted_pointers().size(), 1u);
  EXPECT_EQ(deleted_pointers()[0], &ctx);
  EXPECT_EQ(dp.get(), nullptr);
  EXPECT_TRUE(dp == nullptr);
  // Already cleared: destruction must not call the deleter a second time.
  dp = DataPtr();
  EXPECT_EQ(deleted_pointers().size(), 1u);
}

TEST_F(DataPtrTest, MoveTransfersOwnershipSoDeleterRunsOnce) {
  int data = 0;
  int ctx = 0;
  {
    DataPtr a(&data, &ctx, &recordingDeleter, Device(DeviceType::CPU));
    DataPtr b(std::move(a));
    EXPECT_EQ(b.get_context(), &ctx);
    EXPECT_TRUE(deleted_pointers().empty());
  }
  ASSERT_EQ(deleted_pointers().size(), 1u);
  EXPECT_EQ(deleted_pointers()[0], &ctx);
}

TEST_F(DataPtrTest, NullptrComparisonIgnoresDevice) {
  DataPtr cuda_null(nullptr, Device(DeviceType::CUDA, 1));
  EXPECT_TRUE(cuda_null == nullptr);
  EXPECT_TRUE(nullptr == cuda_null);
  EXPECT_FALSE(cuda_null != nullptr);
  EXPECT_EQ(cuda_null.device(), Device(DeviceType::CUDA, 1));

  int x = 0;
  DataPtr cuda_nonnull(&x, Device(DeviceType::CUDA, 1));
  EXPECT_FALSE(cuda_nonnull == nullptr);
  EXPECT_TRUE(cuda_nonnull != nullptr);
  EXPECT_TRUE(nullptr != cuda_nonnull);
}

TEST_F(DataPtrTest, CompareExchangeDeleterFailsWithWrongExpected) {
  int data = 0;
  int ctx = 0;
  {
    DataPtr dp(&data, &ctx, &recordingDeleter, Device(DeviceType::CPU));
    EXPECT_FALSE(dp.compare_exchange_deleter(&otherRecordingDeleter, &otherRecordingDeleter));
    EXPECT_EQ(dp.get_deleter(), &recordingDeleter);
  }
  ASSERT_EQ(deleted_pointers().size(), 1u);
  EXPECT_TRUE(other_deleted_pointers().empty());
}

TEST_F(DataPtrTest, CompareExchangeDeleterInstallsNewDeleter) {
  int data = 0;
  int ctx = 0;
  {
    DataPtr dp(&data, &ctx, &recordingDeleter, Device(DeviceType::CPU));
    EXPECT_TRUE(dp.compare_exchange_deleter(&recordingDeleter, &otherRecordingDeleter));
    EXPECT_EQ(dp.get_deleter(), &otherRecordingDeleter);
    EXPECT_EQ(dp.get_context(), &ctx);  // same context kept
    EXPECT_EQ(dp.get(), &data);
  }
  EXPECT_TRUE(deleted_pointers().empty());
  ASSERT_EQ(other_deleted_pointers().size(), 1u);
  EXPECT_EQ(other_deleted_pointers()[0], &ctx);
}

TEST_F(DataPtrTest, ReleaseContextGivesUpOwnership) {
  int data = 0;
  int ctx = 0;
  {
    DataPtr dp(&data, &ctx, &recordingDeleter, Device(DeviceType::CPU));
    void* released = dp.release_context();
    EXPECT_EQ(released, &ctx);
    EXPECT_EQ(dp.get_context(), nullptr);
    EXPECT_EQ(dp.get(), &data);  // data stays readable
  }
  EXPECT_TRUE(deleted_pointers().empty());
}

TEST_F(DataPtrTest, CastContextChecksDeleter) {
  int data = 0;
  int ctx = 42;
  DataPtr dp(&data, &ctx, &recordingDeleter, Device(DeviceType::CPU));
  EXPECT_EQ(dp.cast_context<int>(&otherRecordingDeleter), nullptr);
  int* as_int = dp.cast_context<int>(&recordingDeleter);
  ASSERT_EQ(as_int, &ctx);
  EXPECT_EQ(*as_int, 42);
}

TEST_F(DataPtrTest, UnsafeSetDeviceChangesOnlyDevice) {
  int data = 0;
  DataPtr dp(&data, Device(DeviceType::CPU));
  dp.unsafe_set_device(Device(DeviceType::CUDA, 3));
  EXPECT_EQ(dp.device(), Device(DeviceType::CUDA, 3));
  EXPECT_EQ(dp.get(), &data);
}

// ---- InefficientStdFunctionContext ----

TEST(InefficientStdFunctionContextTest, MakeDataPtrCallsFunctionOnceWithData) {
  int data = 0;
  int calls = 0;
  void* seen = nullptr;
  {
    DataPtr dp = c10::InefficientStdFunctionContext::makeDataPtr(
        &data,
        [&](void* p) {
          ++calls;
          seen = p;
        },
        Device(DeviceType::CPU));
    EXPECT_EQ(dp.get(), &data);
    EXPECT_NE(dp.get_context(), nullptr);
    EXPECT_NE(dp.get_context(), static_cast<void*>(&data));  // the context is a heap object
    EXPECT_EQ(calls, 0);
    DataPtr moved = std::move(dp);
    EXPECT_EQ(calls, 0);
  }
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(seen, &data);
}

TEST(InefficientStdFunctionContextTest, MoveLeavesSourceWithoutDeleter) {
  int data = 0;
  int calls = 0;
  {
    c10::InefficientStdFunctionContext a(&data, [&](void*) { ++calls; });
    c10::InefficientStdFunctionContext b(std::move(a));
    EXPECT_EQ(a.ptr_, nullptr);
    EXPECT_EQ(b.ptr_, &data);
  }
  EXPECT_EQ(calls, 1);
}

// ---- Allocator helpers, on the default CPU allocator ----

TEST(AllocatorTest, CloneCopiesBytesIntoNewAllocation) {
  c10::Allocator* alloc = c10::GetDefaultCPUAllocator();
  const char src[] = "torch anatomy clone";
  DataPtr copy = alloc->clone(src, sizeof(src));
  ASSERT_NE(copy.get(), nullptr);
  EXPECT_NE(copy.get(), static_cast<const void*>(src));
  EXPECT_EQ(std::memcmp(copy.get(), src, sizeof(src)), 0);
  EXPECT_EQ(copy.device(), Device(DeviceType::CPU));
}

TEST(AllocatorTest, RawAllocateAndDeallocateOnDefaultCpuAllocator) {
  c10::Allocator* alloc = c10::GetDefaultCPUAllocator();
  ASSERT_NE(alloc->raw_deleter(), nullptr);
  void* p = alloc->raw_allocate(128);
  ASSERT_NE(p, nullptr);
  std::memset(p, 0xab, 128);
  EXPECT_EQ(static_cast<unsigned char*>(p)[127], 0xab);
  alloc->raw_deallocate(p);
}

TEST(AllocatorTest, RawDeallocateWithoutRawDeleterAsserts) {
  DummyAllocator alloc;
  EXPECT_EQ(alloc.raw_deleter(), nullptr);
  int x = 0;
  try {
    alloc.raw_deallocate(&x);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what_without_backtrace()).find("INTERNAL ASSERT FAILED"), std::string::npos);
  }
}

TEST(AllocatorTest, IsSimpleDataPtrComparesDataAndContext) {
  c10::Allocator* alloc = c10::GetDefaultCPUAllocator();
  DataPtr simple = alloc->allocate(16);
  EXPECT_TRUE(alloc->is_simple_data_ptr(simple));
  int data = 0;
  int ctx = 0;
  DataPtr not_simple(&data, &ctx, nullptr, Device(DeviceType::CPU));
  EXPECT_FALSE(alloc->is_simple_data_ptr(not_simple));
}

// ---- the registry. Each test owns a device type nothing else registers, because a
// priority can never be lowered again (the CPU slot must not be touched). ----

TEST(AllocatorRegistryTest, PriorityEqualOverwritesLowerIgnoredHigherWins) {
  static DummyAllocator a, b, c, d;
  const DeviceType t = DeviceType::FPGA;
  c10::SetAllocator(t, &a);  // default priority 0
  EXPECT_EQ(c10::GetAllocator(t), &a);
  c10::SetAllocator(t, &b, 0);  // equal priority overwrites
  EXPECT_EQ(c10::GetAllocator(t), &b);
  c10::SetAllocator(t, &c, 5);  // higher wins
  EXPECT_EQ(c10::GetAllocator(t), &c);
  c10::SetAllocator(t, &a, 4);  // lower is silently ignored
  EXPECT_EQ(c10::GetAllocator(t), &c);
  c10::SetAllocator(t, &a, 0);
  EXPECT_EQ(c10::GetAllocator(t), &c);
  c10::SetAllocator(t, &d, 5);  // equal again overwrites
  EXPECT_EQ(c10::GetAllocator(t), &d);
  // Other device types are independent slots.
  EXPECT_NE(c10::GetAllocator(DeviceType::CPU), &d);
  // Leave the slot empty again (its priority stays at the maximum: it cannot be lowered).
  c10::SetAllocator(t, nullptr, 255);
  EXPECT_THROW(c10::GetAllocator(t), c10::Error);
}

TEST(AllocatorRegistryTest, RegistererUsesPriorityZero) {
  static DummyAllocator first, second;
  const DeviceType t = DeviceType::XLA;
  c10::AllocatorRegisterer<DeviceType::XLA> r1(&first);
  EXPECT_EQ(c10::GetAllocator(t), &first);
  c10::AllocatorRegisterer<DeviceType::XLA> r2(&second);
  EXPECT_EQ(c10::GetAllocator(t), &second);
  c10::SetAllocator(t, nullptr, 255);
}

TEST(AllocatorRegistryTest, GetAllocatorOnUnsetTypeThrows) {
  try {
    c10::GetAllocator(DeviceType::OPENGL);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_EQ(std::string(e.what_without_backtrace()), "Allocator for opengl is not set.");
  }
}

TEST(AllocatorRegistryTest, CpuSlotHoldsTheDefaultCpuAllocator) {
  EXPECT_EQ(c10::GetAllocator(DeviceType::CPU), c10::GetDefaultCPUAllocator());
}
