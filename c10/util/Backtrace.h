// c10/util/Backtrace.h - the C++ stack of the thread that raised a c10::Error.
// Mirrors PyTorch's c10/util/Backtrace.h. Guide: docs/source/internals/debugger.rst.
#pragma once

#include <c10/macros/Macros.h>

#include <string>
#include <vector>

namespace c10 {

// Raw return addresses, cheap to take (no symbol lookup): an Error keeps these and turns
// them into text only if someone asks for what().
C10_API std::vector<void*> get_backtrace_frames(size_t frames_to_skip = 1, size_t maximum = 64);

// Symbolised, demangled, one frame per line: "frame #0: c10::alloc_cpu(unsigned long) + 0x3a (libc10.so)".
C10_API std::string format_backtrace(const std::vector<void*>& frames);

C10_API std::string demangle(const char* name);

}  // namespace c10
