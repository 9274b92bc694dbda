// aten/src/ATen/native/ConvUtils.h - what Convolution.cpp and ConvolutionMM2d.cpp share.
// Mirrors PyTorch's aten/src/ATen/native/ConvUtils.h. Guide: docs/source/internals/python_layer.rst.
#pragma once

#include <ATen/core/Tensor.h>

#include <array>
#include <tuple>

namespace at::native {

// The im2col + GEMM convolution of a 4-d input (N, C_in, H, W) with a weight
// (C_out, C_in / groups, kH, kW); every parameter has two entries (height, width).
Tensor slow_conv2d_forward(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                           IntArrayRef padding, IntArrayRef dilation, int64_t groups);

// Its gradients with respect to input, weight and bias (those output_mask asks for).
std::tuple<Tensor, Tensor, Tensor> slow_conv2d_backward(const Tensor& grad_output, const Tensor& input,
                                                        const Tensor& weight, IntArrayRef stride, IntArrayRef padding,
                                                        IntArrayRef dilation, int64_t groups,
                                                        std::array<bool, 3> output_mask);

}  // namespace at::native
