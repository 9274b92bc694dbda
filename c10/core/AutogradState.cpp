// c10/core/AutogradState.cpp - the thread-local AutogradState (grad mode on, inference mode off).
// Mirrors PyTorch's c10/core/AutogradState.cpp. Guide: docs/source/internals/autograd.rst.
#include <c10/core/AutogradState.h>

namespace c10 {

namespace {
thread_local AutogradState autograd_state_tls = AutogradState(/*grad_mode=*/true, /*inference_mode=*/false);
}  // namespace

AutogradState& AutogradState::get_tls_state() {
  return autograd_state_tls;
}

void AutogradState::set_tls_state(AutogradState state) {
  autograd_state_tls = state;
}

}  // namespace c10
