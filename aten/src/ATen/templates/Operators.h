#pragma once
// ${generated_comment}
// One struct per operator overload: its name, schema, C++ signature, and call/redispatch,
// which go through the dispatcher. at::add(...) and Tensor::add(...) both end up here.
// Template: aten/src/ATen/templates/Operators.h. Guide: docs/source/internals/generated_code.rst.

#include <ATen/core/Generator.h>
#include <ATen/core/TensorBase.h>
#include <c10/core/DispatchKeySet.h>
#include <c10/core/Layout.h>
#include <c10/core/MemoryFormat.h>

#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

namespace at::_ops {

${operator_declarations}

}  // namespace at::_ops
