// torch/csrc/api/include/torch/all.h - the whole C++ API in one include (<torch/all.h>), without
// the Python bindings: what a TORCH_LIBRARY-only extension or a C++ program includes.
// Mirrors PyTorch's torch/csrc/api/include/torch/all.h. Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/autograd.h>
#include <torch/cuda.h>
#include <torch/nn.h>
#include <torch/optim.h>
#include <torch/types.h>
#include <torch/utils.h>
