// torch/csrc/cuda/Module.h - the CUDA part of torch._C (built with USE_CUDA only).
// Mirrors PyTorch's torch/csrc/cuda/Module.h. Guide: docs/source/internals/c10_cuda.rst.
#pragma once

#include <pybind11/pybind11.h>

namespace torch::cuda {

// torch._C._cuda_* functions: devices, the caching allocator, the current stream.
void initModule(pybind11::module_& m);
// torch._C._CudaStreamBase (torch/csrc/cuda/Stream.cpp), base of torch.cuda.Stream.
void initStreamBindings(pybind11::module_& m);
// torch._C._CudaEventBase (torch/csrc/cuda/Event.cpp), base of torch.cuda.Event.
void initEventBindings(pybind11::module_& m);
// torch._C.CudaFloatStorageBase ... (torch/csrc/cuda/Storage.cpp), bases of the legacy
// torch.cuda.FloatStorage ...; also adds the CUDA -> CPU copies to torch.FloatStorage.copy_.
void initStorageBindings(pybind11::module_& m);

// torch.cuda._lazy_init(): raises PyTorch's error when there is no GPU; called before
// anything that needs the runtime (PyTorch's torch::utils::device_lazy_init(at::kCUDA)).
void lazy_init();

}  // namespace torch::cuda
