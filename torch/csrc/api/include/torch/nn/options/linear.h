// torch/csrc/api/include/torch/nn/options/linear.h - LinearOptions(in, out).bias(false), the
// arguments of nn::Linear. Mirrors PyTorch's torch/csrc/api/include/torch/nn/options/linear.h.
// Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/arg.h>

#include <c10/macros/Export.h>

#include <cstdint>

namespace torch::nn {

// Options are a struct with chained setters rather than constructor arguments: C++ has no
// keyword arguments, and Linear(LinearOptions(2, 3).bias(false)) reads like nn.Linear(2, 3, bias=False).
struct TORCH_API LinearOptions {
  LinearOptions(int64_t in_features, int64_t out_features) : in_features_(in_features), out_features_(out_features) {}
  // size of each input sample
  TORCH_ARG(int64_t, in_features);
  // size of each output sample
  TORCH_ARG(int64_t, out_features);
  // whether to learn an additive bias
  TORCH_ARG(bool, bias) = true;
};

}  // namespace torch::nn
