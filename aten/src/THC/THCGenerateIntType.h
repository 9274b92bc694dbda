// aten/src/THC/THCGenerateIntType.h - includes THC_GENERIC_FILE once with scalar_t = int32_t.
// PyTorch deleted THC in 1.11; this mirrors its aten/src/THC/THCGenerateIntType.h.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
#ifndef THC_GENERIC_FILE
#error "You must define THC_GENERIC_FILE before including THCGenerateIntType.h"
#endif

// As TH's generators, plus CReal, the word pasted into CUDA names (THCudaIntStorage_get):
// inside a THC generic file THStorage_(NAME) names the CPU storage of the same type and
// THCStorage_(NAME) the CUDA one.
#define scalar_t int32_t
#define accreal int64_t
#define Real Int
#define CReal CudaInt
#define THC_REAL_IS_INT
#line 1 THC_GENERIC_FILE
#include THC_GENERIC_FILE
#undef scalar_t
#undef accreal
#undef Real
#undef CReal
#undef THC_REAL_IS_INT

// Within THCGenerateAllTypes.h the file is included again for the next type, so only the
// outermost generator forgets it.
#ifndef THCGenerateAllTypes
#undef THC_GENERIC_FILE
#endif
