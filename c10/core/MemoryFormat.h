// c10/core/MemoryFormat.h - the order of dimensions in memory a new tensor should use.
// Mirrors PyTorch's c10/core/MemoryFormat.h. Guide: docs/source/internals/tensors.rst.
#pragma once

#include <c10/macros/Macros.h>
#include <c10/util/ArrayRef.h>

#include <cstdint>
#include <ostream>
#include <vector>

namespace c10 {

// Contiguous: row-major. Preserve: keep the layout of the input (for *_like, clone).
// ChannelsLast (NHWC) and ChannelsLast3d (NDHWC) keep the sizes in NCHW order but step
// through memory channel-fastest: new tensors get those strides; operators treat them as
// any other strided tensor.
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

// The strides of an (N, C, H, W) tensor laid out as NHWC, or of (N, C, D, H, W) as NDHWC:
// C is the innermost dimension, then W, H, (D), N. PyTorch's get_channels_last_strides_2d/3d;
// the caller has checked the rank ("required rank 4 tensor to use channels_last format").
inline std::vector<int64_t> get_channels_last_strides(ArrayRef<int64_t> sizes) {
  std::vector<int64_t> strides(sizes.size());
  const size_t nd = sizes.size();
  // Dimension order from innermost: C (1), then the spatial ones from last to first, then N (0).
  std::vector<size_t> order{1};
  for (size_t d = nd - 1; d >= 2; --d) {
    order.push_back(d);
  }
  order.push_back(0);
  int64_t stride = 1;
  for (size_t d : order) {
    strides[d] = stride;
    stride *= sizes[d] > 1 ? sizes[d] : 1;
  }
  return strides;
}

}  // namespace c10

namespace at {
using c10::MemoryFormat;
}
