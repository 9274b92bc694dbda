// aten/src/ATen/Version.h - what this build of ATen was configured with.
// Mirrors PyTorch's aten/src/ATen/Version.h. Guide: docs/source/internals/building.rst.
#pragma once

#include <c10/macros/Macros.h>

#include <string>

namespace at {

// The text torch.__config__.show() prints.
TORCH_API std::string show_config();

}  // namespace at
