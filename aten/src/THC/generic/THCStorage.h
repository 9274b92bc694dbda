// aten/src/THC/generic/THCStorage.h - declarations of THCStorage_(NAME), included once per type.
// PyTorch deleted THC in 1.11; this mirrors aten/src/THC/generic/THCStorage.h of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
#ifndef THC_GENERIC_FILE
#define THC_GENERIC_FILE "THC/generic/THCStorage.h"
#else

// A CUDA storage is the same at::StorageImpl as a CPU one; only its DataPtr differs (device
// memory from the CUDA caching allocator, DeviceType::CUDA).
#define THCStorage THStorage
#define THCudaByteStorage THCStorage
#define THCudaCharStorage THCStorage
#define THCudaShortStorage THCStorage
#define THCudaIntStorage THCStorage
#define THCudaLongStorage THCStorage
#define THCudaHalfStorage THCStorage
#define THCudaStorage THCStorage
#define THCudaDoubleStorage THCStorage
// Float's storage is THCudaStorage; this spelling is for macros that paste THCuda##TYPE##Storage.
#define THCudaFloatStorage THCStorage
#define THCudaBoolStorage THCStorage

THC_API scalar_t* THCStorage_(data)(THCState* state, const THCStorage*);
THC_API ptrdiff_t THCStorage_(size)(THCState* state, const THCStorage*);
THC_API int THCStorage_(elementSize)(THCState* state);

// One element, copied to or from the GPU (slow: a synchronised copy each).
THC_API void THCStorage_(set)(THCState* state, THCStorage*, ptrdiff_t, scalar_t);
THC_API scalar_t THCStorage_(get)(THCState* state, const THCStorage*, ptrdiff_t);

THC_API THCStorage* THCStorage_(new)(THCState* state);
THC_API THCStorage* THCStorage_(newWithSize)(THCState* state, ptrdiff_t size);
THC_API THCStorage* THCStorage_(newWithAllocator)(THCState* state, ptrdiff_t size, c10::Allocator* allocator);

// A storage over memory someone else allocated (a view of another storage: the DataPtr's
// context keeps that one alive). With no allocator it cannot be resized.
THC_API THCStorage* THCStorage_(newWithDataAndAllocator)(THCState* state, c10::DataPtr&& data, ptrdiff_t size,
                                                         c10::Allocator* allocator);

THC_API void THCStorage_(retain)(THCState* state, THCStorage* storage);
THC_API void THCStorage_(free)(THCState* state, THCStorage* storage);
// `size` elements on the storage's GPU, keeping those that fit (THCStorage_resizeBytes).
THC_API void THCStorage_(resize)(THCState* state, THCStorage* storage, ptrdiff_t size);
THC_API void THCStorage_(fill)(THCState* state, THCStorage* storage, scalar_t value);
// The index of the GPU the memory is on.
THC_API int THCStorage_(getDevice)(THCState* state, const THCStorage* storage);

#endif
