// aten/src/TH/generic/THTensorMath.h - a few legacy math functions, per element type.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/generic/THTensorMath.h of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "TH/generic/THTensorMath.h"
#else

TH_API void THTensor_(fill)(THTensor* r_, scalar_t value);
TH_API void THTensor_(zero)(THTensor* r_);
// The sum of every element, accumulated in accreal (double for float, int64_t for int).
TH_API accreal THTensor_(sumall)(THTensor* t);

#endif
