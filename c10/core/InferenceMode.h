// c10/core/InferenceMode.h - `with torch.inference_mode():`, no_grad's stricter sibling.
// Mirrors PyTorch's c10/core/InferenceMode.h. Guide: docs/source/internals/autograd.rst.
//
// Inside it grad mode is off and the autograd and ADInplaceOrView keys are excluded from
// dispatch, so an operator goes straight to its backend kernel: no node, no version bump.
// Tensors made inside are "inference tensors": they carry no autograd keys and no version
// counter (TensorImpl's constructor asks is_enabled()), so using them later in a way autograd
// would have to remember is an error instead of a silently wrong gradient.
#pragma once

#include <c10/core/AutogradState.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

namespace c10 {

struct C10_API InferenceMode {
  explicit InferenceMode(bool enabled = true);
  ~InferenceMode();
  InferenceMode(const InferenceMode&) = delete;
  InferenceMode& operator=(const InferenceMode&) = delete;

  static bool is_enabled();

 private:
  AutogradState prev_mode;
  impl::LocalDispatchKeySet prev_keyset;
};

}  // namespace c10
