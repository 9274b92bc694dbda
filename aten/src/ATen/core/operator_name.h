// aten/src/ATen/core/operator_name.h - "aten::add" + overload "Tensor": how an operator is named.
// Mirrors PyTorch's aten/src/ATen/core/operator_name.h. Guide: docs/source/internals/dispatch.rst.
#pragma once

#include <c10/macros/Macros.h>

#include <functional>
#include <ostream>
#include <string>

namespace c10 {

struct OperatorName final {
  std::string name;           // "aten::add"
  std::string overload_name;  // "Tensor" ("" for the unnamed overload)

  bool operator==(const OperatorName& other) const {
    return name == other.name && overload_name == other.overload_name;
  }
  bool operator!=(const OperatorName& other) const { return !(*this == other); }
};

// "aten::add.Tensor", or "aten::empty" when the overload name is empty.
inline std::string toString(const OperatorName& op) {
  return op.overload_name.empty() ? op.name : op.name + "." + op.overload_name;
}
inline std::ostream& operator<<(std::ostream& os, const OperatorName& op) {
  return os << toString(op);
}

}  // namespace c10

namespace std {
template <>
struct hash<c10::OperatorName> {
  size_t operator()(const c10::OperatorName& x) const {
    return std::hash<std::string>()(x.name) ^ (~std::hash<std::string>()(x.overload_name));
  }
};
}  // namespace std
