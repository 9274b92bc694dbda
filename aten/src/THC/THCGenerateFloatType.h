// aten/src/THC/THCGenerateFloatType.h - includes THC_GENERIC_FILE once with scalar_t = float.
// PyTorch deleted THC in 1.11; this mirrors its aten/src/THC/THCGenerateFloatType.h.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
#ifndef THC_GENERIC_FILE
#error "You must define THC_GENERIC_FILE before including THCGenerateFloatType.h"
#endif

// As TH's generators, plus CReal, the word pasted into CUDA names (THCudaStorage_get):
// inside a THC generic file THStorage_(NAME) names the CPU storage of the same type and
// THCStorage_(NAME) the CUDA one.
// CReal is Cuda, not CudaFloat: float was CUDA Torch's first and default type, so its
// storage is THCudaStorage (THCudaStorage_copyByte), the others THCudaDoubleStorage ....
// accreal is float, not double as in TH: double arithmetic is slow on most GPUs.
#define scalar_t float
#define accreal float
#define Real Float
#define CReal Cuda
#define THC_REAL_IS_FLOAT
#line 1 THC_GENERIC_FILE
#include THC_GENERIC_FILE
#undef scalar_t
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_FLOAT

// Within THCGenerateAllTypes.h the file is included again for the next type, so only the
// outermost generator forgets it.
#ifndef THCGenerateAllTypes
#undef THC_GENERIC_FILE
#endif
