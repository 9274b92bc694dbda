// aten/src/TH/test/THStorage_test.cpp - THStorage_(NAME): creation, element access,
// refcounting (retain/free), resize, fill, typed copies, and the legacy THTensor view.
// PyTorch deleted TH in 1.11. Guide: docs/source/internals/th_storage.rst.
// (The suites are not named THStorage and THTensor: those are macros here.)
#include <TH/TH.h>

#include <c10/core/CPUAllocator.h>
#include <c10/util/intrusive_ptr.h>
#include <gtest/gtest.h>

namespace {

// An allocator that counts what it hands out and takes back, to see the storage die.
struct CountingAllocator final : public c10::Allocator {
  static int live;
  static void deleter(void* p) {
    --live;
    c10::GetCPUAllocator()->raw_deleter()(p);
  }
  c10::DataPtr allocate(size_t n) override {
    ++live;
    void* p = c10::GetCPUAllocator()->raw_allocate(n);
    return {p, p, &deleter, c10::Device(c10::DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &deleter; }
  void copy_data(void* dest, const void* src, std::size_t count) const override { default_copy_data(dest, src, count); }
};
int CountingAllocator::live = 0;

}  // namespace

TEST(THStorageFunctions, NewWithSizeIsAResizableStorageImplOfElements) {
  THFloatStorage* s = THFloatStorage_newWithSize(4);
  EXPECT_EQ(THFloatStorage_size(s), 4);
  EXPECT_EQ(s->nbytes(), 4 * sizeof(float));
  EXPECT_TRUE(s->resizable());
  EXPECT_EQ(s->allocator(), getTHDefaultAllocator());
  EXPECT_EQ(THFloatStorage_elementSize(), sizeof(float));
  EXPECT_EQ(c10::raw::intrusive_ptr::use_count(s), 1u);
  THFloatStorage_free(s);
}

TEST(THStorageFunctions, NewIsEmpty) {
  THDoubleStorage* s = THDoubleStorage_new();
  EXPECT_EQ(THDoubleStorage_size(s), 0);
  THDoubleStorage_free(s);
}

TEST(THStorageFunctions, GetSetAndOutOfRange) {
  THIntStorage* s = THIntStorage_newWithSize(3);
  THIntStorage_set(s, 2, 42);
  EXPECT_EQ(THIntStorage_get(s, 2), 42);
  EXPECT_EQ(THIntStorage_data(s)[2], 42);
  EXPECT_THROW(THIntStorage_get(s, 3), c10::IndexError);
  EXPECT_THROW(THIntStorage_set(s, -1, 0), c10::IndexError);
  try {
    THIntStorage_get(s, 10);
  } catch (const c10::IndexError& e) {
    EXPECT_NE(std::string(e.what_without_backtrace()).find("index 10 out of range for storage of size 3"),
              std::string::npos);
  }
  THIntStorage_free(s);
}

TEST(THStorageFunctions, RetainAndFreeReleaseTheStorageImplAtZero) {
  CountingAllocator allocator;
  CountingAllocator::live = 0;
  THLongStorage* s = THLongStorage_newWithAllocator(8, &allocator);
  EXPECT_EQ(CountingAllocator::live, 1);
  THLongStorage_retain(s);
  EXPECT_EQ(c10::raw::intrusive_ptr::use_count(s), 2u);
  THLongStorage_free(s);
  EXPECT_EQ(c10::raw::intrusive_ptr::use_count(s), 1u);
  EXPECT_EQ(CountingAllocator::live, 1);  // one reference left: still alive
  THLongStorage_free(s);                  // the last one: StorageImpl destroyed, memory freed
  EXPECT_EQ(CountingAllocator::live, 0);
}

TEST(THStorageFunctions, ResizeKeepsThePrefix) {
  THShortStorage* s = THShortStorage_newWithSize(2);
  THShortStorage_set(s, 0, 7);
  THShortStorage_set(s, 1, 8);
  THShortStorage_resize(s, 5);
  EXPECT_EQ(THShortStorage_size(s), 5);
  EXPECT_EQ(THShortStorage_get(s, 0), 7);
  EXPECT_EQ(THShortStorage_get(s, 1), 8);
  THShortStorage_resize(s, 1);
  EXPECT_EQ(THShortStorage_size(s), 1);
  EXPECT_EQ(THShortStorage_get(s, 0), 7);
  THShortStorage_free(s);
}

TEST(THStorageFunctions, FillAndTypedCopiesConvert) {
  THDoubleStorage* d = THDoubleStorage_newWithSize(3);
  THDoubleStorage_set(d, 0, 2.7);
  THDoubleStorage_set(d, 1, -1.5);
  THDoubleStorage_set(d, 2, 0.0);
  THIntStorage* i = THIntStorage_newWithSize(3);
  THIntStorage_copyDouble(i, d);
  EXPECT_EQ(THIntStorage_get(i, 0), 2);
  EXPECT_EQ(THIntStorage_get(i, 1), -1);
  THBoolStorage* b = THBoolStorage_newWithSize(3);
  THBoolStorage_copyDouble(b, d);
  EXPECT_TRUE(THBoolStorage_get(b, 0));
  EXPECT_FALSE(THBoolStorage_get(b, 2));
  THHalfStorage* h = THHalfStorage_newWithSize(3);
  THHalfStorage_copyDouble(h, d);
  EXPECT_FLOAT_EQ(static_cast<float>(THHalfStorage_get(h, 1)), -1.5f);
  THFloatStorage* f = THFloatStorage_newWithSize(3);
  THFloatStorage_fill(f, 9.f);
  THDoubleStorage_copyFloat(d, f);
  EXPECT_EQ(THDoubleStorage_get(d, 2), 9.0);
  THFloatStorage* small = THFloatStorage_newWithSize(2);
  EXPECT_THROW(THFloatStorage_copyDouble(small, d), c10::Error);
  for (THStorage* s : {d, i, b, h, f, small}) {
    THStorage_free(s);
  }
}

TEST(THStorageFunctions, ResizeOfAMappingIsRefused) {
  c10::DataPtr borrowed(nullptr, c10::Device(c10::DeviceType::CPU));
  THFloatStorage* s = THFloatStorage_newWithDataAndAllocator(std::move(borrowed), 0, nullptr);
  EXPECT_FALSE(s->resizable());
  EXPECT_THROW(THFloatStorage_resize(s, 4), c10::Error);
  THFloatStorage_free(s);
}

TEST(THTensorFunctions, LegacyViewOverAStorage) {
  THFloatStorage* s = THFloatStorage_newWithSize(6);
  for (int k = 0; k < 6; ++k) {
    THFloatStorage_set(s, k, static_cast<float>(k));
  }
  // Elements 1, 3, 5: offset 1, stride 2.
  THFloatTensor* t = THFloatTensor_newWithStorage1d(s, 1, 3, 2);
  EXPECT_EQ(c10::raw::intrusive_ptr::use_count(s), 2u);  // the tensor holds the storage
  EXPECT_EQ(THFloatTensor_storage(t), s);
  EXPECT_EQ(THFloatTensor_storageOffset(t), 1);
  EXPECT_EQ(THFloatTensor_nDimension(t), 1);
  EXPECT_EQ(THFloatTensor_size(t, 0), 3);
  EXPECT_EQ(THFloatTensor_stride(t, 0), 2);
  EXPECT_EQ(*THFloatTensor_data(t), 1.f);
  EXPECT_EQ(THFloatTensor_sumall(t), 1.0 + 3.0 + 5.0);
  THFloatTensor_fill(t, -1.f);
  EXPECT_EQ(THFloatStorage_get(s, 0), 0.f);
  EXPECT_EQ(THFloatStorage_get(s, 3), -1.f);
  EXPECT_EQ(THFloatStorage_get(s, 4), 4.f);
  THFloatTensor_zero(t);
  EXPECT_EQ(THFloatStorage_get(s, 5), 0.f);
  EXPECT_THROW(THFloatTensor_size(t, 1), c10::Error);
  THTensor_free(t);
  EXPECT_EQ(c10::raw::intrusive_ptr::use_count(s), 1u);
  THFloatStorage_free(s);
}

TEST(THTensorFunctions, SumallAccumulatesInAccreal) {
  // 2^24 + 1 is not a float; summed in double (accreal of Float) it survives.
  THFloatStorage* s = THFloatStorage_newWithSize(2);
  THFloatStorage_set(s, 0, 16777216.f);
  THFloatStorage_set(s, 1, 1.f);
  THFloatTensor* t = THFloatTensor_newWithStorage1d(s, 0, 2, 1);
  EXPECT_EQ(THFloatTensor_sumall(t), 16777217.0);
  THTensor_free(t);
  THFloatStorage_free(s);
}
