// aten/src/TH/generic/THTensor.cpp - THTensor_(NAME), compiled once per element type.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/generic/THTensor.cpp of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THTensor.cpp"
#else

THStorage* THTensor_(storage)(const THTensor* self) {
  return THTensor_getStoragePtr(self);
}

ptrdiff_t THTensor_(storageOffset)(const THTensor* self) {
  return self->storage_offset();
}

int THTensor_(nDimension)(const THTensor* self) {
  return THTensor_nDimension(self);
}

int64_t THTensor_(size)(const THTensor* self, int dim) {
  THArgCheck((dim >= 0) && (dim < self->dim()), 2, "dimension ", dim, " out of range of ", self->dim(), "D tensor");
  return self->sizes()[dim];
}

int64_t THTensor_(stride)(const THTensor* self, int dim) {
  THArgCheck((dim >= 0) && (dim < self->dim()), 2, "dimension ", dim, " out of range of ", self->dim(), "D tensor");
  return self->strides()[dim];
}

// The first element: the storage's data plus storageOffset elements.
scalar_t* THTensor_(data)(const THTensor* self) {
  return THStorage_(data)(THTensor_getStoragePtr(self)) + self->storage_offset();
}

// [marker: newWithStorage1d]
THTensor* THTensor_(newWithStorage1d)(THStorage* storage, ptrdiff_t storageOffset, int64_t size0, int64_t stride0) {
  THStorage_retain(storage);  // the new tensor's own reference
  auto impl = c10::make_intrusive<at::TensorImpl>(c10::Storage(c10::intrusive_ptr<at::StorageImpl>::reclaim(storage)),
                                                  c10::DispatchKeySet(c10::DispatchKey::CPU),
                                                  caffe2::TypeMeta::Make<scalar_t>());
  const int64_t sizes[] = {size0};
  const int64_t strides[] = {stride0};
  impl->set_sizes_and_strides(sizes, strides);
  impl->set_storage_offset(storageOffset);
  return impl.release();
}
// [end marker: newWithStorage1d]

#endif
