// c10/core/impl/LocalDispatchKeySet.cpp - the thread-local include/exclude sets and their guards.
// Mirrors PyTorch's c10/core/impl/LocalDispatchKeySet.cpp. Guide: docs/source/internals/dispatch.rst.
#include <c10/core/impl/LocalDispatchKeySet.h>

namespace c10::impl {

LocalDispatchKeySet& tls_local_dispatch_key_set() {
  thread_local LocalDispatchKeySet tls;
  return tls;
}

ExcludeDispatchKeyGuard::ExcludeDispatchKeyGuard(DispatchKeySet exclude)
    : saved_(tls_local_dispatch_key_set().excluded_) {
  tls_local_dispatch_key_set().excluded_ = saved_ | exclude;
}

ExcludeDispatchKeyGuard::~ExcludeDispatchKeyGuard() {
  tls_local_dispatch_key_set().excluded_ = saved_;
}

IncludeDispatchKeyGuard::IncludeDispatchKeyGuard(DispatchKeySet include)
    : saved_(tls_local_dispatch_key_set().included_) {
  tls_local_dispatch_key_set().included_ = saved_ | include;
}

IncludeDispatchKeyGuard::~IncludeDispatchKeyGuard() {
  tls_local_dispatch_key_set().included_ = saved_;
}

}  // namespace c10::impl
