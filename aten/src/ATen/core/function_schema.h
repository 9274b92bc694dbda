// aten/src/ATen/core/function_schema.h - an operator's schema string and the name inside it.
// Mirrors PyTorch's aten/src/ATen/core/function_schema.h (which also parses every argument;
// here the code generator does that at build time, and the dispatcher keeps the text).
// Guide: docs/source/internals/dispatch.rst.
#pragma once

#include <ATen/core/operator_name.h>
#include <c10/util/Exception.h>

#include <string>

namespace c10 {

struct FunctionSchema {
  OperatorName operator_name;
  // "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
  std::string schema_str;
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

}  // namespace c10
