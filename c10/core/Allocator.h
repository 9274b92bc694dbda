// c10/core/Allocator.h - DataPtr, the Allocator interface, and the per-device registry.
// Mirrors PyTorch's c10/core/Allocator.h. Guide: docs/source/internals/memory.rst.
//
// Seed 000, "Memory Allocator": every byte of tensor memory comes from an Allocator chosen
// by device type (GetAllocator(DeviceType::CPU) -> the default CPU allocator;
// GetAllocator(DeviceType::CUDA) -> the CUDA caching allocator). What an allocator returns
// is a DataPtr: the address, plus the context and deleter that free it, plus the device.
// A StorageImpl owns one DataPtr; when the storage dies, the DataPtr's deleter runs.
#pragma once

#include <c10/core/Device.h>
#include <c10/macros/Macros.h>
#include <c10/util/Exception.h>
#include <c10/util/UniqueVoidPtr.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace c10 {

/// The owning pointer that every Allocator hands out and every StorageImpl holds
/// (PyTorch's c10/core/Allocator.h).
/// The data address and the context are usually the same pointer; they differ when the memory
/// belongs to some other object (an InefficientStdFunctionContext, a caching allocator's
/// block), and the deleter then runs on the context. Destroying or clear()ing an owning
/// DataPtr frees the memory; the Device is carried along but never compared.
// [marker: DataPtr]
// A pointer to memory on some device, owning it through a context + deleter.
class C10_API DataPtr {
 private:
  c10::detail::UniqueVoidPtr ptr_;
  Device device_;

 public:
  /// Choice of CPU here is arbitrary; if there's an "undefined" device we could use that too.
  DataPtr() : ptr_(), device_(DeviceType::CPU) {}
  /// Non-owning: nothing is freed when this DataPtr dies.
  DataPtr(void* data, Device device) : ptr_(data), device_(device) {}
  /// Owning: ctx_deleter(ctx) runs when this DataPtr dies (on ctx, not on data).
  DataPtr(void* data, void* ctx, DeleterFnPtr ctx_deleter, Device device)
      : ptr_(data, ctx, ctx_deleter), device_(device) {}

  void* operator->() const { return ptr_.get(); }
  void clear() { ptr_.clear(); }
  /// The address of the memory (what a storage's data() returns).
  void* get() const { return ptr_.get(); }
  void* mutable_get() { return ptr_.get(); }
  /// The object the deleter frees; the same as get() for a plain allocation.
  void* get_context() const { return ptr_.get_context(); }
  /// Give up ownership: returns the context, and the deleter will not run.
  void* release_context() { return ptr_.release_context(); }
  std::unique_ptr<void, DeleterFnPtr>&& move_context() { return ptr_.move_context(); }
  operator bool() const { return static_cast<bool>(ptr_); }
  template <typename T>
  /// The context as T*, or nullptr if the deleter is not expected_deleter.
  T* cast_context(DeleterFnPtr expected_deleter) const {
    return ptr_.cast_context<T>(expected_deleter);
  }
  DeleterFnPtr get_deleter() const { return ptr_.get_deleter(); }
  /// Replace the deleter if (and only if) it is expected_deleter. Returns whether it did.
  [[nodiscard]] bool compare_exchange_deleter(DeleterFnPtr expected_deleter, DeleterFnPtr new_deleter) {
    return ptr_.compare_exchange_deleter(expected_deleter, new_deleter);
  }
  Device device() const { return device_; }
  /// Only for code that knows the memory really lives on the new device.
  void unsafe_set_device(Device device) { device_ = device; }
};

// A CUDA nullptr is as much a nullptr as a CPU nullptr: the device is not compared.
inline bool operator==(const DataPtr& dp, std::nullptr_t) noexcept {
  return !dp;
}
inline bool operator==(std::nullptr_t, const DataPtr& dp) noexcept {
  return !dp;
}
inline bool operator!=(const DataPtr& dp, std::nullptr_t) noexcept {
  return dp;
}
inline bool operator!=(std::nullptr_t, const DataPtr& dp) noexcept {
  return dp;
}
// [end marker: DataPtr]

/// The interface of every device's allocator (PyTorch's c10/core/Allocator.h), one instance
/// per DeviceType, found with GetAllocator().
/// Allocators have static lifetime: neither the registry nor a StorageImpl (which keeps a
/// pointer to its allocator for resizing) owns them. What they return, a DataPtr, owns the
/// memory.
// [marker: Allocator]
// The interface every device's allocator implements.
struct C10_API Allocator {
  virtual ~Allocator() = default;

  /// n bytes on this allocator's device. n == 0 may return a null DataPtr.
  virtual DataPtr allocate(size_t n) = 0;

  /// A new allocation holding a copy of n bytes from data.
  DataPtr clone(const void* data, std::size_t n);

  /// True if this DataPtr came from a plain allocation (data == context).
  virtual bool is_simple_data_ptr(const DataPtr& data_ptr) const;

  /// If non-null, allocate() always returns DataPtrs whose context is the data itself and
  /// whose deleter is this function. Then raw_allocate/raw_deallocate are legal: they hand
  /// out bare void* (for libraries such as Thrust that want malloc/free-shaped calls).
  virtual DeleterFnPtr raw_deleter() const { return nullptr; }
  void* raw_allocate(size_t n) {
    auto dptr = allocate(n);
    TORCH_INTERNAL_ASSERT(dptr.get() == dptr.get_context());
    return dptr.release_context();
  }
  /// free()-shaped: run raw_deleter() on a pointer from raw_allocate().
  void raw_deallocate(void* ptr) {
    auto d = raw_deleter();
    TORCH_INTERNAL_ASSERT(d, "raw_deallocate needs an allocator with a raw_deleter()");
    d(ptr);
  }

  /// Copy count bytes between two allocations of this allocator's device.
  virtual void copy_data(void* dest, const void* src, std::size_t count) const = 0;

 protected:
  /// memcpy, for allocators of host-visible memory.
  void default_copy_data(void* dest, const void* src, std::size_t count) const;
};
// [end marker: Allocator]

// [marker: InefficientStdFunctionContext]
// A context for memory freed by an arbitrary std::function (e.g. torch.from_numpy keeps
// the numpy array alive and drops it here). "Inefficient" because it costs a heap
// allocation for the context, where a plain allocator needs none.
struct C10_API InefficientStdFunctionContext {
  void* ptr_;
  std::function<void(void*)> deleter_;

  InefficientStdFunctionContext(void* ptr, std::function<void(void*)> deleter)
      : ptr_(ptr), deleter_(std::move(deleter)) {}
  InefficientStdFunctionContext(const InefficientStdFunctionContext&) = delete;
  InefficientStdFunctionContext(InefficientStdFunctionContext&& rhs) noexcept
      : ptr_(std::exchange(rhs.ptr_, nullptr)), deleter_(std::move(rhs.deleter_)) {}
  InefficientStdFunctionContext& operator=(const InefficientStdFunctionContext&) = delete;
  ~InefficientStdFunctionContext() {
    if (deleter_) {
      deleter_(ptr_);
    }
  }

  static DataPtr makeDataPtr(void* ptr, std::function<void(void*)> deleter, Device device);
};
// [end marker: InefficientStdFunctionContext]

// [marker: SetAllocator]
// The registry: one allocator per DeviceType. A registration replaces the current one only
// if its priority is at least as high, so a later, more specialised allocator (priority 1)
// cannot be undone by a default registered afterwards (priority 0). Not thread-safe: set
// allocators at start-up. The registry does not own the allocator (static lifetime).
C10_API void SetAllocator(DeviceType t, Allocator* alloc, uint8_t priority = 0);
C10_API Allocator* GetAllocator(const DeviceType& t);

template <DeviceType t>
struct AllocatorRegisterer {
  explicit AllocatorRegisterer(Allocator* alloc) { SetAllocator(t, alloc); }
};

// REGISTER_ALLOCATOR(DeviceType::CPU, &g_cpu_alloc): registers at static-init time.
#define REGISTER_ALLOCATOR(t, f)                                        \
  namespace {                                                           \
  static c10::AllocatorRegisterer<t> g_allocator_d(f);                  \
  }
// [end marker: SetAllocator]

}  // namespace c10

namespace at {
using c10::Allocator;
using c10::DataPtr;
using c10::GetAllocator;
using c10::SetAllocator;
}  // namespace at
