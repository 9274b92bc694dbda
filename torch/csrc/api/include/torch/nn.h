// torch/csrc/api/include/torch/nn.h - torch::nn for C++: Module, the modules (Linear, Conv2d,
// Functional, Sequential), their options, and nn::functional. Mirrors PyTorch's torch/csrc/api/include/torch/nn.h.
// Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/nn/functional.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/container/functional.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/options/conv.h>
#include <torch/nn/options/linear.h>
#include <torch/nn/pimpl.h>
