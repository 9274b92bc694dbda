// c10/core/InferenceMode.cpp - entering and leaving inference mode.
// Mirrors PyTorch's c10/core/InferenceMode.cpp. Guide: docs/source/internals/autograd.rst.
#include <c10/core/InferenceMode.h>

namespace c10 {

bool InferenceMode::is_enabled() {
  return AutogradState::get_tls_state().get_inference_mode();
}

InferenceMode::InferenceMode(bool enabled)
    : prev_mode(AutogradState::get_tls_state()), prev_keyset(impl::tls_local_dispatch_key_set()) {
  // Inference mode on: grad mode off and the autograd keys skipped. Inference mode off
  // (InferenceMode(false) inside an inference region): grad mode as it was outside.
  AutogradState::set_tls_state(AutogradState(/*grad_mode=*/enabled ? false : prev_mode.get_grad_mode(),
                                             /*inference_mode=*/enabled));
  auto& local = impl::tls_local_dispatch_key_set();
  if (enabled) {
    local.excluded_ = local.excluded_ | autograd_dispatch_keyset_with_ADInplaceOrView;
  } else {
    local.excluded_ = local.excluded_ - autograd_dispatch_keyset_with_ADInplaceOrView;
  }
}

InferenceMode::~InferenceMode() {
  AutogradState::set_tls_state(prev_mode);
  impl::tls_local_dispatch_key_set() = prev_keyset;
}

}  // namespace c10
