// torch/csrc/api/include/torch/nn/modules/linear.h - nn::Linear: y = x W^T + b.
// Mirrors PyTorch's torch/csrc/api/include/torch/nn/modules/linear.h. Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/options/linear.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

#include <c10/macros/Export.h>

#include <cstdint>
#include <ostream>

namespace torch::nn {

// The module's state is its options and its two parameters; the class is LinearImpl and
// the name users write, Linear, is its holder (TORCH_MODULE below).
class TORCH_API LinearImpl : public Module {
 public:
  LinearImpl(int64_t in_features, int64_t out_features) : LinearImpl(LinearOptions(in_features, out_features)) {}
  explicit LinearImpl(const LinearOptions& options_);

  // (Re)creates and registers weight and bias, then initializes them.
  void reset();
  // PyTorch's default init: weight and bias uniform in +-1/sqrt(in_features).
  void reset_parameters();

  void pretty_print(std::ostream& stream) const override;

  // input: (*, in_features) -> (*, out_features).
  Tensor forward(const Tensor& input);

  // The options with which this module was constructed.
  LinearOptions options;
  // The learned weight, (out_features, in_features).
  Tensor weight;
  // The learned bias, (out_features); undefined when options.bias() is false.
  Tensor bias;
};

TORCH_MODULE(Linear);

}  // namespace torch::nn
