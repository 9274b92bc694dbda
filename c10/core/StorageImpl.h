// c10/core/StorageImpl.h - the bytes behind one or more tensors.
// Mirrors PyTorch's c10/core/StorageImpl.h. Guide: docs/source/internals/memory.rst.
//
// Seed 000, "Data Storage": a storage is a refcounted block of memory plus the allocator
// that made it. It knows its size in bytes, not its element type: a float32 tensor and an
// int32 view of it can share one storage. Tensors (TensorImpl) add the interpretation:
// dtype, sizes, strides, storage_offset.
//
// Lifetime: a StorageImpl is an intrusive_ptr_target. Every tensor viewing it holds one
// reference; when the last one goes, release_resources() drops the DataPtr, whose deleter
// hands the memory back to the allocator (for the CPU: ReportAndDelete -> free_cpu).
// The legacy TH layer calls this struct THStorage (aten/src/TH/THStorageFunctions.h).
#pragma once

#include <c10/core/Allocator.h>
#include <c10/util/Exception.h>
#include <c10/util/intrusive_ptr.h>
#include <c10/util/typeid.h>

#include <cstddef>
#include <utility>

namespace c10 {

/// The bytes behind one or more tensors (PyTorch's c10/core/StorageImpl.h): a DataPtr, its
/// size in bytes, and the Allocator that made it.
/// A StorageImpl owns its DataPtr, and so the memory; it does not own the allocator. It has
/// no element type: each TensorImpl viewing it holds one reference (through c10::Storage)
/// and supplies dtype, sizes, strides and storage_offset. When the last reference goes, the
/// DataPtr's deleter hands the memory back to the allocator.
// [marker: StorageImpl]
struct C10_API StorageImpl : public c10::intrusive_ptr_target {
 public:
  /// Tag for the constructors: sizes here are in bytes (older PyTorch took element counts
  /// and a TypeMeta; the legacy THStorage_(newWithSize) still speaks in elements).
  struct use_byte_size_t {};

  /// Adopt memory that was already allocated. A resizable storage must know its allocator,
  /// since resizing allocates anew.
  StorageImpl(use_byte_size_t, size_t size_bytes, DataPtr data_ptr, Allocator* allocator,
              bool resizable)
      : data_ptr_(std::move(data_ptr)),
        size_bytes_(size_bytes),
        resizable_(resizable),
        received_cuda_(false),
        allocator_(allocator) {
    if (resizable) {
      TORCH_INTERNAL_ASSERT(allocator_, "For resizable storage, allocator must be provided");
    }
  }

  /// Allocate size_bytes with the given allocator.
  StorageImpl(use_byte_size_t use_byte_size, size_t size_bytes, Allocator* allocator, bool resizable)
      : StorageImpl(use_byte_size, size_bytes, allocator->allocate(size_bytes), allocator, resizable) {}

  // The legacy constructors (PyTorch 1.x): an element type and a count of elements. The
  // legacy THStorage_(newWithSize) calls the first exactly as seed 000 traces it
  // (aten/src/TH/generic/THStorage.cpp); the storage keeps only the byte count.
  StorageImpl(caffe2::TypeMeta data_type, int64_t numel, Allocator* allocator, bool resizable)
      : StorageImpl(use_byte_size_t(), legacy_nbytes(data_type, numel), allocator, resizable) {}
  StorageImpl(caffe2::TypeMeta data_type, int64_t numel, DataPtr data_ptr, Allocator* allocator, bool resizable)
      : StorageImpl(use_byte_size_t(), legacy_nbytes(data_type, numel), std::move(data_ptr), allocator, resizable) {}

  /// numel * itemsize, refused when negative or too large: wrapped around, 2**62 floats
  /// would be a 0-byte storage.
  static size_t legacy_nbytes(caffe2::TypeMeta data_type, int64_t numel) {
    int64_t nbytes = 0;
    TORCH_CHECK(numel >= 0 && !__builtin_mul_overflow(numel, static_cast<int64_t>(data_type.itemsize()), &nbytes),
                "Storage size calculation overflowed with sizes=[", numel, "]");
    return static_cast<size_t>(nbytes);
  }

  StorageImpl& operator=(StorageImpl&& other) = delete;
  StorageImpl& operator=(const StorageImpl&) = delete;
  StorageImpl() = delete;
  StorageImpl(StorageImpl&& other) = delete;
  StorageImpl(const StorageImpl&) = delete;
  ~StorageImpl() override = default;

  /// Drop the memory now (size becomes 0).
  void reset() {
    data_ptr_.clear();
    size_bytes_ = 0;
  }

  /// Size in bytes (a storage has no element type).
  size_t nbytes() const { return size_bytes_; }
  void set_nbytes(size_t size_bytes) { size_bytes_ = size_bytes; }
  bool resizable() const { return resizable_; }

  const DataPtr& data_ptr() const { return data_ptr_; }
  DataPtr& mutable_data_ptr() { return data_ptr_; }
  const void* data() const { return data_ptr_.get(); }
  void* mutable_data() { return data_ptr_.mutable_get(); }

  /// Install new memory; returns the old DataPtr (whose memory is freed when it dies).
  DataPtr set_data_ptr(DataPtr&& data_ptr) {
    std::swap(data_ptr_, data_ptr);
    return std::move(data_ptr);
  }
  void set_data_ptr_noswap(DataPtr&& data_ptr) { data_ptr_ = std::move(data_ptr); }

  DeviceType device_type() const { return data_ptr_.device().type(); }
  Device device() const { return data_ptr_.device(); }
  /// The allocator that made the memory (not owned; null for external memory).
  Allocator* allocator() { return allocator_; }
  const Allocator* allocator() const { return allocator_; }
  void set_allocator(Allocator* allocator) { allocator_ = allocator; }

  void set_resizable(bool resizable) {
    if (resizable) {
      TORCH_INTERNAL_ASSERT(allocator_);
    }
    resizable_ = resizable;
  }

  /// Point at memory someone else owns (no allocator, so not resizable).
  void UniqueStorageShareExternalPointer(DataPtr&& data_ptr, size_t size_bytes) {
    data_ptr_ = std::move(data_ptr);
    size_bytes_ = size_bytes;
    allocator_ = nullptr;
    resizable_ = false;
  }

  /// Set when this storage arrived from another process over CUDA IPC (never here yet).
  void set_received_cuda(bool received_cuda) { received_cuda_ = received_cuda; }
  bool received_cuda() const { return received_cuda_; }

  /// The last strong reference is gone but weak ones remain: free the memory now.
  void release_resources() override { data_ptr_.clear(); }

 private:
  DataPtr data_ptr_;
  size_t size_bytes_;
  bool resizable_;
  bool received_cuda_;
  Allocator* allocator_;
};
// [end marker: StorageImpl]

}  // namespace c10

namespace at {
using c10::StorageImpl;
}
