// ${generated_comment}
// Template: aten/src/ATen/templates/Operators.cpp. Guide: docs/source/internals/generated_code.rst.
#include <ATen/Operators.h>
#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>

namespace at::_ops {

${operator_definitions}

}  // namespace at::_ops
