// c10/util/string_view.h - c10::string_view, the type of `str` arguments of operators.
// Mirrors PyTorch's c10/util/string_view.h (now std::string_view there too).
// Guide: docs/source/internals/generated_code.rst.
#pragma once

#include <string_view>

namespace c10 {
using string_view = std::string_view;
}
