// c10/util/Flags.cpp - the registry behind C10_DEFINE_bool.
// Mirrors PyTorch's c10/util/flags_use_no_gflags.cpp. Guide: docs/source/internals/memory.rst.
#include <c10/util/Exception.h>
#include <c10/util/Flags.h>

namespace c10 {

std::vector<BoolFlag>& BoolFlagRegistry() {
  // A function-local static: safe to use from other static initialisers.
  static std::vector<BoolFlag> registry;
  return registry;
}

BoolFlagRegisterer::BoolFlagRegisterer(const char* name, bool* value, const char* help) {
  BoolFlagRegistry().push_back(BoolFlag{name, help, value});
}

static BoolFlag& findFlag(const std::string& name) {
  for (auto& flag : BoolFlagRegistry()) {
    if (name == flag.name) {
      return flag;
    }
  }
  std::string known;
  for (const auto& flag : BoolFlagRegistry()) {
    known += known.empty() ? "" : ", ";
    known += flag.name;
  }
  C10_THROW_ERROR(ValueError, str("Unknown c10 flag '", name, "'. Known flags: ", known));
}

bool GetBoolFlag(const std::string& name) {
  return *findFlag(name).value;
}

void SetBoolFlag(const std::string& name, bool value) {
  *findFlag(name).value = value;
}

}  // namespace c10
