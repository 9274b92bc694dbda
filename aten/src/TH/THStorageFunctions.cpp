// aten/src/TH/THStorageFunctions.cpp - compiles generic/THStorage.cpp and
// generic/THStorageCopy.cpp once per element type, plus the untyped THStorage_ functions.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/THStorageFunctions.cpp of PyTorch 1.10.
// Guide: docs/source/internals/macro_generic.rst.
#include <TH/THStorageFunctions.h>

#include <c10/util/intrusive_ptr.h>

#include <cstring>

#include <TH/generic/THStorage.cpp>
#include <TH/THGenerateAllTypes.h>

#include <TH/generic/THStorage.cpp>
#include <TH/THGenerateHalfType.h>

#include <TH/generic/THStorage.cpp>
#include <TH/THGenerateBoolType.h>

#include <TH/generic/THStorageCopy.cpp>
#include <TH/THGenerateAllTypes.h>

#include <TH/generic/THStorageCopy.cpp>
#include <TH/THGenerateHalfType.h>

#include <TH/generic/THStorageCopy.cpp>
#include <TH/THGenerateBoolType.h>

// [marker: THStorage_retain_free]
// A THStorage* is a raw, owning pointer to an intrusive_ptr_target: retain adds one
// reference, free drops one, and the last free destroys the StorageImpl (whose DataPtr
// then hands the memory back to its allocator, or unmaps the file).
void THStorage_retain(THStorage* storage) {
  if (storage) {
    c10::raw::intrusive_ptr::incref(storage);
  }
}

void THStorage_free(THStorage* storage) {
  if (!storage) {
    return;
  }
  c10::raw::intrusive_ptr::decref(storage);
}
// [end marker: THStorage_retain_free]

// Allocate the new size, copy what fits, free the old memory.
void THStorage_resizeBytes(THStorage* storage, ptrdiff_t size_bytes) {
  THArgCheck(size_bytes >= 0, 2, "negative size ", size_bytes);
  if (!storage->resizable()) {
    THError("Trying to resize storage that is not resizable");
  }
  c10::DataPtr new_data;
  if (size_bytes != 0) {
    new_data = storage->allocator()->allocate(static_cast<size_t>(size_bytes));
  }
  c10::DataPtr old_data = storage->set_data_ptr(std::move(new_data));
  const size_t old_capacity = storage->nbytes();
  storage->set_nbytes(static_cast<size_t>(size_bytes));
  const size_t copy_capacity = std::min(old_capacity, static_cast<size_t>(size_bytes));
  if (old_data.get() != nullptr && copy_capacity > 0) {
    std::memcpy(storage->mutable_data(), old_data.get(), copy_capacity);
  }
}
