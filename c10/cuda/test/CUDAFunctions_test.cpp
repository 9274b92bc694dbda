// c10/cuda/test/CUDAFunctions_test.cpp - device count, current device, and C10_CUDA_CHECK.
// Mirrors what PyTorch's c10/cuda/test and test/test_cuda.py check of c10/cuda/CUDAFunctions
// and CUDAException. Guide: docs/source/internals/c10_cuda.rst.
// The first group runs on any machine (they are what a GPU-less CUDA build must do); the
// GPU group skips when device_count() is 0.
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>

#include <c10/cuda/test/CUDATestUtils.h>
#include <gtest/gtest.h>

#include <string>

using namespace c10::cuda;
using c10::DeviceIndex;

using c10::cuda::test::contains;

// ---- any machine ----

TEST(CUDAFunctionsTest, DeviceCountNeverThrows) {
  static_assert(noexcept(device_count()), "device_count() must be noexcept");
  const auto count = device_count();
  EXPECT_GE(count, 0);
  EXPECT_EQ(device_count(), count);  // computed once
}

TEST(CUDAFunctionsTest, EnsureNonZeroExplainsWhyThereIsNoGPU) {
  if (device_count() > 0) {
    EXPECT_EQ(device_count_ensure_non_zero(), device_count());
    return;
  }
  try {
    device_count_ensure_non_zero();
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    // No driver at all, or a driver without a GPU.
    EXPECT_TRUE(contains(e.msg(), "Found no NVIDIA driver on your system") ||
                contains(e.msg(), "No CUDA GPUs are available"))
        << e.msg();
  }
}

TEST(CUDAExceptionTest, CheckThrowsCUDAErrorWithPyTorchsMessage) {
  try {
    C10_CUDA_CHECK(cudaErrorMemoryAllocation);
    FAIL() << "expected c10::CUDAError";
  } catch (const c10::CUDAError& e) {
    const std::string msg = e.msg();
    EXPECT_EQ(msg.rfind("CUDA error: out of memory", 0), 0u) << msg;
    EXPECT_TRUE(contains(msg, "Search for `cudaErrorMemoryAllocation'")) << msg;
    EXPECT_TRUE(contains(msg, "CUDA kernel errors might be asynchronously reported at some other API call")) << msg;
    EXPECT_TRUE(contains(msg, "For debugging consider passing CUDA_LAUNCH_BLOCKING=1")) << msg;
    EXPECT_TRUE(contains(msg, "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.")) << msg;
  }
}

TEST(CUDAExceptionTest, CheckIsSilentOnSuccess) {
  EXPECT_NO_THROW(C10_CUDA_CHECK(cudaSuccess));
}

TEST(CUDAExceptionTest, IgnoreAndWarnDoNotThrow) {
  // cudaSetDevice(-1) fails with or without a GPU.
  EXPECT_NO_THROW(C10_CUDA_IGNORE_ERROR(cudaSetDevice(-1)));
  EXPECT_NO_THROW(C10_CUDA_CHECK_WARN(cudaSetDevice(-1)));
}

TEST(CUDAExceptionTest, WithoutADriverEveryCallFails) {
  if (device_count() > 0) {
    GTEST_SKIP() << "this machine has a GPU";
  }
  // The runtime could not initialise: that error is permanent for the process, so it is
  // what C10_CUDA_CHECK reports for any call - as an exception, never a crash.
  EXPECT_THROW(C10_CUDA_CHECK(cudaSetDevice(0)), c10::CUDAError);
  EXPECT_THROW(C10_CUDA_KERNEL_LAUNCH_CHECK(), c10::CUDAError);
}

// With a working runtime an error is "sticky" until cudaGetLastError() reads it: a check
// that throws must read it, or the next, unrelated check would fail as well.
TEST(CUDAExceptionTest, FailedCheckClearsTheStickyError) {
  SKIP_WITHOUT_GPU();
  EXPECT_THROW(C10_CUDA_CHECK(cudaSetDevice(-1)), c10::CUDAError);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // reported once, by the check
  C10_CUDA_IGNORE_ERROR(cudaSetDevice(-1));
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  C10_CUDA_CHECK_WARN(cudaSetDevice(-1));
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_NO_THROW(C10_CUDA_KERNEL_LAUNCH_CHECK());  // nothing launched, nothing failed
}

TEST(CUDAFunctionsTest, SetDeviceRejectsNegativeIds) {
  try {
    SetDevice(-1);
    FAIL() << "expected c10::Error";
  } catch (const c10::Error& e) {
    EXPECT_TRUE(contains(e.msg(), "device id must be positive!")) << e.msg();
  }
}

// ---- GPU ----

TEST(CUDAFunctionsTest, SetDeviceChangesCurrentDevice) {
  SKIP_WITHOUT_GPU();
  const DeviceIndex last = static_cast<DeviceIndex>(device_count() - 1);
  set_device(last);
  EXPECT_EQ(current_device(), last);
  set_device(0);
  EXPECT_EQ(current_device(), 0);
}

TEST(CUDAGuardTest, RestoresTheOriginalDevice) {
  SKIP_WITHOUT_GPU();
  set_device(0);
  const DeviceIndex last = static_cast<DeviceIndex>(device_count() - 1);
  {
    CUDAGuard guard(last);
    EXPECT_EQ(current_device(), last);
    EXPECT_EQ(guard.original_device(), c10::Device(c10::DeviceType::CUDA, 0));
  }
  EXPECT_EQ(current_device(), 0);
}

TEST(CUDAFunctionsTest, MemGetInfoAndSynchronize) {
  SKIP_WITHOUT_GPU();
  auto [free_bytes, total_bytes] = memGetInfo(0);
  EXPECT_GT(total_bytes, 0u);
  EXPECT_LE(free_bytes, total_bytes);
  EXPECT_NO_THROW(device_synchronize());
}
