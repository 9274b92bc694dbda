// Tests StorageImpl/Storage: size and device, the resizable-needs-allocator assert, set_data_ptr, and when the bytes are freed (strong vs weak references).
// Mirrors PyTorch's c10/core/StorageImpl.h and c10/core/Storage.h. Guide: docs/source/internals/memory.rst.
#include <c10/core/CPUAllocator.h>
#include <c10/core/Storage.h>
#include <c10/core/StorageImpl.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using c10::DataPtr;
using c10::Device;
using c10::DeviceType;
using c10::Storage;
using c10::StorageImpl;

namespace {

// A malloc-backed allocator that counts allocations and frees.
struct CountingAllocator final : c10::Allocator {
  static int allocs;
  static int frees;
  static void* last_freed;
  static void Delete(void* p) {
    ++frees;
    last_freed = p;
    std::free(p);
  }
  DataPtr allocate(size_t n) override {
    ++allocs;
    void* p = n == 0 ? nullptr : std::malloc(n);
    return {p, p, &Delete, Device(DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &Delete; }
  void copy_data(void* dest, const void* src, std::size_t count) const override {
    default_copy_data(dest, src, count);
  }
};
int CountingAllocator::allocs = 0;
int CountingAllocator::frees = 0;
void* CountingAllocator::last_freed = nullptr;

class StorageImplTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CountingAllocator::allocs = 0;
    CountingAllocator::frees = 0;
    CountingAllocator::last_freed = nullptr;
  }
  CountingAllocator alloc_;
};

}  // namespace

TEST_F(StorageImplTest, CpuAllocatorStorageHasSizeAndDevice) {
  auto impl = c10::make_intrusive<StorageImpl>(StorageImpl::use_byte_size_t(), 128,
                                               c10::GetCPUAllocator(), /*resizable=*/true);
  EXPECT_EQ(impl->nbytes(), 128u);
  EXPECT_EQ(impl->device(), Device(DeviceType::CPU));
  EXPECT_EQ(impl->device_type(), DeviceType::CPU);
  EXPECT_TRUE(impl->resizable());
  EXPECT_EQ(impl->allocator(), c10::GetCPUAllocator());
  ASSERT_NE(impl->data(), nullptr);
  EXPECT_EQ(impl->data(), impl->data_ptr().get());
  EXPECT_EQ(impl->mutable_data(), impl->data_ptr().get());
  EXPECT_FALSE(impl->received_cuda());
}

TEST_F(StorageImplTest, ResizableWithoutAllocatorAsserts) {
  try {
    auto impl = c10::make_intrusive<StorageImpl>(StorageImpl::use_byte_size_t(), 0, DataPtr(),
                                                 /*allocator=*/nullptr, /*resizable=*/true);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    const std::string msg = e.what_without_backtrace();
    EXPECT_NE(msg.find("INTERNAL ASSERT FAILED"), std::string::npos) << msg;
    EXPECT_NE(msg.find("For resizable storage, allocator must be provided"), std::string::npos) << msg;
  }
  // Not resizable: no allocator needed.
  auto fixed = c10::make_intrusive<StorageImpl>(StorageImpl::use_byte_size_t(), 0, DataPtr(),
                                                nullptr, /*resizable=*/false);
  EXPECT_FALSE(fixed->resizable());
  EXPECT_THROW(fixed->set_resizable(true), c10::Error);
  EXPECT_FALSE(fixed->resizable());
}

TEST_F(StorageImplTest, SetDataPtrReturnsTheOldOne) {
  auto impl = c10::make_intrusive<StorageImpl>(StorageImpl::use_byte_size_t(), 16, &alloc_, false);
  void* first = impl->mutable_data();
  DataPtr replacement = alloc_.allocate(16);
  void* second = replacement.get();
  DataPtr old = impl->set_data_ptr(std::move(replacement));
  EXPECT_EQ(old.get(), first);
  EXPECT_EQ(impl->data(), second);
  EXPECT_EQ(CountingAllocator::frees, 0);
  old.clear();  // the caller owns the old memory now
  EXPECT_EQ(CountingAllocator::frees, 1);
  EXPECT_EQ(CountingAllocator::last_freed, first);
  impl.reset();
  EXPECT_EQ(CountingAllocator::frees, 2);
  EXPECT_EQ(CountingAllocator::last_freed, second);
}

TEST_F(StorageImplTest, MemoryFreedWhenLastStorageGoes) {
  void* data = nullptr;
  {
    Storage a(Storage::use_byte_size_t(), 64, &alloc_, /*resizable=*/true);
    EXPECT_EQ(CountingAllocator::allocs, 1);
    data = a.mutable_data();
    {
      Storage b = a;
      EXPECT_EQ(a.use_count(), 2u);
      EXPECT_TRUE(a.is_alias_of(b));
      EXPECT_FALSE(a.unique());
    }
    EXPECT_EQ(CountingAllocator::frees, 0);
    EXPECT_TRUE(a.unique());
  }
  EXPECT_EQ(CountingAllocator::frees, 1);
  EXPECT_EQ(CountingAllocator::last_freed, data);
}

TEST_F(StorageImplTest, ResetFreesImmediately) {
  Storage s(Storage::use_byte_size_t(), 32, &alloc_, true);
  s.unsafeGetStorageImpl()->reset();
  EXPECT_EQ(CountingAllocator::frees, 1);
  EXPECT_EQ(s.nbytes(), 0u);
  EXPECT_EQ(s.data(), nullptr);
}

TEST_F(StorageImplTest, DefaultCpuMemoryReturnsToReporterWhenStorageDies) {
  auto& reporter = c10::profiledCPUMemoryReporter();
  const bool was_enabled = reporter.enabled();
  reporter.setStatsEnabled(true);
  const auto before = reporter.stats();
  {
    Storage s(Storage::use_byte_size_t(), 1000, c10::GetCPUAllocator(), true);
    EXPECT_EQ(reporter.stats().allocated_bytes_current, before.allocated_bytes_current + 1000);
  }
  EXPECT_EQ(reporter.stats().allocated_bytes_current, before.allocated_bytes_current);
  EXPECT_EQ(reporter.stats().allocated_bytes_freed, before.allocated_bytes_freed + 1000);
  reporter.setStatsEnabled(was_enabled);
}

TEST_F(StorageImplTest, WeakRefKeepsObjectButNotBytes) {
  auto strong = c10::make_intrusive<StorageImpl>(StorageImpl::use_byte_size_t(), 48, &alloc_, true);
  StorageImpl* raw = strong.get();
  void* data = strong->mutable_data();
  c10::weak_intrusive_ptr<StorageImpl> weak(strong);
  EXPECT_EQ(weak.use_count(), 1u);
  EXPECT_EQ(weak.weak_use_count(), 2u);

  strong.reset();  // last strong ref: release_resources() frees the bytes now
  EXPECT_EQ(CountingAllocator::frees, 1);
  EXPECT_EQ(CountingAllocator::last_freed, data);
  EXPECT_TRUE(weak.expired());
  EXPECT_FALSE(weak.lock());
  // The StorageImpl object itself is still there (answering expired()), minus its memory.
  EXPECT_EQ(weak._unsafe_get_target(), raw);
  EXPECT_EQ(raw->data(), nullptr);
  EXPECT_EQ(weak.weak_use_count(), 1u);

  weak.reset();  // now the object goes; the bytes are not freed a second time
  EXPECT_EQ(CountingAllocator::frees, 1);
}

TEST_F(StorageImplTest, UniqueStorageShareExternalPointerDropsAllocator) {
  int external[4] = {1, 2, 3, 4};
  Storage s(Storage::use_byte_size_t(), 16, &alloc_, true);
  s.unsafeGetStorageImpl()->UniqueStorageShareExternalPointer(
      DataPtr(external, Device(DeviceType::CPU)), sizeof(external));
  EXPECT_EQ(CountingAllocator::frees, 1);  // the old allocation went
  EXPECT_EQ(s.data(), static_cast<void*>(external));
  EXPECT_EQ(s.nbytes(), sizeof(external));
  EXPECT_EQ(s.allocator(), nullptr);
  EXPECT_FALSE(s.resizable());
}

TEST_F(StorageImplTest, ReleaseAndReclaimKeepTheStorage) {
  Storage s(Storage::use_byte_size_t(), 8, &alloc_, true);
  StorageImpl* raw = s.unsafeReleaseStorageImpl();
  EXPECT_FALSE(s);
  EXPECT_EQ(CountingAllocator::frees, 0);
  Storage back(c10::intrusive_ptr<StorageImpl>::reclaim(raw));
  EXPECT_EQ(back.use_count(), 1u);
  EXPECT_EQ(back.nbytes(), 8u);
}
