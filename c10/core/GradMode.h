// c10/core/GradMode.h - is autograd recording? (`torch.is_grad_enabled()`), and its guards.
// Mirrors PyTorch's c10/core/GradMode.h. Guide: docs/source/internals/autograd.rst.
//
// `with torch.no_grad():` is a NoGradGuard: operators still run their autograd kernels, but
// those see GradMode::is_enabled() == false and record nothing.
#pragma once

#include <c10/core/AutogradState.h>

namespace c10 {

struct C10_API GradMode {
  static bool is_enabled() { return AutogradState::get_tls_state().get_grad_mode(); }
  static void set_enabled(bool enabled) { AutogradState::get_tls_state().set_grad_mode(enabled); }
};

// Set grad mode for a scope, restoring the previous mode on exit (torch.set_grad_enabled).
struct C10_API AutoGradMode {
  explicit AutoGradMode(bool enabled) : prev_mode(GradMode::is_enabled()) { GradMode::set_enabled(enabled); }
  ~AutoGradMode() { GradMode::set_enabled(prev_mode); }
  AutoGradMode(const AutoGradMode&) = delete;
  AutoGradMode& operator=(const AutoGradMode&) = delete;
  bool prev_mode;
};

// torch.no_grad() in C++.
struct C10_API NoGradGuard : public AutoGradMode {
  NoGradGuard() : AutoGradMode(/*enabled=*/false) {}
};

}  // namespace c10

namespace at {
using c10::AutoGradMode;
using c10::GradMode;
using c10::NoGradGuard;
}  // namespace at
