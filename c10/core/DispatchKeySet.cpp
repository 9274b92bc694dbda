// c10/core/DispatchKeySet.cpp - priority lookups, iteration and printing of key sets.
// Mirrors PyTorch's c10/core/DispatchKeySet.cpp. Guide: docs/source/internals/dispatch.rst.
#include <c10/core/DispatchKeySet.h>

#include <sstream>

namespace c10 {

// [marker: highestPriorityTypeId]
static int highest_bit(uint64_t x) {
  return x == 0 ? -1 : 63 - __builtin_clzll(x);
}

DispatchKey DispatchKeySet::highestFunctionalityKey() const {
  int bit = highest_bit(repr_ >> num_backends);
  return bit < 0 ? DispatchKey::Undefined : static_cast<DispatchKey>(bit + 1);
}

BackendComponent DispatchKeySet::highestBackendKey() const {
  int bit = highest_bit(repr_ & full_backend_mask());
  return bit < 0 ? BackendComponent::InvalidBit : static_cast<BackendComponent>(bit + 1);
}

DispatchKey DispatchKeySet::highestPriorityTypeId() const {
  DispatchKey functionality = highestFunctionalityKey();
  if (isPerBackendFunctionalityKey(functionality)) {
    return toRuntimePerBackendFunctionalityKey(functionality, highestBackendKey());
  }
  return functionality;
}
// [end marker: highestPriorityTypeId]

DispatchKeySet::iterator::iterator(const DispatchKeySet& set, bool at_end) {
  for (uint8_t f = 1; f <= num_functionality_keys; ++f) {
    auto functionality = static_cast<DispatchKey>(f);
    if (!set.has(functionality)) {
      continue;
    }
    if (!isPerBackendFunctionalityKey(functionality)) {
      keys_[n_++] = functionality;
      continue;
    }
    for (uint8_t b = 1; b <= num_backends; ++b) {
      auto backend = static_cast<BackendComponent>(b);
      if (set.has_backend(backend)) {
        keys_[n_++] = toRuntimePerBackendFunctionalityKey(functionality, backend);
      }
    }
  }
  i_ = at_end ? n_ : 0;
}

std::string toString(DispatchKeySet ks) {
  std::stringstream ss;
  ss << ks;
  return ss.str();
}

std::ostream& operator<<(std::ostream& os, DispatchKeySet ts) {
  if (ts.empty()) {
    os << "DispatchKeySet()";
    return os;
  }
  os << "DispatchKeySet(";
  bool first = true;
  for (auto k : ts) {
    if (!first) {
      os << ", ";
    }
    os << k;
    first = false;
  }
  os << ")";
  return os;
}

DispatchKey getAutogradKeyFromBackend(BackendComponent t) {
  return toRuntimePerBackendFunctionalityKey(DispatchKey::AutogradFunctionality, t);
}

DispatchKeySet getAutogradRelatedKeySetFromBackend(BackendComponent t) {
  return DispatchKeySet({DispatchKey::ADInplaceOrView, getAutogradKeyFromBackend(t)});
}

DispatchKeySet getAutocastRelatedKeySetFromBackend(BackendComponent t) {
  switch (t) {
    case BackendComponent::CPUBit: return DispatchKeySet(DispatchKey::AutocastCPU);
    case BackendComponent::CUDABit: return DispatchKeySet(DispatchKey::AutocastCUDA);
    default: return DispatchKeySet();
  }
}

DispatchKeySet getRuntimeDispatchKeySet(DispatchKey t) {
  const DispatchKeySet all_backends(DispatchKeySet::RAW, (uint64_t(1) << num_backends) - 1);
  switch (t) {
    case DispatchKey::Autograd:
      return autograd_dispatch_keyset | all_backends;
    case DispatchKey::CompositeImplicitAutograd:
      return backend_dispatch_keyset | autograd_dispatch_keyset;
    case DispatchKey::CompositeExplicitAutograd:
    case DispatchKey::CompositeExplicitAutogradNonFunctional:
      return backend_dispatch_keyset;
    default:
      return DispatchKeySet(t);
  }
}

bool isIncludedInAlias(DispatchKey k, DispatchKey alias) {
  return k != DispatchKey::Undefined && getRuntimeDispatchKeySet(alias).has(k);
}

}  // namespace c10
