// aten/src/TH/generic/THStorageCopy.h - THStorage_(copy<Type>): copy from a storage of
// another element type, converting each element. Included once per type.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/generic/THStorageCopy.h of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THStorageCopy.h"
#else

/* Support for copy between different Storage types */
TH_API void THStorage_(rawCopy)(THStorage* storage, scalar_t* src);
TH_API void THStorage_(copy)(THStorage* storage, THStorage* src);
TH_API void THStorage_(copyByte)(THStorage* storage, THByteStorage* src);
TH_API void THStorage_(copyChar)(THStorage* storage, THCharStorage* src);
TH_API void THStorage_(copyShort)(THStorage* storage, THShortStorage* src);
TH_API void THStorage_(copyInt)(THStorage* storage, THIntStorage* src);
TH_API void THStorage_(copyLong)(THStorage* storage, THLongStorage* src);
TH_API void THStorage_(copyFloat)(THStorage* storage, THFloatStorage* src);
TH_API void THStorage_(copyDouble)(THStorage* storage, THDoubleStorage* src);
TH_API void THStorage_(copyHalf)(THStorage* storage, THHalfStorage* src);
TH_API void THStorage_(copyBool)(THStorage* storage, THBoolStorage* src);

#endif
