// c10/cuda/CUDAMacros.h - the export macro of libc10_cuda.so.
// Mirrors PyTorch's c10/cuda/CUDAMacros.h. Guide: docs/source/internals/c10_cuda.rst.
//
// Like C10_API for libc10 (c10/macros/Export.h): every library is compiled with
// -fvisibility=hidden, and what a c10/cuda header marks C10_CUDA_API is exported.
// c10/cuda/CMakeLists.txt defines C10_CUDA_BUILD_MAIN_LIB while compiling libc10_cuda, so the
// same header says "export" inside the library and "import" in its users (torch._C, tests).
#pragma once

#include <c10/macros/Export.h>

#ifdef C10_CUDA_BUILD_MAIN_LIB
#define C10_CUDA_API C10_EXPORT
#else
#define C10_CUDA_API C10_IMPORT
#endif

// The most devices a process can address (PyTorch's C10_COMPILE_TIME_MAX_GPUS): sizes the
// per-device tables of streams and allocators.
#define C10_COMPILE_TIME_MAX_GPUS 120
