// c10/cuda/test/CUDATestUtils.h - what c10/cuda's tests share: skipping a GPU-only test on a
// machine without one, and a substring check for error messages. This project's own header
// (PyTorch's c10/cuda tests each repeat such checks). Guide: docs/source/internals/c10_cuda.rst.
#pragma once

#include <c10/cuda/CUDAFunctions.h>

#include <gtest/gtest.h>

#include <string>

// The first statement of a test that needs a device: without one (device_count() is 0, as
// any runtime error makes it) the test is reported as skipped, not passed.
#define SKIP_WITHOUT_GPU()                                        \
  if (c10::cuda::device_count() == 0) {                           \
    GTEST_SKIP() << "no CUDA device: device_count() == 0";        \
  }

namespace c10::cuda::test {
inline bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}
}  // namespace c10::cuda::test
