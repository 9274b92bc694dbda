// c10/util/Exception.cpp - building c10::Error's text and the failure paths of TORCH_CHECK.
// Mirrors PyTorch's c10/util/Exception.cpp. Guide: docs/source/internals/source_tree.rst.
#include <c10/util/Backtrace.h>
#include <c10/util/Exception.h>

#include <iostream>
#include <ostream>

namespace c10 {

std::ostream& operator<<(std::ostream& out, const SourceLocation& loc) {
  out << loc.function << " at " << loc.file << ":" << loc.line;
  return out;
}

Error::Error(SourceLocation source_location, std::string msg)
    : msg_(std::move(msg)),
      source_(str("Exception raised from ", source_location)),
      // Skip Error's own constructor frames: the stack starts where the check failed.
      frames_(get_backtrace_frames(/*frames_to_skip=*/2)) {
  refresh_what();
}

Error::Error(std::string msg, std::string backtrace)
    : msg_(std::move(msg)), backtrace_(std::move(backtrace)) {
  refresh_what();
}

void Error::add_context(std::string new_msg) {
  context_.push_back(std::move(new_msg));
  refresh_what();
}

void Error::refresh_what() {
  std::ostringstream ss;
  ss << msg_;
  for (const auto& c : context_) {
    ss << "\n  " << c;
  }
  what_without_backtrace_ = ss.str();
  what_ready_ = false;
}

const char* Error::what() const noexcept {
  if (!what_ready_) {
    try {
      if (backtrace_.empty() && !frames_.empty()) {
        backtrace_ = format_backtrace(frames_);
      }
      what_ = what_without_backtrace_ + "\n" + source_ + " (most recent call first):\n" + backtrace_;
    } catch (...) {
      what_ = what_without_backtrace_;
    }
    what_ready_ = true;
  }
  return what_.c_str();
}

namespace detail {

void torchCheckFail(const char* func, const char* file, uint32_t line, const std::string& msg) {
  throw ::c10::Error({func, file, line}, msg);
}

void torchInternalAssertFail(const char* func, const char* file, uint32_t line,
                             const char* cond_msg, const std::string& user_msg) {
  throw ::c10::Error({func, file, line}, str(cond_msg, user_msg));
}

}  // namespace detail

void WarningHandler::process(const Warning& warning) {
  std::cerr << "Warning: " << warning.msg() << " (" << warning.source_location() << ")" << std::endl;
}

namespace WarningUtils {
namespace {
WarningHandler* default_warning_handler() {
  static WarningHandler handler;
  return &handler;
}
thread_local WarningHandler* warning_handler = nullptr;
}  // namespace

void set_warning_handler(WarningHandler* handler) noexcept {
  warning_handler = handler;
}

WarningHandler* get_warning_handler() noexcept {
  return warning_handler ? warning_handler : default_warning_handler();
}
}  // namespace WarningUtils

void warn(const Warning& warning) {
  WarningUtils::get_warning_handler()->process(warning);
}

void ThrowEnforceNotMet(const char* file, int line, const char* condition, const std::string& msg) {
  std::string base = file;
  base = base.substr(base.find_last_of('/') + 1);
  throw ::c10::Error({"", file, static_cast<uint32_t>(line)},
                     str("[enforce fail at ", base, ":", line, "] ", condition, ". ", msg));
}

}  // namespace c10
