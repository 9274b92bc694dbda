// torch/csrc/api/include/torch/torch.h - <torch/torch.h>, what a C++ program written against
// libtorch includes. Mirrors PyTorch's torch/csrc/api/include/torch/torch.h.
// Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/all.h>
