// c10/core/Storage.h - a handle to a StorageImpl (one intrusive_ptr).
// Mirrors PyTorch's c10/core/Storage.h. Guide: docs/source/internals/memory.rst.
#pragma once

#include <c10/core/StorageImpl.h>

namespace c10 {

struct C10_API Storage {
 public:
  struct use_byte_size_t {};

  Storage() = default;
  Storage(c10::intrusive_ptr<StorageImpl> ptr) : storage_impl_(std::move(ptr)) {}

  // A new resizable storage of size_bytes from allocator (the CPU allocator by default).
  Storage(use_byte_size_t, size_t size_bytes, Allocator* allocator, bool resizable = false)
      : storage_impl_(c10::make_intrusive<StorageImpl>(StorageImpl::use_byte_size_t(), size_bytes,
                                                       allocator, resizable)) {}
  // Adopt a DataPtr.
  Storage(use_byte_size_t, size_t size_bytes, DataPtr data_ptr, Allocator* allocator = nullptr,
          bool resizable = false)
      : storage_impl_(c10::make_intrusive<StorageImpl>(StorageImpl::use_byte_size_t(), size_bytes,
                                                       std::move(data_ptr), allocator, resizable)) {}

  size_t nbytes() const { return storage_impl_->nbytes(); }
  void set_nbytes(size_t size_bytes) const { storage_impl_->set_nbytes(size_bytes); }
  bool resizable() const { return storage_impl_->resizable(); }
  const void* data() const { return storage_impl_->data(); }
  void* mutable_data() const { return storage_impl_->mutable_data(); }
  const DataPtr& data_ptr() const { return storage_impl_->data_ptr(); }
  DataPtr& mutable_data_ptr() const { return storage_impl_->mutable_data_ptr(); }
  DataPtr set_data_ptr(DataPtr&& data_ptr) const { return storage_impl_->set_data_ptr(std::move(data_ptr)); }
  DeviceType device_type() const { return storage_impl_->device_type(); }
  Device device() const { return storage_impl_->device(); }
  Allocator* allocator() const { return storage_impl_->allocator(); }

  StorageImpl* unsafeGetStorageImpl() const noexcept { return storage_impl_.get(); }
  c10::intrusive_ptr<StorageImpl> getIntrusivePtr() const { return storage_impl_; }
  // Give up this handle's reference without decrementing (see intrusive_ptr::release).
  StorageImpl* unsafeReleaseStorageImpl() { return storage_impl_.release(); }

  operator bool() const { return storage_impl_; }
  size_t use_count() const { return storage_impl_.use_count(); }
  bool unique() const { return storage_impl_.unique(); }
  // Two handles to the same StorageImpl (views of one tensor share their storage).
  bool is_alias_of(const Storage& other) const {
    return storage_impl_ == other.storage_impl_ ||
           (storage_impl_ && other.storage_impl_ && data() != nullptr && data() == other.data());
  }

 protected:
  c10::intrusive_ptr<StorageImpl> storage_impl_;
};

}  // namespace c10

namespace at {
using c10::Storage;
}
