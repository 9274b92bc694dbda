// aten/src/THC/THCGenerateAllTypes.h - includes THC_GENERIC_FILE once per type: Byte, Char,
// Short, Int, Long, Half, Float, Double.
// PyTorch deleted THC in 1.11; this mirrors its aten/src/THC/THCGenerateAllTypes.h.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
//
// The same mechanism as TH's THGenerateAllTypes.h (docs: macro_generic.rst), with two
// legacy differences: THC's "all types" include Half (GPUs compute in half precision), and
// the per-type headers are included directly, with one guard, THCGenerateAllTypes, that
// keeps THC_GENERIC_FILE defined until the last one. Bool is separate
// (THCGenerateBoolType.h), as in TH.
#ifndef THC_GENERIC_FILE
#error "You must define THC_GENERIC_FILE before including THCGenerateAllTypes.h"
#endif

#define THCGenerateAllTypes

#include <THC/THCGenerateByteType.h>
#include <THC/THCGenerateCharType.h>
#include <THC/THCGenerateShortType.h>
#include <THC/THCGenerateIntType.h>
#include <THC/THCGenerateLongType.h>
#include <THC/THCGenerateHalfType.h>
#include <THC/THCGenerateFloatType.h>
#include <THC/THCGenerateDoubleType.h>

#undef THCGenerateAllTypes
#undef THC_GENERIC_FILE
