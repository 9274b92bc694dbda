// torch/csrc/api/include/torch/nn/options/conv.h - ConvOptions<D> and Conv2dOptions(in, out,
// kernel).stride(1).padding(1), the arguments of nn::Conv2d. Mirrors PyTorch's torch/csrc/api/include/torch/nn/options/conv.h.
// Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/arg.h>
#include <torch/expanding_array.h>

#include <cstddef>
#include <cstdint>

namespace torch::nn {

// One template for every spatial rank, as in PyTorch: the sizes are ExpandingArray<D>, so
// kernel_size(3) is {3, 3} for a 2-d convolution and a wrong count fails at once.
// (PyTorch also has padding modes and "same"/"valid" padding; only zero padding here.)
template <size_t D>
struct ConvOptions {
  ConvOptions(int64_t in_channels, int64_t out_channels, ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels), kernel_size_(std::move(kernel_size)) {}

  // The number of channels the input has.
  TORCH_ARG(int64_t, in_channels);
  // The number of output channels the convolution produces.
  TORCH_ARG(int64_t, out_channels);
  // The kernel size: one number for a square kernel, or D numbers.
  TORCH_ARG(ExpandingArray<D>, kernel_size);
  // The step of the kernel over the input.
  TORCH_ARG(ExpandingArray<D>, stride) = 1;
  // The zeros added on both sides of each spatial dimension.
  TORCH_ARG(ExpandingArray<D>, padding) = 0;
  // The spacing between kernel elements (a-trous convolution).
  TORCH_ARG(ExpandingArray<D>, dilation) = 1;
  // Splits the channels into groups convolved separately; in and out channels must divide by it.
  TORCH_ARG(int64_t, groups) = 1;
  // Whether to learn an additive bias per output channel.
  TORCH_ARG(bool, bias) = true;
};

using Conv1dOptions = ConvOptions<1>;
using Conv2dOptions = ConvOptions<2>;
using Conv3dOptions = ConvOptions<3>;

}  // namespace torch::nn
