// c10/cuda/CUDAException.h - turning CUDA runtime error codes into C++ exceptions.
// Mirrors PyTorch's c10/cuda/CUDAException.h. Guide: docs/source/internals/c10_cuda.rst.
//
// Every CUDA runtime call returns a cudaError_t; C10_CUDA_CHECK(cudaMalloc(...)) throws a
// c10::CUDAError (a c10::Error, so Python sees RuntimeError) when it is not cudaSuccess:
//   "CUDA error: out of memory\nSearch for `cudaErrorMemoryAllocation' in ...
//    \nCUDA kernel errors might be asynchronously reported at some other API call, ..."
// Why the check clears the error first: the runtime also remembers the last error of the
// thread ("sticky" until cudaGetLastError() reads it). A check that threw without clearing it
// would make the *next*, unrelated C10_CUDA_CHECK(cudaGetLastError()) fail too.
// Kernel launches return nothing: C10_CUDA_KERNEL_LAUNCH_CHECK() after a <<<...>>> reads the
// launch error with cudaGetLastError(). Errors of the kernel itself surface later, at some
// other call - hence the "asynchronously reported" hint and CUDA_LAUNCH_BLOCKING=1.
#pragma once

#include <c10/cuda/CUDAMacros.h>
#include <c10/util/Exception.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

namespace c10 {

// A CUDA runtime error (PyTorch 2.x throws c10::AcceleratorError, which carries the code;
// CUDAError is its older name). Python sees RuntimeError.
class C10_CUDA_API CUDAError : public c10::Error {
 public:
  using Error::Error;
};

}  // namespace c10

namespace c10::cuda {

// "\nCUDA kernel errors might be asynchronously reported ...", or "" when
// CUDA_LAUNCH_BLOCKING=1 (then every launch is synchronous and the stack is right).
C10_CUDA_API std::string get_cuda_check_suffix() noexcept;
// A hint for the error: where to read about its name, or a likely cause.
C10_CUDA_API std::string get_cuda_error_help(cudaError_t error) noexcept;

// What C10_CUDA_CHECK calls: nothing on cudaSuccess, else clear the sticky error and throw.
C10_CUDA_API void c10_cuda_check_implementation(int32_t err, const char* filename, const char* function_name,
                                                uint32_t line_number, bool include_device_assertions);

// Print "Warning: <msg>" to stderr (c10 has no TORCH_WARN handler yet).
C10_CUDA_API void warn(const std::string& msg);

}  // namespace c10::cuda

// [marker: C10_CUDA_CHECK]
#define C10_CUDA_CHECK(EXPR)                                                                      \
  do {                                                                                            \
    const cudaError_t __err = EXPR;                                                               \
    ::c10::cuda::c10_cuda_check_implementation(static_cast<int32_t>(__err), __FILE__, __func__,   \
                                               static_cast<uint32_t>(__LINE__), true);            \
  } while (0)
// [end marker: C10_CUDA_CHECK]

// For calls whose failure must not throw (destructors, clean-up): warn instead.
#define C10_CUDA_CHECK_WARN(EXPR)                                                 \
  do {                                                                            \
    const cudaError_t __err = EXPR;                                               \
    if (C10_UNLIKELY(__err != cudaSuccess)) {                                     \
      [[maybe_unused]] cudaError_t __error_unused = cudaGetLastError();           \
      ::c10::cuda::warn(std::string("CUDA warning: ") + cudaGetErrorString(__err)); \
    }                                                                             \
  } while (0)

// Marks a call whose error the caller looks at itself (e.g. cudaErrorNotReady is an answer).
#define C10_CUDA_ERROR_HANDLED(EXPR) EXPR

// Drop the error, and clear it so that it does not surface at the next check.
#define C10_CUDA_IGNORE_ERROR(EXPR)                                       \
  do {                                                                    \
    const cudaError_t __err = EXPR;                                       \
    if (C10_UNLIKELY(__err != cudaSuccess)) {                             \
      [[maybe_unused]] cudaError_t __error_unused = cudaGetLastError();   \
    }                                                                     \
  } while (0)

// Clear the thread's last error.
#define C10_CUDA_CLEAR_ERROR()                                          \
  do {                                                                  \
    [[maybe_unused]] cudaError_t __error_unused = cudaGetLastError();   \
  } while (0)

// After a kernel launch: did the launch itself fail (bad configuration, no device ...)?
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())
