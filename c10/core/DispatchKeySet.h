// c10/core/DispatchKeySet.h - a set of dispatch keys in one 64-bit word.
// Mirrors PyTorch's c10/core/DispatchKeySet.h. Guide: docs/source/internals/dispatch.rst.
//
// Layout (low bit first):
//   [ backend bits: CPUBit, CUDABit, MetaBit | functionality bits: Dense, BackendSelect, ... ]
// A runtime key such as AutogradCPU is stored as two bits: AutogradFunctionality + CPUBit.
// Every tensor carries such a set (TensorImpl::key_set_); the dispatcher ORs the sets of
// all tensor arguments, applies the thread-local include/exclude sets, and runs the kernel
// of the highest-priority key: highest functionality bit first, then highest backend bit.
// For a CPU tensor the set is {CPU, ADInplaceOrView, AutogradCPU, AutocastCPU} and the
// dispatcher visits AutogradCPU, then (after autograd masks itself out) CPU.
#pragma once

#include <c10/core/DispatchKey.h>
#include <c10/util/Exception.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>

namespace c10 {

class C10_API DispatchKeySet final {
 public:
  enum Full { FULL };
  enum FullAfter { FULL_AFTER };
  enum Raw { RAW };

  constexpr DispatchKeySet() = default;
  // Every key.
  constexpr DispatchKeySet(Full) : repr_(full_mask()) {}
  // Every key of strictly lower priority than t (and every backend bit): what is left to
  // run once the kernels at t and above have had their turn.
  constexpr DispatchKeySet(FullAfter, DispatchKey t)
      : repr_((uint64_t(1) << (num_backends + static_cast<uint8_t>(toFunctionalityKey(t)) - 1)) - 1) {}
  constexpr DispatchKeySet(Raw, uint64_t x) : repr_(x) {}

  constexpr explicit DispatchKeySet(BackendComponent k)
      : repr_(k == BackendComponent::InvalidBit ? 0 : uint64_t(1) << (static_cast<uint8_t>(k) - 1)) {}

  constexpr explicit DispatchKeySet(DispatchKey k) : repr_(bits_of(k)) {}

  constexpr DispatchKeySet(std::initializer_list<DispatchKey> ks) : repr_(0) {
    for (auto k : ks) {
      repr_ |= bits_of(k);
    }
  }

  // True if every bit of k is present: has(AutogradCPU) needs AutogradFunctionality and CPUBit.
  constexpr bool has(DispatchKey t) const {
    const uint64_t bits = bits_of(t);
    return bits != 0 && (repr_ & bits) == bits;
  }
  constexpr bool has_backend(BackendComponent t) const {
    return has_all(DispatchKeySet(t));
  }
  constexpr bool has_all(DispatchKeySet ks) const { return (repr_ & ks.repr_) == ks.repr_; }
  constexpr bool has_any(DispatchKeySet ks) const { return (repr_ & ks.repr_) != 0; }
  constexpr bool isSupersetOf(DispatchKeySet ks) const { return has_all(ks); }

  constexpr DispatchKeySet operator|(DispatchKeySet other) const {
    return DispatchKeySet(RAW, repr_ | other.repr_);
  }
  constexpr DispatchKeySet operator&(DispatchKeySet other) const {
    return DispatchKeySet(RAW, repr_ & other.repr_);
  }
  // Set difference, on functionality bits only: removing AutogradCPU from {CPU, AutogradCPU}
  // must not remove CPUBit, which CPU still needs.
  constexpr DispatchKeySet operator-(DispatchKeySet other) const {
    return DispatchKeySet(RAW, repr_ & (full_backend_mask() | ~other.repr_));
  }
  constexpr DispatchKeySet operator^(DispatchKeySet other) const {
    return DispatchKeySet(RAW, repr_ ^ other.repr_);
  }
  constexpr bool operator==(DispatchKeySet other) const { return repr_ == other.repr_; }
  constexpr bool operator!=(DispatchKeySet other) const { return repr_ != other.repr_; }

  C10_NODISCARD constexpr DispatchKeySet add(DispatchKey t) const { return *this | DispatchKeySet(t); }
  C10_NODISCARD constexpr DispatchKeySet remove(DispatchKey t) const {
    return DispatchKeySet(RAW, repr_ & ~(DispatchKeySet(toFunctionalityKey(t)).repr_));
  }
  C10_NODISCARD constexpr DispatchKeySet remove_backend(BackendComponent b) const {
    return DispatchKeySet(RAW, repr_ & ~DispatchKeySet(b).repr_);
  }

  constexpr bool empty() const { return repr_ == 0; }
  constexpr uint64_t raw_repr() const { return repr_; }

  // The highest-priority functionality present (Dense, ADInplaceOrView, ...).
  DispatchKey highestFunctionalityKey() const;
  // The highest backend bit present (CUDABit beats CPUBit).
  BackendComponent highestBackendKey() const;
  // The key whose kernel runs: e.g. {CPU, AutogradCPU} -> AutogradCPU.
  DispatchKey highestPriorityTypeId() const;

  // Slot in an operator's dispatch table: one slot per runtime key (PyTorch packs the
  // table with per-functionality offsets; indexing by the key itself is the same idea
  // without the packing).
  uint16_t getDispatchTableIndexForDispatchKeySet() const {
    return static_cast<uint16_t>(highestPriorityTypeId());
  }

  // Runtime keys in the set, lowest priority first: for each functionality bit, one key
  // per backend bit if it is per-backend, else the functionality itself.
  class iterator {
   public:
    using value_type = DispatchKey;
    DispatchKey operator*() const { return keys_[i_]; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const iterator& other) const { return i_ == other.i_; }
    bool operator!=(const iterator& other) const { return i_ != other.i_; }

   private:
    friend class DispatchKeySet;
    iterator(const DispatchKeySet& set, bool at_end);
    std::array<DispatchKey, 64> keys_{};
    size_t n_ = 0;
    size_t i_ = 0;
  };
  iterator begin() const { return iterator(*this, false); }
  iterator end() const { return iterator(*this, true); }

 private:
  static constexpr uint64_t full_backend_mask() { return (uint64_t(1) << num_backends) - 1; }
  static constexpr uint64_t full_mask() {
    return (uint64_t(1) << (num_backends + num_functionality_keys)) - 1;
  }
  // [marker: bits_of]
  static constexpr uint64_t bits_of(DispatchKey k) {
    if (k == DispatchKey::Undefined || isAliasDispatchKey(k) ||
        k == DispatchKey::StartOfDenseBackends ||
        k == DispatchKey::StartOfAutogradFunctionalityBackends) {
      return 0;
    }
    const DispatchKey functionality = toFunctionalityKey(k);
    const uint64_t functionality_bit = uint64_t(1)
                                       << (num_backends + static_cast<uint8_t>(functionality) - 1);
    const BackendComponent backend = toBackendComponent(k);
    return functionality_bit | DispatchKeySet(backend).repr_;
  }
  // [end marker: bits_of]

  uint64_t repr_ = 0;
};

C10_API std::string toString(DispatchKeySet ks);
C10_API std::ostream& operator<<(std::ostream& out, DispatchKeySet ks);

// [marker: keysets]
// ---- key sets the dispatcher and TensorImpl use (PyTorch's names) ----

constexpr DispatchKeySet autograd_dispatch_keyset =
    DispatchKeySet({DispatchKey::AutogradFunctionality, DispatchKey::AutogradOther});
constexpr DispatchKeySet autocast_dispatch_keyset =
    DispatchKeySet({DispatchKey::AutocastCPU, DispatchKey::AutocastCUDA});
// Thread-local defaults: BackendSelect and ADInplaceOrView run unless excluded; autocast
// runs only when a torch.autocast region includes it.
constexpr DispatchKeySet default_included_set =
    DispatchKeySet({DispatchKey::BackendSelect, DispatchKey::ADInplaceOrView});
constexpr DispatchKeySet default_excluded_set = autocast_dispatch_keyset;
constexpr DispatchKeySet autograd_dispatch_keyset_with_ADInplaceOrView =
    autograd_dispatch_keyset | DispatchKeySet(DispatchKey::ADInplaceOrView);
// What an autograd kernel redispatches with: every key below autograd.
constexpr DispatchKeySet after_autograd_keyset =
    DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::AutogradOther);
constexpr DispatchKeySet after_ADInplaceOrView_keyset =
    DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::ADInplaceOrView);
// Every backend's Dense kernel (what CompositeExplicitAutograd covers).
constexpr DispatchKeySet backend_dispatch_keyset =
    DispatchKeySet(DispatchKey::Dense) | DispatchKeySet(DispatchKeySet::RAW, (uint64_t(1) << num_backends) - 1);
// [end marker: keysets]

// {ADInplaceOrView, Autograd<backend>}: added to every tensor of that backend.
C10_API DispatchKeySet getAutogradRelatedKeySetFromBackend(BackendComponent t);
// {Autocast<backend>} where the backend has one.
C10_API DispatchKeySet getAutocastRelatedKeySetFromBackend(BackendComponent t);
C10_API DispatchKey getAutogradKeyFromBackend(BackendComponent t);
// The runtime keys an alias key stands for (Autograd -> every Autograd<backend>, ...).
C10_API DispatchKeySet getRuntimeDispatchKeySet(DispatchKey t);
C10_API bool isIncludedInAlias(DispatchKey k, DispatchKey alias);

}  // namespace c10
