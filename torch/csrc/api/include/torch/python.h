// torch/csrc/api/include/torch/python.h - what crosses the Python boundary in an extension: the
// pybind11 casters for tensors, scalars, sizes, devices and dtypes.
// Mirrors PyTorch's torch/csrc/api/include/torch/python.h. Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/csrc/utils/pybind.h>
#include <torch/types.h>
