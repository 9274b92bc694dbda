// aten/src/ATen/cuda/Exceptions.h - AT_CUDA_CHECK: a CUDA runtime call that must succeed.
// Mirrors PyTorch's aten/src/ATen/cuda/Exceptions.h. Guide: docs/source/internals/c10_cuda.rst.
#pragma once

#include <c10/cuda/CUDAException.h>

// ATen's name for C10_CUDA_CHECK: a failing call raises c10::Error with CUDA's words.
#define AT_CUDA_CHECK(EXPR) C10_CUDA_CHECK(EXPR)
