// aten/src/THC/THCStorageCopy.h - copies between CPU and CUDA storages of any element types.
// PyTorch deleted THC in 1.11; this mirrors aten/src/THC/THCStorageCopy.h of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
#pragma once

#include <THC/THCStorage.h>

// Declared after every type's THCStorage functions, as TH does with its copies: the Float
// instance calls the Double instance's functions.
#include <THC/generic/THCStorageCopy.h>
#include <THC/THCGenerateAllTypes.h>

#include <THC/generic/THCStorageCopy.h>
#include <THC/THCGenerateBoolType.h>
