// aten/src/THC/THCStorage.cpp - compiles generic/THCStorage.cpp once per element type.
// PyTorch deleted THC in 1.11; this mirrors aten/src/THC/THCStorage.cpp of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
#include <THC/THCStorage.h>

#include <c10/util/intrusive_ptr.h>

#include <THC/generic/THCStorage.cpp>
#include <THC/THCGenerateAllTypes.h>

#include <THC/generic/THCStorage.cpp>
#include <THC/THCGenerateBoolType.h>
