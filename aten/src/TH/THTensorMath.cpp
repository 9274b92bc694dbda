// aten/src/TH/THTensorMath.cpp - compiles generic/THTensorMath.cpp once per numeric type.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/THTensorMath.cpp of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst.
#include <TH/THTensor.h>

#include <vector>

#include <TH/generic/THTensorMath.cpp>
#include <TH/THGenerateAllTypes.h>
