// c10/util/UniqueVoidPtr.h - a data pointer plus an owning context with its deleter.
// Mirrors PyTorch's c10/util/UniqueVoidPtr.h. Guide: docs/source/internals/memory.rst.
//
// Why two pointers: the address a tensor reads (data) is not always the thing that must be
// freed (context). A plain malloc has data == context; a block from the CUDA caching
// allocator or a memory-mapped file has a context object that knows how to give it back.
// The deleter is called on the *context*, never on the data.
#pragma once

#include <memory>

namespace c10 {

using DeleterFnPtr = void (*)(void*);

namespace detail {

// A deleter that does nothing: used for non-owning pointers.
inline void deleteNothing(void*) {}

class UniqueVoidPtr {
 private:
  void* data_;                                    // what readers use
  std::unique_ptr<void, DeleterFnPtr> ctx_;       // what owns the memory

 public:
  UniqueVoidPtr() : data_(nullptr), ctx_(nullptr, &deleteNothing) {}
  explicit UniqueVoidPtr(void* data) : data_(data), ctx_(nullptr, &deleteNothing) {}
  UniqueVoidPtr(void* data, void* ctx, DeleterFnPtr ctx_deleter)
      : data_(data), ctx_(ctx, ctx_deleter ? ctx_deleter : &deleteNothing) {}

  void* operator->() const { return data_; }
  void clear() {
    ctx_ = nullptr;
    data_ = nullptr;
  }
  void* get() const { return data_; }
  void* get_context() const { return ctx_.get(); }
  void* release_context() { return ctx_.release(); }
  std::unique_ptr<void, DeleterFnPtr>&& move_context() { return std::move(ctx_); }

  // Swap the deleter only if it is the one we expect (a caller that recognises the
  // allocator can take over ownership safely).
  [[nodiscard]] bool compare_exchange_deleter(DeleterFnPtr expected_deleter, DeleterFnPtr new_deleter) {
    if (get_deleter() != expected_deleter) {
      return false;
    }
    ctx_ = std::unique_ptr<void, DeleterFnPtr>(ctx_.release(), new_deleter);
    return true;
  }

  template <typename T>
  T* cast_context(DeleterFnPtr expected_deleter) const {
    if (get_deleter() != expected_deleter) {
      return nullptr;
    }
    return static_cast<T*>(get_context());
  }
  operator bool() const { return data_ || ctx_; }
  DeleterFnPtr get_deleter() const { return ctx_.get_deleter(); }
};

inline bool operator==(const UniqueVoidPtr& sp, std::nullptr_t) noexcept {
  return !sp;
}
inline bool operator!=(const UniqueVoidPtr& sp, std::nullptr_t) noexcept {
  return sp;
}

}  // namespace detail
}  // namespace c10
