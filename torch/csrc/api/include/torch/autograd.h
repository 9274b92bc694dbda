// torch/csrc/api/include/torch/autograd.h - the autograd engine seen from C++: backward(),
// grad(), and custom functions with a C++ backward (torch::autograd::Function<T>).
// Mirrors PyTorch's torch/csrc/api/include/torch/autograd.h. Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/custom_function.h>
