// aten/src/ATen/core/function_schema.cpp - parsing a schema string into its arguments and returns.
// Mirrors PyTorch's torch/csrc/jit/frontend/function_schema_parser.cpp (the parser) for the
// subset of the schema language operators use. Guide: docs/source/internals/dispatch.rst.
#include <ATen/core/function_schema.h>

#include <cctype>

namespace c10 {
namespace {

std::string strip(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// Split on the commas that are not inside (), [] or quotes.
std::vector<std::string> splitTopLevel(const std::string& text) {
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  char quote = 0;
  for (char ch : text) {
    if (quote) {
      if (ch == quote) quote = 0;
    } else if (ch == '"' || ch == '\'') {
      quote = ch;
    } else if (ch == '(' || ch == '[') {
      ++depth;
    } else if (ch == ')' || ch == ']') {
      --depth;
    } else if (ch == ',' && depth == 0) {
      parts.push_back(current);
      current.clear();
      continue;
    }
    current += ch;
  }
  if (!strip(current).empty()) parts.push_back(current);
  return parts;
}

// "Tensor(a!) self=None" -> type "Tensor(a!)", name "self", default "None".
Argument parseArgument(const std::string& text, bool kwarg_only, bool is_return, const std::string& schema) {
  Argument arg;
  arg.kwarg_only = kwarg_only;
  std::string t = strip(text);
  const auto eq = t.find('=');
  if (eq != std::string::npos) {
    arg.default_value = strip(t.substr(eq + 1));
    t = strip(t.substr(0, eq));
  }
  // The type may contain spaces only inside its alias annotation's parentheses.
  int depth = 0;
  size_t split = std::string::npos;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '(') ++depth;
    if (t[i] == ')') --depth;
    if (t[i] == ' ' && depth == 0) split = i;
  }
  if (split == std::string::npos) {
    TORCH_CHECK(is_return, "Expected an argument name after its type '", t, "' in schema: ", schema);
    arg.type = t;
  } else {
    arg.type = strip(t.substr(0, split));
    arg.name = strip(t.substr(split + 1));
  }
  TORCH_CHECK(!arg.type.empty(), "Expected a type in '", text, "' of schema: ", schema);
  return arg;
}

}  // namespace

std::string Argument::base_type() const {
  std::string out;
  int depth = 0;
  for (char ch : type) {
    if (ch == '(') ++depth;
    if (depth == 0) out += ch;
    if (ch == ')') --depth;
  }
  return out;
}

bool Argument::is_optional() const {
  const std::string b = base_type();
  return !b.empty() && b.back() == '?';
}

FunctionSchema parseSchema(const std::string& ns, const std::string& schema) {
  FunctionSchema result;
  result.operator_name = parseOperatorName(ns, schema);
  result.schema_str = schema;
  const auto open = schema.find('(');
  if (open == std::string::npos) return result;  // a name alone: m.def("myop") gets no arguments
  // The argument list ends at the parenthesis that matches the first one.
  int depth = 0;
  size_t close = std::string::npos;
  for (size_t i = open; i < schema.size(); ++i) {
    if (schema[i] == '(') ++depth;
    if (schema[i] == ')' && --depth == 0) {
      close = i;
      break;
    }
  }
  TORCH_CHECK(close != std::string::npos, "Expected ')' to close the arguments of schema: ", schema);
  const auto arrow = schema.find("->", close);
  TORCH_CHECK(arrow != std::string::npos, "Expected '->' after the arguments of schema: ", schema);
  bool kwarg_only = false;
  for (const auto& part : splitTopLevel(schema.substr(open + 1, close - open - 1))) {
    if (strip(part) == "*") {
      kwarg_only = true;
      continue;
    }
    result.arguments.push_back(parseArgument(part, kwarg_only, /*is_return=*/false, schema));
  }
  std::string returns = strip(schema.substr(arrow + 2));
  if (returns.size() >= 2 && returns.front() == '(' && returns.back() == ')') {
    returns = returns.substr(1, returns.size() - 2);
  }
  for (const auto& part : splitTopLevel(returns)) {
    result.returns.push_back(parseArgument(part, false, /*is_return=*/true, schema));
  }
  return result;
}

}  // namespace c10
