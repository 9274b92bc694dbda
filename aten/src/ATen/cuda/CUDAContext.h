// aten/src/ATen/cuda/CUDAContext.h - what ATen's CUDA code asks of "the current CUDA context":
// the current stream, the device's properties. Mirrors PyTorch's aten/src/ATen/cuda/CUDAContext.h
// (CUDAContextLight.h). Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <ATen/cuda/Exceptions.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <cuda_runtime_api.h>

namespace at::cuda {

using c10::cuda::CUDAStream;
using c10::cuda::getCurrentCUDAStream;
using c10::cuda::getDefaultCUDAStream;

// cudaGetDeviceProperties, asked once per device and kept (the answer never changes).
TORCH_API cudaDeviceProp* getDeviceProperties(c10::DeviceIndex device);
TORCH_API cudaDeviceProp* getCurrentDeviceProperties();

}  // namespace at::cuda
