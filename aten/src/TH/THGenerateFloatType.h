// aten/src/TH/THGenerateFloatType.h - includes TH_GENERIC_FILE once with scalar_t = float.
// PyTorch deleted TH in 1.11; this mirrors its aten/src/TH/THGenerateFloatType.h.
// Guide: docs/source/internals/macro_generic.rst.
#ifndef TH_GENERIC_FILE
#error "You must define TH_GENERIC_FILE before including THGenerateFloatType.h"
#endif

// scalar_t: the element type; Real: the word pasted into names (THFloatStorage_get);
// accreal: the type sums accumulate in; TH_REAL_IS_FLOAT: for the few places a generic file
// must treat one type specially.
#define scalar_t float
#define accreal double
#define Real Float
#define TH_REAL_IS_FLOAT
#line 1 TH_GENERIC_FILE
#include TH_GENERIC_FILE
#undef scalar_t
#undef accreal
#undef Real
#undef TH_REAL_IS_FLOAT

// Within THGenerateAllTypes.h the file is included again for the next type, so only the
// outermost generator forgets it.
#ifndef THGenerateManyTypes
#undef TH_GENERIC_FILE
#endif
