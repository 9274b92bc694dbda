// aten/src/ATen/cuda/CUDAEvent.h - at::cuda::CUDAEvent, where ATen's CUDA code and the write-ups
// have long found it. The class itself lives in c10/cuda/CUDAEvent.h, next to CUDAStream, as in
// PyTorch since the event pool of the caching allocators moved to c10; this header keeps the
// ATen name. Mirrors PyTorch's aten/src/ATen/cuda/CUDAEvent.h.
// Guide: docs/source/internals/c10_cuda.rst.
#pragma once

#include <c10/cuda/CUDAEvent.h>

namespace at::cuda {
using c10::cuda::CUDAEvent;
}  // namespace at::cuda
