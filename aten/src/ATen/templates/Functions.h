#pragma once
// ${generated_comment}
// The at:: functions of the C++ API: at::add(a, b) calls at::_ops::add_Tensor::call.
// Template: aten/src/ATen/templates/Functions.h. Guide: docs/source/internals/generated_code.rst.

#include <ATen/Operators.h>
#include <ATen/core/Tensor.h>

namespace at {

${function_definitions}

}  // namespace at
