// torch/csrc/THP.h - the names the legacy storage bindings use for "the TH function of this
// element type". Mirrors torch/csrc/THP.h of PyTorch 1.x (removed in 2.0).
// Guide: docs/source/internals/finding_thstorage.rst.
#pragma once

#include <TH/TH.h>

// [marker: THWStorage]
// THW = "TH, wrapped": the binding code calls THWStorage_(NAME), which is THStorage_(NAME)
// here. torch/csrc/cuda/Storage.cpp compiles the same code again with
// torch/csrc/cuda/override_macros.h, where it is THCStorage_(NAME), as PyTorch 1.x did.
#define THWStorage THStorage
#define THWStorage_(NAME) THStorage_(NAME)
// [end marker: THWStorage]

// [marker: LIBRARY_STATE]
// Every THC function takes the THCState* first, no TH function does. The binding code writes
// THWStorage_(size)(LIBRARY_STATE self.cdata): on the CPU the macro is nothing, in the CUDA
// instance it is `state,` (torch/csrc/cuda/override_macros.h).
#define LIBRARY_STATE
#define LIBRARY_STATE_NOARGS
// [end marker: LIBRARY_STATE]

// THPStorage_(pynew) is THPFloatStorage_pynew while Real is Float. (PyTorch 1.x called the
// per-type object struct THPStorage as well; here THPStorage is the untyped storage's
// struct, torch/csrc/Storage.h, so the per-type one is THPTypedStorage.)
#define THPStorage_(NAME) TH_CONCAT_4(THP, Real, Storage_, NAME)
#define THPTypedStorage TH_CONCAT_3(THP, Real, Storage)
#define THPStorageBaseStr TH_CONCAT_STRING_2(Real, StorageBase)
#define THPStorageStr TH_CONCAT_STRING_3(torch., Real, Storage)
