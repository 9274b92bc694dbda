// torch/csrc/cuda/THCP.h - what the CUDA instance of the legacy storage bindings needs: THC,
// the CPU names (torch/csrc/THP.h), the THCP names and the process's THCState.
// Mirrors torch/csrc/cuda/THCP.h (+ the name macros of torch/csrc/cuda/Storage.h) of PyTorch 1.x.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
#pragma once

#include <TH/TH.h>
#include <THC/THC.h>
#include <torch/csrc/THP.h>

// THCPStorage_(pynew) is THCPFloatStorage_pynew while Real is Float; the C++ base class is
// torch._C.CudaFloatStorageBase and the Python class torch.cuda.FloatStorage.
#define THCPStorage_(NAME) TH_CONCAT_4(THCP, Real, Storage_, NAME)
#define THCPTypedStorage TH_CONCAT_3(THCP, Real, Storage)
#define THCPStorageBaseStr TH_CONCAT_STRING_3(Cuda, Real, StorageBase)
#define THCPStorageStr TH_CONCAT_STRING_3(torch.cuda., Real, Storage)

// The THCState* every THC call takes (LIBRARY_STATE): one per process, made when torch._C
// loads (torch/csrc/cuda/Storage.cpp). Making it touches no GPU; THCudaInit fills it in
// when the first CUDA storage is made.
extern THCState* state;
