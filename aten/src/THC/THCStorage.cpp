// aten/src/THC/THCStorage.cpp - compiles generic/THCStorage.cpp once per element type, plus the
// untyped THCStorage_resizeBytes.
// PyTorch deleted THC in 1.11; this mirrors aten/src/THC/THCStorage.cpp of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
#include <THC/THCStorage.h>
// fill goes through a host buffer and THCStorage_(copyCPU).
#include <THC/THCStorageCopy.h>

#include <c10/util/intrusive_ptr.h>

#include <algorithm>

#include <THC/generic/THCStorage.cpp>
#include <THC/THCGenerateAllTypes.h>

#include <THC/generic/THCStorage.cpp>
#include <THC/THCGenerateBoolType.h>

// [marker: THCStorage_resizeBytes]
// New memory from the storage's allocator on the storage's GPU, the bytes that fit copied
// device to device, the old memory given back. PyTorch 1.10 allocated on the current device
// instead, so resizing could move a storage to another GPU; the guard keeps it where it is.
void THCStorage_resizeBytes(THCState* state, THCStorage* self, ptrdiff_t size_bytes) {
  THArgCheck(size_bytes >= 0, 2, "negative size ", size_bytes);
  if (!self->resizable()) {
    THError("Trying to resize storage that is not resizable");
  }
  c10::cuda::CUDAGuard guard(self->device());
  // Even 0 bytes come from the allocator: its empty DataPtr still says which GPU (a default
  // DataPtr would say CPU, and the storage would stop being a CUDA one).
  c10::DataPtr new_data = self->allocator()->allocate(static_cast<size_t>(size_bytes));
  const size_t copy_bytes = std::min(self->nbytes(), static_cast<size_t>(size_bytes));
  if (copy_bytes > 0) {
    c10::cuda::memcpy_and_sync(new_data.get(), self->data(), static_cast<int64_t>(copy_bytes),
                               cudaMemcpyDeviceToDevice, c10::cuda::getCurrentCUDAStream().stream());
  }
  // The old DataPtr dies here, after the copy finished: its block goes back to the cache.
  self->set_data_ptr(std::move(new_data));
  self->set_nbytes(static_cast<size_t>(size_bytes));
}
// [end marker: THCStorage_resizeBytes]
