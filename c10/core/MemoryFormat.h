// c10/core/MemoryFormat.h - the order of dimensions in memory a new tensor should use.
// Mirrors PyTorch's c10/core/MemoryFormat.h. Guide: docs/source/internals/tensors.rst.
#pragma once

#include <c10/macros/Macros.h>

#include <cstdint>
#include <ostream>

namespace c10 {

// Contiguous: row-major. Preserve: keep the layout of the input (for *_like, clone).
// ChannelsLast (NHWC) and ChannelsLast3d are named for compatibility.
enum class MemoryFormat : int8_t { Contiguous, Preserve, ChannelsLast, ChannelsLast3d, NumOptions };

inline std::ostream& operator<<(std::ostream& stream, MemoryFormat memory_format) {
  switch (memory_format) {
    case MemoryFormat::Preserve: return stream << "Preserve";
    case MemoryFormat::Contiguous: return stream << "Contiguous";
    case MemoryFormat::ChannelsLast: return stream << "ChannelsLast";
    case MemoryFormat::ChannelsLast3d: return stream << "ChannelsLast3d";
    default: return stream << "Unknown memory format";
  }
}

}  // namespace c10

namespace at {
using c10::MemoryFormat;
}
