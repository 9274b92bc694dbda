// torch/csrc/api/include/torch/nn/modules/conv.h - nn::Conv2d: a 2-d cross-correlation with
// learned kernels, over at::conv2d. Mirrors PyTorch's torch/csrc/api/include/torch/nn/modules/conv.h.
// Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/expanding_array.h>
#include <torch/nn/module.h>
#include <torch/nn/options/conv.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

#include <c10/macros/Export.h>

#include <cstdint>
#include <ostream>

namespace torch::nn {

// PyTorch shares weight creation and init among Conv1d/2d/3d in ConvNdImpl<D>; this tree
// has only the 2-d module, so Conv2dImpl holds it all.
class TORCH_API Conv2dImpl : public Module {
 public:
  Conv2dImpl(int64_t input_channels, int64_t output_channels, ExpandingArray<2> kernel_size)
      : Conv2dImpl(Conv2dOptions(input_channels, output_channels, kernel_size)) {}
  explicit Conv2dImpl(Conv2dOptions options_);

  void reset();
  // PyTorch's default init: uniform in +-1/sqrt(fan_in), fan_in = in_channels/groups * kH * kW.
  void reset_parameters();

  void pretty_print(std::ostream& stream) const override;

  // input: (N, C_in, H, W) or (C_in, H, W) -> (N, C_out, H_out, W_out).
  Tensor forward(const Tensor& input);

  Conv2dOptions options;
  // (out_channels, in_channels / groups, kH, kW)
  Tensor weight;
  // (out_channels); undefined when options.bias() is false.
  Tensor bias;
};

TORCH_MODULE(Conv2d);

}  // namespace torch::nn
