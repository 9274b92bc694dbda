// torch/csrc/api/include/torch/extension.h - the one include of a C++ extension (the write-ups'
// LLTM starts with it): the C++ API, the dispatcher's TORCH_LIBRARY, and pybind11 with the
// casters that make at::Tensor a torch.Tensor in Python.
// Mirrors PyTorch's torch/csrc/api/include/torch/extension.h. Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/all.h>
#include <torch/library.h>
#include <torch/python.h>
