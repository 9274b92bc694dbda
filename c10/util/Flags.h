// c10/util/Flags.h - process-wide switches (FLAGS_name) that can be set by name at run time.
// Mirrors PyTorch's c10/util/Flags.h (its gflags-compatible C10_DEFINE_bool).
// Guide: docs/source/internals/memory.rst.
//
// The CPU allocator's learning switches are flags of this kind:
//   FLAGS_caffe2_cpu_allocator_do_zero_fill, FLAGS_caffe2_cpu_allocator_do_junk_fill,
//   FLAGS_caffe2_report_cpu_memory_usage.
// Reading a flag is reading a plain global bool: a switch that is off costs one load.
// From Python: torch._C._get_c10_flag(name) / torch._C._set_c10_flag(name, value).
#pragma once

#include <c10/macros/Macros.h>

#include <string>
#include <vector>

namespace c10 {

struct BoolFlag {
  const char* name;
  const char* help;
  bool* value;
};

// Every C10_DEFINE_bool registers itself here at static-initialisation time.
C10_API std::vector<BoolFlag>& BoolFlagRegistry();

struct C10_API BoolFlagRegisterer {
  BoolFlagRegisterer(const char* name, bool* value, const char* help);
};

// Look a flag up by name; an unknown name is a ValueError that lists the known ones.
C10_API bool GetBoolFlag(const std::string& name);
C10_API void SetBoolFlag(const std::string& name, bool value);

}  // namespace c10

#define C10_DEFINE_bool(name, default_value, help_str)                             \
  C10_API bool FLAGS_##name = default_value;                                       \
  namespace c10 {                                                                  \
  namespace {                                                                      \
  BoolFlagRegisterer C10_ANONYMOUS_VARIABLE(flag_##name)(#name, &FLAGS_##name, help_str); \
  }                                                                                \
  }

#define C10_DECLARE_bool(name) C10_API extern bool FLAGS_##name
