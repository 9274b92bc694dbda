// aten/src/THC/THCGeneral.cpp - THCState and CUDA initialisation.
// PyTorch deleted THC in 1.11; this mirrors aten/src/THC/THCGeneral.cpp of PyTorch 1.10.
// Guide: docs/source/internals/th_storage.rst (THC: storages on the GPU).
#include <THC/THCGeneral.h>

#include <c10/cuda/CUDAAllocator.h>
#include <c10/cuda/CUDAFunctions.h>

THCState* THCState_alloc(void) {
  return new THCState{/*numDevices=*/0};
}

void THCState_free(THCState* state) {
  delete state;
}

// [marker: THCudaInit]
void THCudaInit(THCState* state) {
  THArgCheck(state != nullptr, 1, "THCState is NULL");
  if (state->numDevices > 0) {
    return;
  }
  // What initialising CUDA does in PyTorch (torch._C._cuda_init, CUDAHooks::init): raise why
  // no GPU can be used, rather than failing later at the first cudaMalloc with a bare
  // runtime error.
  const int count = c10::cuda::device_count_ensure_non_zero();
  c10::cuda::CUDACachingAllocator::init(count);
  state->numDevices = count;
}
// [end marker: THCudaInit]

int THCState_getNumDevices(THCState* state) {
  THArgCheck(state != nullptr, 1, "THCState is NULL");
  return state->numDevices;
}
