// aten/src/TH/THGenerateAllTypes.h - includes TH_GENERIC_FILE once per numeric type:
// Byte, Char, Short, Int, Long (THGenerateIntTypes.h), Float, Double (THGenerateFloatTypes.h).
// PyTorch deleted TH in 1.11; this mirrors its aten/src/TH/THGenerateAllTypes.h.
// Guide: docs/source/internals/macro_generic.rst.
//
// Half and Bool are not "all types" (legacy TH had no arithmetic for them): files that
// want them include THGenerateHalfType.h and THGenerateBoolType.h as well.
#ifndef TH_GENERIC_FILE
#error "You must define TH_GENERIC_FILE before including THGenerateAllTypes.h"
#endif

#ifndef THGenerateManyTypes
#define THAllGenerateManyTypes
#define THGenerateManyTypes
#endif

#include <TH/THGenerateFloatTypes.h>
#include <TH/THGenerateIntTypes.h>

#ifdef THAllGenerateManyTypes
#undef THAllGenerateManyTypes
#undef THGenerateManyTypes
#undef TH_GENERIC_FILE
#endif
