// c10/core/impl/LocalDispatchKeySet.h - per-thread keys to add to or remove from every dispatch.
// Mirrors PyTorch's c10/core/impl/LocalDispatchKeySet.h. Guide: docs/source/internals/dispatch.rst.
//
// The dispatcher computes ((union of the arguments' key sets) | included) - excluded. An
// autograd kernel that has recorded its node excludes the autograd keys while it calls
// the operator again below autograd (AutoDispatchBelowAutograd); torch.inference_mode
// excludes them for a whole region. Thread-local, so threads do not see each other's guards.
#pragma once

#include <c10/core/DispatchKeySet.h>

namespace c10::impl {

struct LocalDispatchKeySet {
  DispatchKeySet included_ = default_included_set;
  DispatchKeySet excluded_ = default_excluded_set;
};

C10_API LocalDispatchKeySet& tls_local_dispatch_key_set();

// Remove keys for the lifetime of the guard (nested guards restore what they found).
class C10_API ExcludeDispatchKeyGuard {
 public:
  explicit ExcludeDispatchKeyGuard(DispatchKeySet exclude);
  explicit ExcludeDispatchKeyGuard(DispatchKey exclude) : ExcludeDispatchKeyGuard(DispatchKeySet(exclude)) {}
  ~ExcludeDispatchKeyGuard();
  C10_DISABLE_COPY_AND_ASSIGN(ExcludeDispatchKeyGuard);

 private:
  DispatchKeySet saved_;
};

// Add keys for the lifetime of the guard.
class C10_API IncludeDispatchKeyGuard {
 public:
  explicit IncludeDispatchKeyGuard(DispatchKeySet include);
  explicit IncludeDispatchKeyGuard(DispatchKey include) : IncludeDispatchKeyGuard(DispatchKeySet(include)) {}
  ~IncludeDispatchKeyGuard();
  C10_DISABLE_COPY_AND_ASSIGN(IncludeDispatchKeyGuard);

 private:
  DispatchKeySet saved_;
};

}  // namespace c10::impl
