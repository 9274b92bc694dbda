// aten/src/THC/THC.h - the legacy THC library (TH for CUDA) in one include.
// PyTorch deleted THC in 1.11; this mirrors aten/src/THC/THC.h of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
// Built only with USE_CUDA, into libtorch_cuda.so.
#pragma once

#include <THC/THCGeneral.h>

#include <THC/THCStorage.h>
#include <THC/THCStorageCopy.h>
