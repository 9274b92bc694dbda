// aten/src/THC/THCGeneral.h - the legacy THC layer's basics: export macro, THCState, errors.
// PyTorch deleted THC in 1.11; this mirrors aten/src/THC/THCGeneral.h.in of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
//
// THC is TH for CUDA ("Torch CUDA"): the same C-style functions made once per element type
// by the same macros (TH_CONCAT_*, from TH/THGeneral.h), over storages whose memory is on
// a GPU. It is built only with USE_CUDA, into libtorch_cuda.so (aten/CMakeLists.txt).
#pragma once

#include <TH/THGeneral.h>

#include <c10/cuda/CUDAException.h>

// libtorch_cuda.so's exports, with C linkage as in TH: THCudaStorage_copyByte is a plain
// symbol. (PyTorch defines TORCH_CUDA_CU_API in c10/macros/Export.h; aten/CMakeLists.txt
// defines TORCH_CUDA_CU_BUILD_MAIN_LIB while compiling the library.)
#ifndef TORCH_CUDA_CU_API
#ifdef TORCH_CUDA_CU_BUILD_MAIN_LIB
#define TORCH_CUDA_CU_API C10_EXPORT
#else
#define TORCH_CUDA_CU_API C10_IMPORT
#endif
#endif
#define THC_API TH_EXTERNC TORCH_CUDA_CU_API

// Every THC function takes a THCState* first: in Lua Torch it held everything CUDA Torch
// knew about the process (devices, streams, cuBLAS handles, the allocator). PyTorch moved
// those into c10/cuda (CUDAStream, CUDACachingAllocator) and the state shrank to almost
// nothing before THC was deleted; here it keeps only the device count THCudaInit found.
struct THCState {
  int numDevices;
};

THC_API THCState* THCState_alloc(void);
THC_API void THCState_free(THCState* state);
// Initialise CUDA for `state`, as torch.cuda._lazy_init() does: without a usable GPU this
// raises c10::Error with PyTorch's reason ("Found no NVIDIA driver on your system ...",
// "No CUDA GPUs are available"); otherwise it sets up the caching allocator of each device.
// Once it has succeeded, calling it again does nothing.
THC_API void THCudaInit(THCState* state);
THC_API int THCState_getNumDevices(THCState* state);

// Legacy THC checked each runtime call with THCudaCheck; it is c10's check now (a failed
// call throws c10::CUDAError, a c10::Error: RuntimeError in Python).
#define THCudaCheck(err) C10_CUDA_CHECK(err)
