// aten/src/TH/generic/THTensor.h - THTensor_(NAME): the legacy view, per element type.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/generic/THTensor.h of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THTensor.h"
#else

TH_API THStorage* THTensor_(storage)(const THTensor* self);
TH_API ptrdiff_t THTensor_(storageOffset)(const THTensor* self);
TH_API int THTensor_(nDimension)(const THTensor* self);
TH_API int64_t THTensor_(size)(const THTensor* self, int dim);
TH_API int64_t THTensor_(stride)(const THTensor* self, int dim);
TH_API scalar_t* THTensor_(data)(const THTensor* self);

// A new 1-D tensor viewing `size0` elements of `storage` from `storageOffset`, `stride0`
// apart; it takes its own reference to the storage.
TH_API THTensor* THTensor_(newWithStorage1d)(THStorage* storage, ptrdiff_t storageOffset, int64_t size0,
                                             int64_t stride0);

#endif
