// aten/src/TH/THTensor.h - THTensor, the legacy view of a tensor: sizes, strides, a
// storage and an offset into it. PyTorch deleted TH in 1.11; this mirrors
// aten/src/TH/THTensor.h and THTensor.hpp of PyTorch 1.10. Guide: docs/source/internals/th_storage.rst.
//
// Seed 000, "Data Access": THTensor was a struct of size, stride, nDimension, storage,
// storageOffset, refcount. Since PyTorch 1.0 it is c10's TensorImpl, which holds the same
// fields (sizes_and_strides_, storage_, storage_offset_) and is refcounted the same way.
#pragma once

#include <TH/THStorageFunctions.h>

#include <c10/core/TensorImpl.h>

// [marker: define_THTensor]
#define THTensor at::TensorImpl
#define THTensor_(NAME) TH_CONCAT_4(TH, Real, Tensor_, NAME)
// [end marker: define_THTensor]

#define THByteTensor THTensor
#define THCharTensor THTensor
#define THShortTensor THTensor
#define THIntTensor THTensor
#define THLongTensor THTensor
#define THFloatTensor THTensor
#define THDoubleTensor THTensor
#define THHalfTensor THTensor
#define THBoolTensor THTensor

// The type-independent accessors (THTensor.hpp in PyTorch 1.10).
// [marker: THTensor_legacy_view]
inline int THTensor_nDimension(const THTensor* self) {
  return static_cast<int>(self->dim());
}
inline int64_t THTensor_sizeLegacyNoScalars(const THTensor* self, int dim) {
  return self->dim() == 0 ? 1 : self->sizes()[dim];
}
inline int64_t THTensor_strideLegacyNoScalars(const THTensor* self, int dim) {
  return self->dim() == 0 ? 1 : self->strides()[dim];
}
// Borrowed: the tensor keeps its reference to the storage.
inline THStorage* THTensor_getStoragePtr(const THTensor* self) {
  return self->storage().unsafeGetStorageImpl();
}
// [end marker: THTensor_legacy_view]

TH_API void THTensor_free(THTensor* self);

#include <TH/generic/THTensor.h>
#include <TH/THGenerateAllTypes.h>

#include <TH/generic/THTensor.h>
#include <TH/THGenerateHalfType.h>

#include <TH/generic/THTensor.h>
#include <TH/THGenerateBoolType.h>

// Math only for the numeric types, as legacy TH had it.

#include <TH/generic/THTensorMath.h>
#include <TH/THGenerateAllTypes.h>
