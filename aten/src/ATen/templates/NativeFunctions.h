#pragma once
// ${generated_comment}
// Declarations of the kernels named in native_functions.yaml's dispatch sections, which
// the files in aten/src/ATen/native/ define.
// Template: aten/src/ATen/templates/NativeFunctions.h. Guide: docs/source/internals/generated_code.rst.

#include <ATen/core/Tensor.h>

namespace at::native {

${native_function_declarations}

}  // namespace at::native
