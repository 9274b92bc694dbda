// c10/util/StringUtil.h - c10::str(...), the string builder behind every error message.
// Mirrors PyTorch's c10/util/StringUtil.h. Guide: docs/source/internals/source_tree.rst.
#pragma once

#include <sstream>
#include <string>
#include <utility>

namespace c10 {
namespace detail {

inline std::ostream& _str(std::ostream& ss) {
  return ss;
}

template <typename T, typename... Args>
inline std::ostream& _str(std::ostream& ss, const T& t, const Args&... args) {
  ss << t;
  return _str(ss, args...);
}

}  // namespace detail

// Concatenate anything printable with operator<<. A lone string is returned as is, so the
// common TORCH_CHECK(cond, "literal") builds no stream at all.
template <typename... Args>
inline std::string str(const Args&... args) {
  std::ostringstream ss;
  detail::_str(ss, args...);
  return ss.str();
}
inline std::string str(const std::string& s) {
  return s;
}
inline std::string str(const char* s) {
  return s;
}
inline std::string str() {
  return std::string();
}

}  // namespace c10
