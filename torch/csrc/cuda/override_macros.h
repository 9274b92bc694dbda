// torch/csrc/cuda/override_macros.h - gives the binding macros their CUDA meanings, so that
// torch/csrc/generic/Storage.cpp, written once, compiles into torch.cuda.FloatStorage too.
// Mirrors torch/csrc/cuda/override_macros.h (+ undef_macros.h) of PyTorch 1.x.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
//
// Include it after the CPU declarations a file needs (the CPU struct THPFloatStorage is still
// named by the CUDA instance's copy_): from here on the THW and THP names mean CUDA.
#include <torch/csrc/cuda/THCP.h>

#undef THWStorage
#undef THWStorage_
#undef THPStorage_
#undef THPTypedStorage
#undef THPStorageBaseStr
#undef THPStorageStr
#undef LIBRARY_STATE
#undef LIBRARY_STATE_NOARGS
#undef TH_GENERIC_FILE

// [marker: override_macros]
#define THWStorage THCStorage
#define THWStorage_(NAME) THCStorage_(NAME)

#define THPStorage_(NAME) THCPStorage_(NAME)
#define THPTypedStorage THCPTypedStorage
#define THPStorageBaseStr THCPStorageBaseStr
#define THPStorageStr THCPStorageStr

#define LIBRARY_STATE state,
#define LIBRARY_STATE_NOARGS state

// The generic files test TH_GENERIC_FILE to tell their first inclusion (which only names the
// file) from the generated ones; THC's generators define THC_GENERIC_FILE instead.
#define TH_GENERIC_FILE THC_GENERIC_FILE
// [end marker: override_macros]
