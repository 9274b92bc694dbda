// c10/util/Backtrace.cpp - capture and print C++ stacks for c10::Error.
// Mirrors PyTorch's c10/util/Backtrace.cpp. Guide: docs/source/internals/debugger.rst.
#include <c10/util/Backtrace.h>

#include <cxxabi.h>
#include <dlfcn.h>
#include <execinfo.h>

#include <cstdlib>
#include <memory>
#include <sstream>

namespace c10 {

std::string demangle(const char* name) {
  int status = -1;
  std::unique_ptr<char, void (*)(void*)> demangled(
      abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
  return status == 0 ? std::string(demangled.get()) : std::string(name);
}

std::vector<void*> get_backtrace_frames(size_t frames_to_skip, size_t maximum) {
  std::vector<void*> frames(maximum + frames_to_skip + 1);
  int n = ::backtrace(frames.data(), static_cast<int>(frames.size()));
  size_t skip = std::min(static_cast<size_t>(n), frames_to_skip + 1);  // +1: this function
  return std::vector<void*>(frames.begin() + skip, frames.begin() + n);
}

std::string format_backtrace(const std::vector<void*>& frames) {
  std::ostringstream ss;
  for (size_t i = 0; i < frames.size(); ++i) {
    Dl_info info{};
    ss << "frame #" << i << ": ";
    if (dladdr(frames[i], &info) && info.dli_sname) {
      auto offset = static_cast<const char*>(frames[i]) - static_cast<const char*>(info.dli_saddr);
      ss << demangle(info.dli_sname) << " + 0x" << std::hex << offset << std::dec;
    } else {
      ss << frames[i];
    }
    if (info.dli_fname) {
      std::string lib = info.dli_fname;
      ss << " (" << lib.substr(lib.find_last_of('/') + 1) << ")";
    }
    ss << "\n";
  }
  return ss.str();
}

}  // namespace c10
