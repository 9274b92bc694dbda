// c10/core/impl/alloc_cpu.h - the two functions that really get and return CPU memory.
// Mirrors PyTorch's c10/core/impl/alloc_cpu.h. Guide: docs/source/internals/memory.rst.
#pragma once

#include <c10/macros/Macros.h>
#include <c10/util/Flags.h>

#include <cstddef>

C10_DECLARE_bool(caffe2_cpu_allocator_do_zero_fill);
C10_DECLARE_bool(caffe2_cpu_allocator_do_junk_fill);

namespace c10 {

// nbytes of 64-byte-aligned memory; nbytes == 0 returns nullptr without allocating.
// The place to put a breakpoint to see every CPU tensor being born (docs: debugger.rst).
C10_API void* alloc_cpu(size_t nbytes);
C10_API void free_cpu(void* data);

// Fill with a pattern that is NaN as float and huge as an integer, so reading memory that
// was never written shows up at once (enabled by FLAGS_caffe2_cpu_allocator_do_junk_fill).
C10_API void memset_junk(void* data, size_t num);

}  // namespace c10
