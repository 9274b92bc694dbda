// c10/util/intrusive_ptr.h - reference counting stored inside the object it counts.
// Mirrors PyTorch's c10/util/intrusive_ptr.h. Guide: docs/source/internals/memory.rst.
//
// Why intrusive: a StorageImpl or TensorImpl is shared between C++ owners and Python
// objects. Keeping the count inside the object (rather than in a separate control block,
// as std::shared_ptr does) means a raw pointer can be turned back into an owning one at
// any time (release()/reclaim()), which is how the pointer crosses into Python and back.
//
// [marker: refcounts]
// Two counts (seed 000, "Data Storage": the refcount that frees a storage):
//   refcount_  - owning references (intrusive_ptr). When it reaches 0 the object's
//                resources are released (release_resources(): StorageImpl frees its bytes).
//   weakcount_ - weak_intrusive_ptr references, PLUS ONE while refcount_ > 0.
//                When it reaches 0 the object's memory itself is deleted.
// Invariant: while refcount_ > 0, weakcount_ == (number of weak_intrusive_ptr) + 1.
// So a weak reference keeps the husk alive (to answer expired()), never the resources.
// [end marker: refcounts]
#pragma once

#include <c10/util/Exception.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

namespace c10 {

class intrusive_ptr_target;

namespace raw {
struct DontIncreaseRefcount {};
namespace intrusive_ptr {
inline void incref(intrusive_ptr_target* self);
inline void decref(intrusive_ptr_target* self);
}  // namespace intrusive_ptr
}  // namespace raw

template <class TTarget, class NullType>
class intrusive_ptr;
template <class TTarget, class NullType>
class weak_intrusive_ptr;

// Counts so large they never reach zero: for objects that must never be freed.
constexpr uint32_t kImpracticallyHugeReferenceCount = 0x0FFFFFFF;

// Base class of every intrusively counted object (StorageImpl, TensorImpl, ...).
class C10_API intrusive_ptr_target {
  mutable std::atomic<uint32_t> refcount_;
  mutable std::atomic<uint32_t> weakcount_;

  template <typename T, typename NullType>
  friend class intrusive_ptr;
  template <typename T, typename NullType>
  friend class weak_intrusive_ptr;
  friend inline void raw::intrusive_ptr::incref(intrusive_ptr_target* self);
  friend inline void raw::intrusive_ptr::decref(intrusive_ptr_target* self);

 protected:
  // Only intrusive_ptr deletes these objects; a delete through a raw pointer while
  // owners remain is caught here in debug builds.
  virtual ~intrusive_ptr_target() {
    TORCH_INTERNAL_ASSERT_DEBUG_ONLY(
        refcount_.load() == 0 || refcount_.load() >= kImpracticallyHugeReferenceCount,
        "Tried to destruct an intrusive_ptr_target that still has intrusive_ptr to it; refcount was ",
        refcount_.load());
    TORCH_INTERNAL_ASSERT_DEBUG_ONLY(
        weakcount_.load() == 1 || weakcount_.load() == 0 ||
            weakcount_.load() == kImpracticallyHugeReferenceCount - 1 ||
            weakcount_.load() == kImpracticallyHugeReferenceCount,
        "Tried to destruct an intrusive_ptr_target that still has weak_intrusive_ptr to it");
  }

  constexpr intrusive_ptr_target() noexcept : refcount_(0), weakcount_(0) {}
  // A copy or move of the object is a new object: it starts with no owners.
  intrusive_ptr_target(intrusive_ptr_target&&) noexcept : intrusive_ptr_target() {}
  intrusive_ptr_target& operator=(intrusive_ptr_target&&) noexcept { return *this; }
  intrusive_ptr_target(const intrusive_ptr_target&) noexcept : intrusive_ptr_target() {}
  intrusive_ptr_target& operator=(const intrusive_ptr_target&) noexcept { return *this; }

 private:
  // Called when the last owning reference goes while weak references remain: free the
  // expensive parts now, the object itself goes when the last weak reference does.
  virtual void release_resources() {}
};

namespace detail {
template <class TTarget>
struct intrusive_target_default_null_type final {
  static constexpr TTarget* singleton() noexcept { return nullptr; }
};

template <class TTarget, class ToNullType, class FromNullType>
TTarget* assign_ptr_(TTarget* rhs) {
  if (FromNullType::singleton() == rhs) {
    return ToNullType::singleton();
  }
  return rhs;
}
}  // namespace detail

template <class TTarget,
          class NullType = detail::intrusive_target_default_null_type<TTarget>>
class intrusive_ptr final {
 private:
  static_assert(std::is_base_of_v<intrusive_ptr_target, TTarget>,
                "intrusive_ptr can only be used for classes that inherit from intrusive_ptr_target.");

  TTarget* target_;

  template <typename T, typename N>
  friend class intrusive_ptr;
  friend class weak_intrusive_ptr<TTarget, NullType>;

  void retain_() {
    if (target_ != NullType::singleton()) {
      uint32_t new_refcount = ++target_->refcount_;
      TORCH_INTERNAL_ASSERT_DEBUG_ONLY(new_refcount != 1,
                                       "intrusive_ptr: Cannot increase refcount after it reached zero.");
    }
  }

  // [marker: reset_]
  void reset_() noexcept {
    if (target_ != NullType::singleton() && --target_->refcount_ == 0) {
      // Last owner. If no weak reference exists (weakcount is just the +1), delete at once;
      // otherwise release the resources and drop the +1, deleting only if that was the last.
      bool should_delete = target_->weakcount_.load(std::memory_order_acquire) == 1;
      if (!should_delete) {
        const_cast<std::remove_const_t<TTarget>*>(target_)->release_resources();
        should_delete = --target_->weakcount_ == 0;
      }
      if (should_delete) {
        delete target_;
      }
    }
  }
  // [end marker: reset_]

 public:
  using element_type = TTarget;

  intrusive_ptr() noexcept : target_(NullType::singleton()) {}
  intrusive_ptr(std::nullptr_t) noexcept : target_(NullType::singleton()) {}

  // Adopt a pointer without touching its count (used by make, reclaim and lock).
  explicit intrusive_ptr(TTarget* target, raw::DontIncreaseRefcount) noexcept : target_(target) {}

  intrusive_ptr(intrusive_ptr&& rhs) noexcept : target_(rhs.target_) {
    rhs.target_ = NullType::singleton();
  }
  template <class From, class FromNullType>
  intrusive_ptr(intrusive_ptr<From, FromNullType>&& rhs) noexcept
      : target_(detail::assign_ptr_<TTarget, NullType, FromNullType>(rhs.target_)) {
    static_assert(std::is_convertible_v<From*, TTarget*>,
                  "Type mismatch. intrusive_ptr move constructor got pointer of wrong type.");
    rhs.target_ = FromNullType::singleton();
  }
  intrusive_ptr(const intrusive_ptr& rhs) : target_(rhs.target_) { retain_(); }
  template <class From, class FromNullType>
  intrusive_ptr(const intrusive_ptr<From, FromNullType>& rhs)
      : target_(detail::assign_ptr_<TTarget, NullType, FromNullType>(rhs.target_)) {
    static_assert(std::is_convertible_v<From*, TTarget*>,
                  "Type mismatch. intrusive_ptr copy constructor got pointer of wrong type.");
    retain_();
  }

  ~intrusive_ptr() noexcept { reset_(); }

  intrusive_ptr& operator=(intrusive_ptr&& rhs) & noexcept {
    intrusive_ptr tmp(std::move(rhs));
    swap(tmp);
    return *this;
  }
  intrusive_ptr& operator=(const intrusive_ptr& rhs) & noexcept {
    intrusive_ptr tmp(rhs);
    swap(tmp);
    return *this;
  }
  template <class From, class FromNullType>
  intrusive_ptr& operator=(intrusive_ptr<From, FromNullType>&& rhs) & noexcept {
    intrusive_ptr tmp(std::move(rhs));
    swap(tmp);
    return *this;
  }

  TTarget* get() const noexcept { return target_; }
  TTarget& operator*() const noexcept { return *target_; }
  TTarget* operator->() const noexcept { return target_; }
  operator bool() const noexcept { return target_ != NullType::singleton(); }
  bool defined() const noexcept { return target_ != NullType::singleton(); }

  void reset() noexcept {
    reset_();
    target_ = NullType::singleton();
  }
  void swap(intrusive_ptr& rhs) noexcept { std::swap(target_, rhs.target_); }

  size_t use_count() const noexcept {
    return target_ == NullType::singleton() ? 0 : target_->refcount_.load(std::memory_order_acquire);
  }
  size_t weak_use_count() const noexcept {
    return target_ == NullType::singleton() ? 0 : target_->weakcount_.load(std::memory_order_acquire);
  }
  bool unique() const noexcept { return use_count() == 1; }
  // Owned by this pointer alone, and nobody even holds a weak reference.
  bool is_uniquely_owned() const noexcept { return use_count() == 1 && weak_use_count() == 1; }

  // Give up ownership without decrementing: the caller now owns one count and must hand
  // it back with reclaim(). This is how an owning reference is parked in a raw pointer
  // (e.g. THStorage* in the legacy API).
  C10_NODISCARD TTarget* release() noexcept {
    TTarget* result = target_;
    target_ = NullType::singleton();
    return result;
  }

  // Take back a count given up by release().
  static intrusive_ptr reclaim(TTarget* owning_ptr) {
    TORCH_INTERNAL_ASSERT_DEBUG_ONLY(
        owning_ptr == NullType::singleton() || owning_ptr->refcount_.load() == 0 ||
            owning_ptr->weakcount_.load(),
        "TTarget violates the invariant that refcount > 0  =>  weakcount > 0");
    return intrusive_ptr(owning_ptr, raw::DontIncreaseRefcount{});
  }

  // A new owning reference to an object that someone else already owns.
  static intrusive_ptr unsafe_reclaim_from_nonowning(TTarget* raw_ptr) {
    TORCH_INTERNAL_ASSERT_DEBUG_ONLY(
        raw_ptr == NullType::singleton() || raw_ptr->refcount_.load() > 0,
        "intrusive_ptr: Can only reclaim pointers that are owned by someone");
    auto ptr = reclaim(raw_ptr);
    ptr.retain_();
    return ptr;
  }

  // [marker: make]
  // Construct a new object: both counts start at 1 (the weak +1 rule above).
  template <class... Args>
  static intrusive_ptr make(Args&&... args) {
    auto result = intrusive_ptr(new TTarget(std::forward<Args>(args)...), raw::DontIncreaseRefcount{});
    result.target_->refcount_.store(1, std::memory_order_relaxed);
    result.target_->weakcount_.store(1, std::memory_order_relaxed);
    return result;
  }
  // [end marker: make]

  // For objects with static lifetime: counts that can never reach zero.
  static intrusive_ptr unsafe_adapt_non_heap_allocated(TTarget* raw_ptr, uint32_t expected_decrefs) {
    intrusive_ptr result(raw_ptr, raw::DontIncreaseRefcount{});
    result.target_->refcount_.store(kImpracticallyHugeReferenceCount + expected_decrefs,
                                    std::memory_order_relaxed);
    result.target_->weakcount_.store(kImpracticallyHugeReferenceCount, std::memory_order_relaxed);
    return result;
  }
};

template <class TTarget, class NullType = detail::intrusive_target_default_null_type<TTarget>,
          class... Args>
inline intrusive_ptr<TTarget, NullType> make_intrusive(Args&&... args) {
  return intrusive_ptr<TTarget, NullType>::make(std::forward<Args>(args)...);
}

template <class T1, class N1, class T2, class N2>
inline bool operator==(const intrusive_ptr<T1, N1>& a, const intrusive_ptr<T2, N2>& b) noexcept {
  return a.get() == b.get();
}
template <class T1, class N1, class T2, class N2>
inline bool operator!=(const intrusive_ptr<T1, N1>& a, const intrusive_ptr<T2, N2>& b) noexcept {
  return a.get() != b.get();
}
template <class T, class N>
inline bool operator==(const intrusive_ptr<T, N>& a, std::nullptr_t) noexcept {
  return !a.defined();
}
template <class T, class N>
inline bool operator!=(const intrusive_ptr<T, N>& a, std::nullptr_t) noexcept {
  return a.defined();
}
template <class T1, class N1, class T2, class N2>
inline bool operator<(const intrusive_ptr<T1, N1>& a, const intrusive_ptr<T2, N2>& b) noexcept {
  return std::less<T1*>()(a.get(), b.get());
}

// A reference that does not keep the object's resources alive; lock() to use it.
template <typename TTarget,
          class NullType = detail::intrusive_target_default_null_type<TTarget>>
class weak_intrusive_ptr final {
 private:
  static_assert(std::is_base_of_v<intrusive_ptr_target, TTarget>,
                "intrusive_ptr can only be used for classes that inherit from intrusive_ptr_target.");
  TTarget* target_;

  template <class T, class N>
  friend class weak_intrusive_ptr;

  void retain_() {
    if (target_ != NullType::singleton()) {
      uint32_t new_weakcount = ++target_->weakcount_;
      TORCH_INTERNAL_ASSERT_DEBUG_ONLY(new_weakcount != 1,
                                       "weak_intrusive_ptr: Cannot increase weakcount after it reached zero.");
    }
  }

  void reset_() noexcept {
    if (target_ != NullType::singleton() && --target_->weakcount_ == 0) {
      delete target_;
    }
    target_ = NullType::singleton();
  }

  constexpr explicit weak_intrusive_ptr(TTarget* target) : target_(target) {}

 public:
  using element_type = TTarget;

  explicit weak_intrusive_ptr(const intrusive_ptr<TTarget, NullType>& ptr) : weak_intrusive_ptr(ptr.get()) {
    retain_();
  }
  weak_intrusive_ptr(weak_intrusive_ptr&& rhs) noexcept : target_(rhs.target_) {
    rhs.target_ = NullType::singleton();
  }
  weak_intrusive_ptr(const weak_intrusive_ptr& rhs) : target_(rhs.target_) { retain_(); }
  ~weak_intrusive_ptr() noexcept { reset_(); }

  weak_intrusive_ptr& operator=(weak_intrusive_ptr&& rhs) & noexcept {
    weak_intrusive_ptr tmp(std::move(rhs));
    swap(tmp);
    return *this;
  }
  weak_intrusive_ptr& operator=(const weak_intrusive_ptr& rhs) & noexcept {
    weak_intrusive_ptr tmp(rhs);
    swap(tmp);
    return *this;
  }
  weak_intrusive_ptr& operator=(const intrusive_ptr<TTarget, NullType>& rhs) & noexcept {
    weak_intrusive_ptr tmp(rhs);
    swap(tmp);
    return *this;
  }

  void reset() noexcept { reset_(); }
  void swap(weak_intrusive_ptr& rhs) noexcept { std::swap(target_, rhs.target_); }

  // The object itself (possibly already released): for bookkeeping and hashing only.
  TTarget* _unsafe_get_target() const noexcept { return target_; }

  size_t use_count() const noexcept {
    return target_ == NullType::singleton() ? 0 : target_->refcount_.load(std::memory_order_acquire);
  }
  size_t weak_use_count() const noexcept {
    return target_ == NullType::singleton() ? 0 : target_->weakcount_.load(std::memory_order_acquire);
  }
  bool expired() const noexcept { return use_count() == 0; }

  // An owning reference if the object still has owners, else null. The compare-exchange
  // loop makes "check > 0 then increment" atomic, so we never resurrect a dead object.
  intrusive_ptr<TTarget, NullType> lock() const noexcept {
    if (expired()) {
      return intrusive_ptr<TTarget, NullType>();
    }
    auto refcount = target_->refcount_.load(std::memory_order_seq_cst);
    do {
      if (refcount == 0) {
        return intrusive_ptr<TTarget, NullType>();
      }
    } while (!target_->refcount_.compare_exchange_weak(refcount, refcount + 1));
    return intrusive_ptr<TTarget, NullType>(target_, raw::DontIncreaseRefcount{});
  }

  // The weak counterpart of release()/reclaim().
  C10_NODISCARD TTarget* release() noexcept {
    TTarget* result = target_;
    target_ = NullType::singleton();
    return result;
  }
  static weak_intrusive_ptr reclaim(TTarget* owning_weak_ptr) {
    return weak_intrusive_ptr(owning_weak_ptr);
  }
};

namespace raw {
namespace intrusive_ptr {
// Manual counting for code that holds a raw pointer as an owning reference.
inline void incref(intrusive_ptr_target* self) {
  if (self) {
    ++self->refcount_;
  }
}
inline void decref(intrusive_ptr_target* self) {
  // Let a temporary intrusive_ptr do the decrement and the release logic.
  c10::intrusive_ptr<intrusive_ptr_target>::reclaim(self);
}
template <typename T>
inline size_t use_count(T* self) {
  auto p = c10::intrusive_ptr<T>::reclaim(self);
  auto r = p.use_count();
  (void)p.release();
  return r;
}
}  // namespace intrusive_ptr
}  // namespace raw

}  // namespace c10

namespace std {
template <class TTarget, class NullType>
struct hash<c10::intrusive_ptr<TTarget, NullType>> {
  size_t operator()(const c10::intrusive_ptr<TTarget, NullType>& x) const {
    return std::hash<TTarget*>()(x.get());
  }
};
}  // namespace std
