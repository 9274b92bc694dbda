// aten/src/THC/generic/THCStorageCopy.h - copies to, from and between CUDA storages,
// converting element types. Included once per type.
// PyTorch deleted THC in 1.11; this mirrors aten/src/THC/generic/THCStorageCopy.h of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
//
// In every instance the destination has the instance's type (Real) and the name says the
// source, as in TH's THStorage_(copyByte). While Real is Float:
//   THCudaStorage_copyByte       CPU Byte   -> CUDA Float
//   THCudaStorage_copyCudaByte   CUDA Byte  -> CUDA Float
//   THFloatStorage_copyCudaByte  CUDA Byte  -> CPU Float
// (Legacy THC declared the CUDA -> CPU family from the source side instead, with
// TH_CONCAT_2(THByteStorage_copyCuda, Real) in each instance; the 81 symbols are the same.)
#ifndef THC_GENERIC_FILE
#define THC_GENERIC_FILE "THC/generic/THCStorageCopy.h"
#else

// The same type on both sides: bytes are copied, nothing is converted.
THC_API void THCStorage_(copyCPU)(THCState* state, THCStorage* self, THStorage* src);    // CPU  -> CUDA
THC_API void THStorage_(copyCuda)(THCState* state, THStorage* self, THCStorage* src);    // CUDA -> CPU
THC_API void THCStorage_(copyCuda)(THCState* state, THCStorage* self, THCStorage* src);  // CUDA -> CUDA
THC_API void THCStorage_(copy)(THCState* state, THCStorage* self, THCStorage* src);      // CUDA -> CUDA

/* Support for copy between different Storage types */
THC_API void THCStorage_(copyByte)(THCState* state, THCStorage* self, THByteStorage* src);
THC_API void THCStorage_(copyChar)(THCState* state, THCStorage* self, THCharStorage* src);
THC_API void THCStorage_(copyShort)(THCState* state, THCStorage* self, THShortStorage* src);
THC_API void THCStorage_(copyInt)(THCState* state, THCStorage* self, THIntStorage* src);
THC_API void THCStorage_(copyLong)(THCState* state, THCStorage* self, THLongStorage* src);
THC_API void THCStorage_(copyFloat)(THCState* state, THCStorage* self, THFloatStorage* src);
THC_API void THCStorage_(copyDouble)(THCState* state, THCStorage* self, THDoubleStorage* src);
THC_API void THCStorage_(copyHalf)(THCState* state, THCStorage* self, THHalfStorage* src);
THC_API void THCStorage_(copyBool)(THCState* state, THCStorage* self, THBoolStorage* src);

THC_API void THCStorage_(copyCudaByte)(THCState* state, THCStorage* self, THCudaByteStorage* src);
THC_API void THCStorage_(copyCudaChar)(THCState* state, THCStorage* self, THCudaCharStorage* src);
THC_API void THCStorage_(copyCudaShort)(THCState* state, THCStorage* self, THCudaShortStorage* src);
THC_API void THCStorage_(copyCudaInt)(THCState* state, THCStorage* self, THCudaIntStorage* src);
THC_API void THCStorage_(copyCudaLong)(THCState* state, THCStorage* self, THCudaLongStorage* src);
THC_API void THCStorage_(copyCudaFloat)(THCState* state, THCStorage* self, THCudaStorage* src);
THC_API void THCStorage_(copyCudaDouble)(THCState* state, THCStorage* self, THCudaDoubleStorage* src);
THC_API void THCStorage_(copyCudaHalf)(THCState* state, THCStorage* self, THCudaHalfStorage* src);
THC_API void THCStorage_(copyCudaBool)(THCState* state, THCStorage* self, THCudaBoolStorage* src);

THC_API void THStorage_(copyCudaByte)(THCState* state, THStorage* self, THCudaByteStorage* src);
THC_API void THStorage_(copyCudaChar)(THCState* state, THStorage* self, THCudaCharStorage* src);
THC_API void THStorage_(copyCudaShort)(THCState* state, THStorage* self, THCudaShortStorage* src);
THC_API void THStorage_(copyCudaInt)(THCState* state, THStorage* self, THCudaIntStorage* src);
THC_API void THStorage_(copyCudaLong)(THCState* state, THStorage* self, THCudaLongStorage* src);
THC_API void THStorage_(copyCudaFloat)(THCState* state, THStorage* self, THCudaStorage* src);
THC_API void THStorage_(copyCudaDouble)(THCState* state, THStorage* self, THCudaDoubleStorage* src);
THC_API void THStorage_(copyCudaHalf)(THCState* state, THStorage* self, THCudaHalfStorage* src);
THC_API void THStorage_(copyCudaBool)(THCState* state, THStorage* self, THCudaBoolStorage* src);

#endif
