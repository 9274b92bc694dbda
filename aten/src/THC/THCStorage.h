// aten/src/THC/THCStorage.h - the THCStorage_(NAME) functions, once per element type.
// PyTorch deleted THC in 1.11; this mirrors aten/src/THC/THCStorage.h of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
//
// Seed 000: "if using cuda, the declaration of #define THWStorage_(NAME) THCStorage_(NAME)
// lie in THC/generic/THCStorage.h and THC/generic/THCStorageCopy.h".
#pragma once

#include <THC/THCGeneral.h>
// THC's generic files use the CPU functions too (THStorage_(NAME): buffers, conversions).
#include <TH/THStorageFunctions.h>

// Included before any generic file: inside one, scalar_t is a macro (see THStorageFunctions.h).
#include <c10/core/StorageImpl.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

// [marker: THCStorage_]
// THCStorage_(newWithSize) is THCudaStorage_newWithSize while CReal is Cuda (float),
// THCudaDoubleStorage_newWithSize while it is CudaDouble.
#define THCStorage_(NAME) TH_CONCAT_4(TH, CReal, Storage_, NAME)
// [end marker: THCStorage_]

#include <THC/generic/THCStorage.h>
#include <THC/THCGenerateAllTypes.h>

#include <THC/generic/THCStorage.h>
#include <THC/THCGenerateBoolType.h>

// Not typed: a storage's bytes, wherever they are (PyTorch 1.10 declared it in THCStorage.hpp).
// TH's THStorage_resizeBytes copies the old bytes with memcpy, which the CPU cannot do on
// device addresses; this one copies them on the GPU.
THC_API void THCStorage_resizeBytes(THCState* state, THCStorage* storage, ptrdiff_t size_bytes);
