// aten/src/TH/THGenerateFloatTypes.h - includes TH_GENERIC_FILE for float and double.
// PyTorch deleted TH in 1.11; this mirrors its aten/src/TH/THGenerateFloatTypes.h.
// Guide: docs/source/internals/macro_generic.rst.
#ifndef TH_GENERIC_FILE
#error "You must define TH_GENERIC_FILE before including THGenerateFloatTypes.h"
#endif

// THGenerateManyTypes keeps TH_GENERIC_FILE defined between the per-type headers; the
// generator that defined it first undefines it at the end.
#ifndef THGenerateManyTypes
#define THFloatGenerateManyTypes
#define THGenerateManyTypes
#endif

#include <TH/THGenerateFloatType.h>
#include <TH/THGenerateDoubleType.h>

#ifdef THFloatGenerateManyTypes
#undef THFloatGenerateManyTypes
#undef THGenerateManyTypes
#undef TH_GENERIC_FILE
#endif
