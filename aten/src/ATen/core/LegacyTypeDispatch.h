// aten/src/ATen/core/LegacyTypeDispatch.h - guards that send calls below the autograd keys.
// Mirrors PyTorch's aten/src/ATen/core/LegacyTypeDispatch.h. Guide: docs/source/internals/autograd.rst.
//
// An autograd kernel (generated VariableType.cpp) records its node, then runs the operator
// again under one of these guards, so the call (and every call the backend kernel makes
// inside it) skips autograd: one node per user-visible operation, not one per helper.
#pragma once

#include <c10/core/impl/LocalDispatchKeySet.h>

namespace at {

// Below Autograd but still through ADInplaceOrView: for in-place and view operators, whose
// ADInplaceOrView kernel bumps the version counter or sets up the view.
struct AutoDispatchBelowAutograd {
  AutoDispatchBelowAutograd() : autograd_guard_(c10::autograd_dispatch_keyset) {}
  c10::impl::ExcludeDispatchKeyGuard autograd_guard_;
};

// Below both: for functional operators, which have nothing to do at ADInplaceOrView.
struct AutoDispatchBelowADInplaceOrView {
  AutoDispatchBelowADInplaceOrView() : dispatch_key_guard_(c10::autograd_dispatch_keyset_with_ADInplaceOrView) {}
  c10::impl::ExcludeDispatchKeyGuard dispatch_key_guard_;
};

}  // namespace at
