// torch/csrc/api/include/torch/optim.h - torch::optim for C++: the Optimizer base, SGD and Adam.
// Mirrors PyTorch's torch/csrc/api/include/torch/optim.h. Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/optim/adam.h>
#include <torch/optim/optimizer.h>
#include <torch/optim/sgd.h>
