// c10/core/Layout.h - how a tensor's elements are laid out: Strided (dense) is the only one here.
// Mirrors PyTorch's c10/core/Layout.h (which also has Sparse, SparseCsr, Mkldnn, ...).
// Guide: docs/source/internals/tensors.rst.
#pragma once

#include <c10/macros/Macros.h>

#include <cstdint>
#include <ostream>

namespace c10 {

enum class Layout : int8_t { Strided, Sparse, SparseCsr, Mkldnn, NumOptions };

constexpr auto kStrided = Layout::Strided;

inline std::ostream& operator<<(std::ostream& stream, Layout layout) {
  switch (layout) {
    case Layout::Strided: return stream << "Strided";
    case Layout::Sparse: return stream << "Sparse";
    case Layout::SparseCsr: return stream << "SparseCsr";
    case Layout::Mkldnn: return stream << "Mkldnn";
    default: return stream << "UNKNOWN_LAYOUT";
  }
}

}  // namespace c10

namespace at {
using c10::kStrided;
using c10::Layout;
}  // namespace at
