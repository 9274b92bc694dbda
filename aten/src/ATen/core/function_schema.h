// aten/src/ATen/core/function_schema.h - an operator's schema: its name, and its arguments
// and returns with their types and defaults, parsed from the schema string.
// Mirrors PyTorch's aten/src/ATen/core/function_schema.h (where types are TypePtr objects;
// here a type is its schema spelling: "Tensor", "int[]", "Tensor?"). Guide: docs/source/internals/dispatch.rst.
//
// The code generator reads aten's schemas at build time; the dispatcher parses every schema it
// registers too, because a boxed call from Python (torch.ops.myops.lltm(...)) has nothing else
// to tell it how to turn Python values into IValues.
#pragma once

#include <ATen/core/operator_name.h>
#include <c10/macros/Export.h>
#include <c10/util/Exception.h>

#include <optional>
#include <string>
#include <vector>

namespace c10 {

struct TORCH_API Argument {
  std::string name;                          // "self" (empty for an unnamed return)
  std::string type;                          // "Tensor", "Tensor(a!)", "int[]", "float?", "Tensor[]"
  std::optional<std::string> default_value;  // the schema's spelling: "1", "None", "[0, 1]", "True"
  bool kwarg_only = false;                   // after the `*` of the schema
  // The type without its alias annotation: "Tensor(a!)" -> "Tensor", "Tensor(a)[]" -> "Tensor[]".
  std::string base_type() const;
  bool is_optional() const;
};

struct FunctionSchema {
  OperatorName operator_name;
  // "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
  std::string schema_str;
  std::vector<Argument> arguments;
  std::vector<Argument> returns;
};

// "add.Tensor(Tensor self, ...) -> Tensor" in namespace "aten" -> {"aten::add", "Tensor"}.
inline OperatorName parseOperatorName(const std::string& ns, const std::string& schema_or_name) {
  const auto paren = schema_or_name.find('(');
  std::string full = schema_or_name.substr(0, paren);
  while (!full.empty() && full.back() == ' ') full.pop_back();
  if (full.find("::") == std::string::npos) {
    full = ns + "::" + full;
  }
  const auto dot = full.find('.', full.find("::"));
  if (dot == std::string::npos) {
    return OperatorName{full, ""};
  }
  return OperatorName{full.substr(0, dot), full.substr(dot + 1)};
}

// The whole schema, with PyTorch's errors for one that does not parse (function_schema.cpp).
TORCH_API FunctionSchema parseSchema(const std::string& ns, const std::string& schema);

}  // namespace c10
