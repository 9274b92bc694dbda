// c10/util/Exception.h - c10::Error and the TORCH_CHECK family of macros.
// Mirrors PyTorch's c10/util/Exception.h. Guide: docs/source/internals/source_tree.rst.
//
// Every check in the C++ layers throws a c10::Error (or a subclass). The subclass decides
// which Python exception the user sees: torch/csrc/Exceptions.cpp translates
//   c10::Error -> RuntimeError         (TORCH_CHECK)
//   c10::IndexError -> IndexError      (TORCH_CHECK_INDEX)
//   c10::ValueError -> ValueError      (TORCH_CHECK_VALUE)
//   c10::TypeError -> TypeError        (TORCH_CHECK_TYPE)
//   c10::NotImplementedError -> NotImplementedError (TORCH_CHECK_NOT_IMPLEMENTED)
//   c10::OutOfMemoryError -> torch.OutOfMemoryError (a RuntimeError)
// so a C++ check is all it takes to give Python the exception PyTorch raises.
#pragma once

#include <c10/macros/Macros.h>
#include <c10/util/StringUtil.h>

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace c10 {

// Where a check failed: filled in by the macros from __func__, __FILE__ and __LINE__.
struct SourceLocation {
  const char* function;
  const char* file;
  uint32_t line;
};

std::ostream& operator<<(std::ostream& out, const SourceLocation& loc);

class C10_API Error : public std::exception {
 public:
  // The message, then where it was raised; the C++ stack is taken now and printed lazily.
  Error(SourceLocation source_location, std::string msg);
  // A message with an explicit backtrace text (used when rethrowing across threads).
  Error(std::string msg, std::string backtrace);

  // Add a line of context ("while checking argument 'other'"); shown after the message.
  void add_context(std::string msg);

  const std::string& msg() const {
    return msg_;
  }
  const std::vector<std::string>& context() const {
    return context_;
  }
  // Message + context + "Exception raised from ... (most recent call first):" + stack.
  const char* what() const noexcept override;
  // Message + context only: what Python shows (unless TORCH_SHOW_CPP_STACKTRACES=1).
  const char* what_without_backtrace() const noexcept {
    return what_without_backtrace_.c_str();
  }

 private:
  void refresh_what();

  std::string msg_;
  std::vector<std::string> context_;
  std::string source_;                 // "Exception raised from f at file:line"
  std::vector<void*> frames_;          // raw stack, symbolised on first what()
  mutable std::string backtrace_;      // symbolised stack
  mutable std::string what_;           // cached full text
  mutable bool what_ready_ = false;
  std::string what_without_backtrace_;
};

// The subclasses only change which Python exception the binding layer raises.
class C10_API IndexError : public Error {
  using Error::Error;
};
class C10_API ValueError : public Error {
  using Error::Error;
};
class C10_API TypeError : public Error {
  using Error::Error;
};
class C10_API NotImplementedError : public Error {
  using Error::Error;
};
class C10_API OutOfMemoryError : public Error {
  using Error::Error;
};
class C10_API LinAlgError : public Error {
  using Error::Error;
};

namespace detail {

// TORCH_CHECK(cond) with no message gets PyTorch's generic text; with arguments, the
// arguments are concatenated (c10::str) - and only on the failure path.
inline std::string torchCheckMsgImpl(const char* msg) {
  return msg;
}
inline const char* torchCheckMsgImpl(const char* /*msg*/, const char* args) {
  return args;
}
template <typename... Args>
inline std::string torchCheckMsgImpl(const char* /*msg*/, const Args&... args) {
  return ::c10::str(args...);
}

[[noreturn]] C10_API void torchCheckFail(const char* func, const char* file, uint32_t line,
                                         const std::string& msg);
[[noreturn]] C10_API void torchInternalAssertFail(const char* func, const char* file,
                                                  uint32_t line, const char* cond_msg,
                                                  const std::string& user_msg);

}  // namespace detail

[[noreturn]] C10_API void ThrowEnforceNotMet(const char* file, int line, const char* condition,
                                             const std::string& msg);

// TORCH_WARN: a message that does not stop the computation. It goes to the calling thread's
// WarningHandler: by default printed to stderr; while torch._C runs an operator for Python,
// a handler that collects the warnings and, once the call is done, issues them as Python
// UserWarnings (torch/csrc/Exceptions.h: PyWarningHandler).
class C10_API Warning {
 public:
  Warning(SourceLocation source_location, std::string msg, bool verbatim)
      : source_location_(source_location), msg_(std::move(msg)), verbatim_(verbatim) {}
  const SourceLocation& source_location() const { return source_location_; }
  const std::string& msg() const { return msg_; }
  // false: Python shows "(Triggered internally at file:line.)" after the message.
  bool verbatim() const { return verbatim_; }

 private:
  SourceLocation source_location_;
  std::string msg_;
  bool verbatim_;
};

class C10_API WarningHandler {
 public:
  virtual ~WarningHandler() = default;
  // The default prints "Warning: <msg> (function at file:line)" to stderr.
  virtual void process(const Warning& warning);
};

namespace WarningUtils {
// The calling thread's handler (threads do not see each other's).
C10_API void set_warning_handler(WarningHandler* handler) noexcept;
C10_API WarningHandler* get_warning_handler() noexcept;

class C10_API WarningHandlerGuard {
 public:
  explicit WarningHandlerGuard(WarningHandler* new_handler) : prev_handler_(get_warning_handler()) {
    set_warning_handler(new_handler);
  }
  ~WarningHandlerGuard() { set_warning_handler(prev_handler_); }
  C10_DISABLE_COPY_AND_ASSIGN(WarningHandlerGuard);

 private:
  WarningHandler* prev_handler_;
};
}  // namespace WarningUtils

C10_API void warn(const Warning& warning);

}  // namespace c10

#define TORCH_CHECK_MSG(cond, type, ...)                                                   \
  (::c10::detail::torchCheckMsgImpl(                                                       \
      "Expected " #cond " to be true, but got false.  "                                    \
      "(Could this error message be improved?  If so, please report an enhancement request " \
      "to PyTorch.)",                                                                      \
      ##__VA_ARGS__))

// Throw an error of a given c10 type with a location and a built message.
#define C10_THROW_ERROR(err_type, msg) \
  throw ::c10::err_type({__func__, __FILE__, static_cast<uint32_t>(__LINE__)}, msg)

#define TORCH_CHECK_WITH(error_t, cond, ...)                                \
  if (C10_UNLIKELY(!(cond))) {                                              \
    C10_THROW_ERROR(error_t, TORCH_CHECK_MSG(cond, "", ##__VA_ARGS__));     \
  }

// TORCH_CHECK(cond, msg...): user-facing checks. Throws c10::Error -> RuntimeError.
#define TORCH_CHECK(cond, ...)                                                       \
  if (C10_UNLIKELY(!(cond))) {                                                       \
    ::c10::detail::torchCheckFail(__func__, __FILE__, static_cast<uint32_t>(__LINE__), \
                                  TORCH_CHECK_MSG(cond, "", ##__VA_ARGS__));         \
  }

#define TORCH_CHECK_INDEX(cond, ...) TORCH_CHECK_WITH(IndexError, cond, ##__VA_ARGS__)
#define TORCH_CHECK_VALUE(cond, ...) TORCH_CHECK_WITH(ValueError, cond, ##__VA_ARGS__)
#define TORCH_CHECK_TYPE(cond, ...) TORCH_CHECK_WITH(TypeError, cond, ##__VA_ARGS__)
#define TORCH_CHECK_NOT_IMPLEMENTED(cond, ...) \
  TORCH_CHECK_WITH(NotImplementedError, cond, ##__VA_ARGS__)

// TORCH_INTERNAL_ASSERT(cond, msg...): a bug in this library, not a user error.
#define TORCH_INTERNAL_ASSERT(cond, ...)                                                        \
  if (C10_UNLIKELY(!(cond))) {                                                                  \
    ::c10::detail::torchInternalAssertFail(__func__, __FILE__, static_cast<uint32_t>(__LINE__), \
                                           #cond " INTERNAL ASSERT FAILED at " C10_STRINGIZE(   \
                                               __FILE__) ":" C10_STRINGIZE(__LINE__)            \
                                               ", please report a bug to PyTorch. ",            \
                                           ::c10::str(__VA_ARGS__));                            \
  }

#ifdef NDEBUG
// Debug-only asserts compile to nothing in release builds, but the condition must still parse.
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(...) \
  while (false) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#else
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(...) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#endif

#define TORCH_WARN(...) \
  ::c10::warn(::c10::Warning({__func__, __FILE__, static_cast<uint32_t>(__LINE__)}, ::c10::str(__VA_ARGS__), false))

// Once per process (per call site): for deprecations that would otherwise flood the output.
#define TORCH_WARN_ONCE(...)                                                                  \
  [[maybe_unused]] static const auto C10_ANONYMOUS_VARIABLE(torch_warn_once_) = [&] {        \
    TORCH_WARN(__VA_ARGS__);                                                                  \
    return true;                                                                              \
  }()

// Legacy spellings kept for code written against older PyTorch (TH uses them).
#define AT_ERROR(...) TORCH_CHECK(false, ##__VA_ARGS__)
#define AT_ASSERT(...) TORCH_INTERNAL_ASSERT(__VA_ARGS__)
#define AT_ASSERTM(cond, ...) TORCH_INTERNAL_ASSERT(cond, ##__VA_ARGS__)

// Caffe2's spelling, still used by the CPU allocator. Its message names the file and the
// condition: "[enforce fail at alloc_cpu.cpp:98] ((ptrdiff_t)nbytes) >= 0. <message>".
#define CAFFE_ENFORCE(condition, ...)                                                    \
  if (C10_UNLIKELY(!(condition))) {                                                      \
    ::c10::ThrowEnforceNotMet(__FILE__, __LINE__, #condition, ::c10::str(__VA_ARGS__)); \
  }
