// aten/src/THC/THCStorageCopy.cpp - compiles generic/THCStorageCopy.cpp once per element type.
// PyTorch deleted THC in 1.11; this mirrors aten/src/THC/THCStorageCopy.cpp of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
#include <THC/THCStorageCopy.h>

#include <c10/util/intrusive_ptr.h>

#include <THC/generic/THCStorageCopy.cpp>
#include <THC/THCGenerateAllTypes.h>

#include <THC/generic/THCStorageCopy.cpp>
#include <THC/THCGenerateBoolType.h>
