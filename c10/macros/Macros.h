// c10/macros/Macros.h - small portable macros used everywhere above c10.
// Mirrors PyTorch's c10/macros/Macros.h. Guide: docs/source/internals/source_tree.rst.
#pragma once

#include <c10/macros/Export.h>

// Branch hints: TORCH_CHECK marks its failure branch unlikely so the check costs one
// predictable compare on the hot path.
#define C10_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))
#define C10_UNLIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 0))

#define C10_STRINGIZE_IMPL(x) #x
#define C10_STRINGIZE(x) C10_STRINGIZE_IMPL(x)
#define C10_CONCATENATE_IMPL(s1, s2) s1##s2
#define C10_CONCATENATE(s1, s2) C10_CONCATENATE_IMPL(s1, s2)

// A fresh identifier per use: static registerers (REGISTER_ALLOCATOR, C10_DEFINE_bool) need
// distinct names even when a macro is used twice in one file.
#define C10_UID __COUNTER__
#define C10_ANONYMOUS_VARIABLE(str) C10_CONCATENATE(str, __COUNTER__)

#define C10_DISABLE_COPY_AND_ASSIGN(classname) \
  classname(const classname&) = delete;        \
  classname& operator=(const classname&) = delete

#define C10_NODISCARD [[nodiscard]]
#define C10_UNUSED [[maybe_unused]]
#define C10_ALWAYS_INLINE inline __attribute__((__always_inline__))
#define C10_NOINLINE __attribute__((__noinline__))

// Functions callable from both host and device code once CUDA sources include c10.
#if defined(__CUDACC__)
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__
#define C10_HOST __host__
#else
#define C10_HOST_DEVICE
#define C10_DEVICE
#define C10_HOST
#endif

// An assert inside a CUDA kernel. On a GPU a failure stops the kernel and the device reports
// "device-side assert triggered" at the next synchronizing call (PyTorch's Macros.h). The
// simulated CUDA device defines its own (c10/cuda/impl/sim/cuda_sim.h, included first), with
// the same effect. Host code compiled without either gets the C assert.
#ifndef CUDA_KERNEL_ASSERT
#if defined(__CUDACC__)
#include <cstdio>
#include <cstdlib>
namespace c10 {
// On the device, CUDA's own __assert_fail (declared by its device headers) prints the failing
// block and thread and makes the kernel fail with cudaErrorAssert. The host pass of a .cu
// file compiles the other branch.
__host__ __device__ inline void cuda_kernel_assert_fail(const char* cond, const char* file, unsigned int line,
                                                        const char* func) {
#if defined(__CUDA_ARCH__)
  __assert_fail(cond, file, line, func);
#else
  std::fprintf(stderr, "%s:%u: %s: Assertion `%s` failed.\n", file, line, func, cond);
  std::abort();
#endif
}
}  // namespace c10
#define CUDA_KERNEL_ASSERT(cond)                                                                   \
  if (__builtin_expect(!(cond), 0)) {                                                              \
    ::c10::cuda_kernel_assert_fail(#cond, __FILE__, static_cast<unsigned int>(__LINE__), __func__); \
  }
#else
#include <cassert>
#define CUDA_KERNEL_ASSERT(cond) assert(cond)
#endif
#endif

// An API kept for old callers, with a compiler warning that names its replacement.
#define C10_DEPRECATED_MESSAGE(message) [[deprecated(message)]]
