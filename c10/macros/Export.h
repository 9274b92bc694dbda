// c10/macros/Export.h - symbol visibility for the shared libraries (libc10, libtorch_cpu).
// Mirrors PyTorch's c10/macros/Export.h. Guide: docs/source/internals/source_tree.rst.
//
// Every library is compiled with -fvisibility=hidden; only what a header marks with C10_API
// (libc10) or TORCH_API (libtorch_cpu) is exported. Each library defines its *_BUILD_MAIN_LIB
// while compiling itself, so the same header says "export" inside and "import" outside.
#pragma once

#define C10_EXPORT __attribute__((__visibility__("default")))
#define C10_HIDDEN __attribute__((__visibility__("hidden")))
#define C10_IMPORT C10_EXPORT

#ifdef C10_BUILD_MAIN_LIB
#define C10_API C10_EXPORT
#else
#define C10_API C10_IMPORT
#endif

#ifdef TORCH_BUILD_MAIN_LIB
#define TORCH_API C10_EXPORT
#else
#define TORCH_API C10_IMPORT
#endif
