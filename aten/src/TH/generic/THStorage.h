// aten/src/TH/generic/THStorage.h - declarations of THStorage_(NAME), included once per type.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/generic/THStorage.h of PyTorch 1.10.
// Guide: docs/source/internals/finding_thstorage.rst.
//
// The first inclusion only names this file (TH_GENERIC_FILE); THGenerate*Type.h then
// includes it again with scalar_t and Real defined, which takes the #else branch.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THStorage.h"
#else

#include <c10/core/StorageImpl.h>

// [marker: define_THStorage]
// There is no THStorage struct any more: since PyTorch 1.0 a TH storage is c10's
// StorageImpl, and the per-type names are aliases of the one type.
#define THStorage at::StorageImpl
// [end marker: define_THStorage]
#define THByteStorage THStorage
#define THCharStorage THStorage
#define THShortStorage THStorage
#define THIntStorage THStorage
#define THLongStorage THStorage
#define THFloatStorage THStorage
#define THDoubleStorage THStorage
#define THHalfStorage THStorage
#define THBoolStorage THStorage

// [marker: THStorage_decls]
TH_API scalar_t* THStorage_(data)(const THStorage*);
TH_API ptrdiff_t THStorage_(size)(const THStorage*);
TH_API size_t THStorage_(elementSize)(void);

TH_API void THStorage_(set)(THStorage*, ptrdiff_t, scalar_t);
TH_API scalar_t THStorage_(get)(const THStorage*, ptrdiff_t);

TH_API THStorage* THStorage_(new)(void);
TH_API THStorage* THStorage_(newWithSize)(ptrdiff_t size);
TH_API THStorage* THStorage_(newWithAllocator)(ptrdiff_t size, c10::Allocator* allocator);
TH_API THStorage* THStorage_(newWithMapping)(const char* filename, ptrdiff_t size, int flags);
// [end marker: THStorage_decls]
TH_API THStorage* THStorage_(newWithDataAndAllocator)(c10::DataPtr&& data, ptrdiff_t size,
                                                      c10::Allocator* allocator);

TH_API void THStorage_(retain)(THStorage* storage);
TH_API void THStorage_(free)(THStorage* storage);
TH_API void THStorage_(resize)(THStorage* storage, ptrdiff_t size);
TH_API void THStorage_(fill)(THStorage* storage, scalar_t value);

#endif
