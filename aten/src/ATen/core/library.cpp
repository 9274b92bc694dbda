// aten/src/ATen/core/library.cpp - torch::Library: TORCH_LIBRARY blocks talking to the Dispatcher.
// Mirrors PyTorch's aten/src/ATen/core/library.cpp. Guide: docs/source/internals/dispatch.rst.
#include <torch/library.h>

namespace torch {

Library::Library(Kind kind, std::string ns, std::optional<c10::DispatchKey> k, const char* file, uint32_t line)
    : kind_(kind), ns_(std::move(ns)), dispatch_key_(k), file_(file), line_(line) {}

std::string Library::debugString() const {
  std::string file = file_;
  return "registered at " + file.substr(file.find_last_of('/') + 1) + ":" + std::to_string(line_);
}

Library& Library::def(const char* schema) & {
  TORCH_CHECK(kind_ == DEF || kind_ == FRAGMENT, "def(\"", schema, "\"): Cannot define an operator inside of a ",
              "TORCH_LIBRARY_IMPL block.  All def()s should be placed in the (unique) TORCH_LIBRARY block for their "
              "namespace.  (Error occurred at ", file_, ":", line_, ")");
  registrars_.emplace_back(c10::Dispatcher::singleton().registerDef(c10::parseSchema(ns_, schema), debugString()));
  return *this;
}

Library& Library::impl_(const char* name_or_schema, CppFunction&& f, std::optional<c10::DispatchKey> key) & {
  TORCH_CHECK(ns_ != "_", "impl(\"", name_or_schema, "\"): a TORCH_LIBRARY_IMPL(_, ...) block may only register ",
              "fallbacks. (Error occurred at ", file_, ":", line_, ")");
  c10::OperatorName name = c10::parseOperatorName(ns_, name_or_schema);
  registrars_.emplace_back(
      c10::Dispatcher::singleton().registerImpl(std::move(name), key, std::move(f.func_), debugString()));
  return *this;
}

Library& Library::fallback(CppFunction&& f) & {
  TORCH_CHECK(kind_ == IMPL && dispatch_key_.has_value(), "fallback(...): Cannot define a fallback outside a ",
              "TORCH_LIBRARY_IMPL(_, Key, m) block. (Error occurred at ", file_, ":", line_, ")");
  registrars_.emplace_back(
      c10::Dispatcher::singleton().registerFallback(*dispatch_key_, std::move(f.func_), debugString()));
  return *this;
}

}  // namespace torch
