// aten/src/TH/THGenerateIntTypes.h - includes TH_GENERIC_FILE for the five integer types.
// PyTorch deleted TH in 1.11; this mirrors its aten/src/TH/THGenerateIntTypes.h.
// Guide: docs/source/internals/macro_generic.rst.
#ifndef TH_GENERIC_FILE
#error "You must define TH_GENERIC_FILE before including THGenerateIntTypes.h"
#endif

#ifndef THGenerateManyTypes
#define THIntGenerateManyTypes
#define THGenerateManyTypes
#endif

#include <TH/THGenerateByteType.h>
#include <TH/THGenerateCharType.h>
#include <TH/THGenerateShortType.h>
#include <TH/THGenerateIntType.h>
#include <TH/THGenerateLongType.h>

#ifdef THIntGenerateManyTypes
#undef THIntGenerateManyTypes
#undef THGenerateManyTypes
#undef TH_GENERIC_FILE
#endif
