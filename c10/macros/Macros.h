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
