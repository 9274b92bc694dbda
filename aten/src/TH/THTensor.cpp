// aten/src/TH/THTensor.cpp - compiles generic/THTensor.cpp once per element type.
// PyTorch deleted TH in 1.11; this mirrors aten/src/TH/THTensor.cpp of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst.
#include <TH/THTensor.h>

#include <c10/util/intrusive_ptr.h>

#include <TH/generic/THTensor.cpp>
#include <TH/THGenerateAllTypes.h>

#include <TH/generic/THTensor.cpp>
#include <TH/THGenerateHalfType.h>

#include <TH/generic/THTensor.cpp>
#include <TH/THGenerateBoolType.h>

void THTensor_free(THTensor* self) {
  if (self) {
    c10::raw::intrusive_ptr::decref(self);
  }
}
