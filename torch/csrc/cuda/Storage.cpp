// torch/csrc/cuda/Storage.cpp - torch._C.CudaFloatStorageBase, CudaDoubleStorageBase, ...: the
// legacy CUDA storages, from the same generic file as the CPU ones, over THC's functions.
// Mirrors torch/csrc/cuda/Storage.cpp (+ the THCState of torch/csrc/cuda/Module.cpp) of
// PyTorch 1.x. Compiled with USE_CUDA only. Guide: docs/source/internals/th_storage.rst (THC).
//
// torch/cuda/__init__.py subclasses each base as torch.cuda.FloatStorage ....
#include <torch/csrc/Device.h>
#include <torch/csrc/Dtype.h>
#include <torch/csrc/Storage.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/cuda/Module.h>
#include <torch/csrc/utils/device_lazy_init.h>
#include <torch/csrc/utils/python_strings.h>

#include <c10/util/intrusive_ptr.h>

#include <type_traits>
#include <vector>

using torch::THPUtils_typename;

// [marker: cuda_legacy_storages]
#include <TH/TH.h>
#include <THC/THC.h>
#include <torch/csrc/THP.h>

// The CPU classes first, under their CPU names: a CUDA storage's copy_ takes CPU sources
// (THPDoubleStorage), and adds CUDA -> CPU copies to the CPU types' lists.
#include <torch/csrc/generic/Storage.h>
#include <TH/THGenerateAllTypes.h>

#include <torch/csrc/generic/Storage.h>
#include <TH/THGenerateHalfType.h>

#include <torch/csrc/generic/Storage.h>
#include <TH/THGenerateBoolType.h>

// From here THWStorage_(NAME) is THCStorage_(NAME), LIBRARY_STATE is `state,`, and the
// structs and classes are THCPFloatStorage, torch._C.CudaFloatStorageBase ....
#include <torch/csrc/cuda/override_macros.h>

// THC's generators: Byte, Char, Short, Int, Long, Half, Float, Double ("all types" include
// Half in THC), then Bool. Every struct is declared before any binding names it.
#define THC_GENERIC_FILE "torch/csrc/generic/Storage.h"
#include <THC/THCGenerateAllTypes.h>

#define THC_GENERIC_FILE "torch/csrc/generic/Storage.h"
#include <THC/THCGenerateBoolType.h>

#define THC_GENERIC_FILE "torch/csrc/generic/Storage.cpp"
#include <THC/THCGenerateAllTypes.h>

#define THC_GENERIC_FILE "torch/csrc/generic/Storage.cpp"
#include <THC/THCGenerateBoolType.h>
// [end marker: cuda_legacy_storages]

// One THCState for the process, as PyTorch 1.x kept in torch/csrc/cuda/Module.cpp.
THCState* state = nullptr;

namespace torch::cuda {

void initStorageBindings(pybind11::module_& m) {
  // Allocating the state touches no GPU: importing torch must work without one.
  // THCStorage_(newWithSize) runs THCudaInit(state) at the first CUDA storage.
  if (state == nullptr) {
    state = THCState_alloc();
  }
  THCPByteStorage_initBindings(m);
  THCPCharStorage_initBindings(m);
  THCPShortStorage_initBindings(m);
  THCPIntStorage_initBindings(m);
  THCPLongStorage_initBindings(m);
  THCPFloatStorage_initBindings(m);
  THCPDoubleStorage_initBindings(m);
  THCPHalfStorage_initBindings(m);
  THCPBoolStorage_initBindings(m);
}

}  // namespace torch::cuda
