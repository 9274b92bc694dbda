// aten/src/THC/test/THCStorage_test.cpp - CUDA storages and the typed copies between CPU
// and CUDA. The first group runs on any machine with a CUDA build (errors come before the
// GPU is touched); the second needs a GPU and skips when c10::cuda::device_count() is 0.
// PyTorch deleted THC in 1.11. Guide: docs/source/internals/th_storage.rst.
// (The suites are not named THCStorage or THCState: those are a macro and a struct here.)
#include <THC/THC.h>

#include <c10/core/Allocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/util/intrusive_ptr.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// One THCState per test, as legacy code kept one per process.
class THCStorageTest : public ::testing::Test {
 protected:
  void SetUp() override { state = THCState_alloc(); }
  void TearDown() override { THCState_free(state); }
  THCState* state = nullptr;
};

#define SKIP_WITHOUT_GPU()                                   \
  if (c10::cuda::device_count() == 0) {                      \
    GTEST_SKIP() << "no CUDA device: device_count() == 0";   \
  }

// A CPU storage holding `values`, converted to the storage's type by TH's set.
THFloatStorage* cpuFloats(const std::vector<float>& values) {
  THFloatStorage* s = THFloatStorage_newWithSize(static_cast<ptrdiff_t>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) {
    THFloatStorage_set(s, static_cast<ptrdiff_t>(i), values[i]);
  }
  return s;
}

}  // namespace

// ---- any machine ----

TEST_F(THCStorageTest, StateStartsWithNoDevices) {
  EXPECT_EQ(THCState_getNumDevices(state), 0);
}

// [marker: THCStorage_test_no_gpu]
TEST_F(THCStorageTest, CreatingACudaStorageWithoutAGPURaisesPyTorchsError) {
  if (c10::cuda::device_count() > 0) {
    GTEST_SKIP() << "a GPU is present: the storage is allocated";
  }
  try {
    THCudaStorage_newWithSize(state, 4);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    // No driver at all, or a driver without a GPU: torch.cuda's words.
    EXPECT_TRUE(contains(e.msg(), "Found no NVIDIA driver on your system") ||
                contains(e.msg(), "No CUDA GPUs are available"))
        << e.msg();
  }
  EXPECT_EQ(THCState_getNumDevices(state), 0);
}
// [end marker: THCStorage_test_no_gpu]

TEST_F(THCStorageTest, CopiesCheckDevicesBeforeTouchingTheGPU) {
  // CPU storages where CUDA ones belong: refused with an argument error, no CUDA call made.
  THFloatStorage* f = cpuFloats({1, 2, 3});
  THByteStorage* b = THByteStorage_newWithSize(3);
  try {
    THCudaStorage_copyCPU(state, f, f);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_TRUE(contains(e.msg(), "invalid argument 2: expected a CUDA storage, got cpu")) << e.msg();
  }
  try {
    THFloatStorage_copyCudaByte(state, f, b);  // CUDA Byte -> CPU Float, with a CPU source
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_TRUE(contains(e.msg(), "invalid argument 3: expected a CUDA storage, got cpu")) << e.msg();
  }
  THByteStorage_free(b);
  THFloatStorage_free(f);
}

TEST_F(THCStorageTest, CopiesCheckSizes) {
  // Checked first, so these fail the same way with or without a GPU.
  THFloatStorage* f = cpuFloats({1, 2, 3});
  THByteStorage* b = THByteStorage_newWithSize(2);
  THIntStorage* i = THIntStorage_newWithSize(2);
  EXPECT_THROW(THCudaStorage_copyByte(state, f, b), c10::Error);
  EXPECT_THROW(THIntStorage_copyCudaFloat(state, i, f), c10::Error);
  THIntStorage_free(i);
  THByteStorage_free(b);
  THFloatStorage_free(f);
}

// ---- with a GPU ----

TEST_F(THCStorageTest, NewWithSizeIsAStorageImplOnTheGPU) {
  SKIP_WITHOUT_GPU();
  THCudaStorage* s = THCudaStorage_newWithSize(state, 4);
  EXPECT_EQ(THCState_getNumDevices(state), c10::cuda::device_count());
  EXPECT_EQ(s->device_type(), c10::DeviceType::CUDA);
  EXPECT_EQ(s->allocator(), c10::GetAllocator(c10::DeviceType::CUDA));
  EXPECT_EQ(THCudaStorage_getDevice(state, s), c10::cuda::current_device());
  EXPECT_EQ(THCudaStorage_size(state, s), 4);
  EXPECT_EQ(s->nbytes(), 4 * sizeof(float));
  EXPECT_EQ(THCudaStorage_elementSize(state), static_cast<int>(sizeof(float)));
  THCudaStorage_set(state, s, 2, 2.5f);
  EXPECT_EQ(THCudaStorage_get(state, s, 2), 2.5f);
  EXPECT_THROW(THCudaStorage_get(state, s, 4), c10::IndexError);
  EXPECT_EQ(c10::raw::intrusive_ptr::use_count(s), 1u);
  THCudaStorage_retain(state, s);
  EXPECT_EQ(c10::raw::intrusive_ptr::use_count(s), 2u);
  THCudaStorage_free(state, s);
  THCudaStorage_free(state, s);
}

// [marker: THCStorage_test_round_trip]
TEST_F(THCStorageTest, RoundTripThroughTheGPUConvertsTypes) {
  SKIP_WITHOUT_GPU();
  THFloatStorage* cpu = cpuFloats({1.5f, -2.7f, 0.0f, 3.0f});
  THCudaDoubleStorage* gpu = THCudaDoubleStorage_newWithSize(state, 4);
  THCudaDoubleStorage_copyFloat(state, gpu, cpu);  // CPU Float -> CUDA Double

  THIntStorage* ints = THIntStorage_newWithSize(4);
  THIntStorage_copyCudaDouble(state, ints, gpu);  // CUDA Double -> CPU Int: truncated, as in C
  EXPECT_EQ(THIntStorage_get(ints, 0), 1);
  EXPECT_EQ(THIntStorage_get(ints, 1), -2);
  EXPECT_EQ(THIntStorage_get(ints, 2), 0);
  EXPECT_EQ(THIntStorage_get(ints, 3), 3);

  THDoubleStorage* doubles = THDoubleStorage_newWithSize(4);
  THDoubleStorage_copyCudaDouble(state, doubles, gpu);  // the values the GPU holds
  EXPECT_EQ(THDoubleStorage_get(doubles, 1), static_cast<double>(-2.7f));

  THDoubleStorage_free(doubles);
  THIntStorage_free(ints);
  THCudaDoubleStorage_free(state, gpu);
  THFloatStorage_free(cpu);
}
// [end marker: THCStorage_test_round_trip]

TEST_F(THCStorageTest, CudaToCudaConvertsTypes) {
  SKIP_WITHOUT_GPU();
  THLongStorage* longs = THLongStorage_newWithSize(3);
  THLongStorage_set(longs, 0, 0);
  THLongStorage_set(longs, 1, 5);
  THLongStorage_set(longs, 2, -1);
  THCudaBoolStorage* bools = THCudaBoolStorage_newWithSize(state, 3);
  THCudaBoolStorage_copyLong(state, bools, longs);  // CPU Long -> CUDA Bool: nonzero is true
  THCudaHalfStorage* halves = THCudaHalfStorage_newWithSize(state, 3);
  THCudaHalfStorage_copyCudaBool(state, halves, bools);  // CUDA Bool -> CUDA Half
  THFloatStorage* back = THFloatStorage_newWithSize(3);
  THFloatStorage_copyCudaHalf(state, back, halves);  // CUDA Half -> CPU Float
  EXPECT_EQ(THFloatStorage_get(back, 0), 0.0f);
  EXPECT_EQ(THFloatStorage_get(back, 1), 1.0f);
  EXPECT_EQ(THFloatStorage_get(back, 2), 1.0f);
  THFloatStorage_free(back);
  THCudaHalfStorage_free(state, halves);
  THCudaBoolStorage_free(state, bools);
  THLongStorage_free(longs);
}

TEST_F(THCStorageTest, SameTypeCopiesMoveBytes) {
  SKIP_WITHOUT_GPU();
  THFloatStorage* cpu = cpuFloats({1, 2, 3});
  THCudaStorage* a = THCudaStorage_newWithSize(state, 3);
  THCudaStorage* b = THCudaStorage_newWithSize(state, 3);
  THCudaStorage_copyCPU(state, a, cpu);
  THCudaStorage_copy(state, b, a);
  THFloatStorage* back = THFloatStorage_newWithSize(3);
  THFloatStorage_copyCuda(state, back, b);
  for (ptrdiff_t i = 0; i < 3; ++i) {
    EXPECT_EQ(THFloatStorage_get(back, i), static_cast<float>(i + 1));
  }
  THFloatStorage_free(back);
  THCudaStorage_free(state, b);
  THCudaStorage_free(state, a);
  THFloatStorage_free(cpu);
}

TEST_F(THCStorageTest, FillWritesEveryElement) {
  SKIP_WITHOUT_GPU();
  THCudaIntStorage* s = THCudaIntStorage_newWithSize(state, 5);
  THCudaIntStorage_fill(state, s, -3);
  for (ptrdiff_t i = 0; i < 5; ++i) {
    EXPECT_EQ(THCudaIntStorage_get(state, s, i), -3);
  }
  THCudaIntStorage_free(state, s);
}

TEST_F(THCStorageTest, ResizeKeepsThePrefixAndTheGPU) {
  SKIP_WITHOUT_GPU();
  THCudaLongStorage* s = THCudaLongStorage_newWithSize(state, 3);
  for (ptrdiff_t i = 0; i < 3; ++i) {
    THCudaLongStorage_set(state, s, i, 10 * (i + 1));
  }
  THCudaLongStorage_resize(state, s, 5);
  EXPECT_EQ(THCudaLongStorage_size(state, s), 5);
  EXPECT_EQ(s->device_type(), c10::DeviceType::CUDA);
  EXPECT_EQ(THCudaLongStorage_get(state, s, 0), 10);
  EXPECT_EQ(THCudaLongStorage_get(state, s, 2), 30);
  THCudaLongStorage_resize(state, s, 1);
  EXPECT_EQ(THCudaLongStorage_size(state, s), 1);
  EXPECT_EQ(THCudaLongStorage_get(state, s, 0), 10);
  // Empty, and still a CUDA storage: its DataPtr came from the CUDA allocator.
  THCudaLongStorage_resize(state, s, 0);
  EXPECT_EQ(s->nbytes(), 0u);
  EXPECT_EQ(s->device_type(), c10::DeviceType::CUDA);
  THCudaLongStorage_free(state, s);
}

TEST_F(THCStorageTest, AStorageOverAnotherOnesMemoryIsNotResizable) {
  SKIP_WITHOUT_GPU();
  THCudaStorage* base = THCudaStorage_newWithSize(state, 4);
  THCudaStorage_fill(state, base, 0.0f);
  // Elements 1 and 2 of base, with no allocator and a DataPtr that frees nothing.
  c10::DataPtr data(THCudaStorage_data(state, base) + 1, base->device());
  THCudaStorage* view = THCudaStorage_newWithDataAndAllocator(state, std::move(data), 2, nullptr);
  EXPECT_EQ(THCudaStorage_size(state, view), 2);
  EXPECT_FALSE(view->resizable());
  THCudaStorage_set(state, view, 0, 5.0f);
  EXPECT_EQ(THCudaStorage_get(state, base, 1), 5.0f);
  EXPECT_THROW(THCudaStorage_resize(state, view, 3), c10::Error);
  THCudaStorage_free(state, view);
  THCudaStorage_free(state, base);
}
