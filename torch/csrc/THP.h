// torch/csrc/THP.h - the names the legacy storage bindings use for "the TH function of this
// element type". Mirrors torch/csrc/THP.h of PyTorch 1.x (removed in 2.0).
// Guide: docs/source/internals/finding_thstorage.rst.
#pragma once

#include <TH/TH.h>

// [marker: THWStorage]
// THW = "TH, wrapped": in a CUDA build of PyTorch 1.x the same binding code was compiled
// again with THWStorage_(NAME) meaning THCStorage_(NAME). Here it is always the CPU one.
#define THWStorage THStorage
#define THWStorage_(NAME) THStorage_(NAME)
// [end marker: THWStorage]

// THPStorage_(pynew) is THPFloatStorage_pynew while Real is Float. (PyTorch 1.x called the
// per-type object struct THPStorage as well; here THPStorage is the untyped storage's
// struct, torch/csrc/Storage.h, so the per-type one is THPTypedStorage.)
#define THPStorage_(NAME) TH_CONCAT_4(THP, Real, Storage_, NAME)
#define THPTypedStorage TH_CONCAT_3(THP, Real, Storage)
#define THPStorageBaseStr TH_CONCAT_STRING_2(Real, StorageBase)
#define THPStorageStr TH_CONCAT_STRING_3(torch., Real, Storage)
