// aten/src/ATen/native/ConvolutionMM2d.cpp - convolution as im2col + one matrix product (GEMM).
// Mirrors PyTorch's aten/src/ATen/native/ConvolutionMM2d.cpp (slow_conv2d_forward / _backward).
// Guide: docs/source/internals/python_layer.rst.
//
// With columns = im2col(input), shape (N, C_in*kH*kW, L) where L = outH*outW, and the weight
// seen as a matrix (C_out, C_in*kH*kW), the convolution is
//     output[n] = weight @ columns[n] + bias          (N, C_out, L), then viewed (N, C_out, outH, outW)
// and its gradients are three more products:
//     grad_columns[n] = weight^T @ grad_output[n]     -> col2im -> grad_input
//     grad_weight     = sum_n grad_output[n] @ columns[n]^T
//     grad_bias       = grad_output summed over n and every position
// With groups > 1 the channels split into `groups` independent convolutions: the matrices
// gain a group dimension and the products are batched (matmul over (N, groups, ...)).
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/native/ConvUtils.h>

namespace at::native {

// [marker: slow_conv2d_forward]
Tensor slow_conv2d_forward(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                           IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const int64_t n = input.size(0), c_out = weight.size(0);
  const int64_t kh = weight.size(2), kw = weight.size(3);
  Tensor columns = at::im2col(input, {kh, kw}, dilation, padding, stride);  // (N, C_in*kH*kW, L)
  const int64_t out_h = (input.size(2) + 2 * padding[0] - dilation[0] * (kh - 1) - 1) / stride[0] + 1;
  const int64_t out_w = (input.size(3) + 2 * padding[1] - dilation[1] * (kw - 1) - 1) / stride[1] + 1;
  const int64_t L = columns.size(2);
  // (1, g, C_out/g, K) @ (N, g, K, L) -> (N, g, C_out/g, L), K = C_in/g * kH * kW
  Tensor w = weight.reshape({1, groups, c_out / groups, -1});
  Tensor cols = columns.view({n, groups, -1, L});
  Tensor output = at::matmul(w, cols).reshape({n, c_out, out_h, out_w});
  if (bias.defined()) {
    output.add_(bias.reshape({1, c_out, 1, 1}));
  }
  return output;
}
// [end marker: slow_conv2d_forward]

// [marker: slow_conv2d_backward]
std::tuple<Tensor, Tensor, Tensor> slow_conv2d_backward(const Tensor& grad_output, const Tensor& input,
                                                        const Tensor& weight, IntArrayRef stride, IntArrayRef padding,
                                                        IntArrayRef dilation, int64_t groups,
                                                        std::array<bool, 3> output_mask) {
  const int64_t n = input.size(0), c_out = weight.size(0);
  const int64_t kh = weight.size(2), kw = weight.size(3);
  const int64_t L = grad_output.size(2) * grad_output.size(3);
  Tensor go = grad_output.reshape({n, groups, c_out / groups, L});  // (N, g, C_out/g, L)
  Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) {
    // (1, g, K, C_out/g) @ (N, g, C_out/g, L) -> (N, g, K, L) -> col2im
    Tensor wt = weight.reshape({1, groups, c_out / groups, -1}).transpose(-1, -2);
    Tensor grad_columns = at::matmul(wt, go).reshape({n, -1, L});
    grad_input = at::col2im(grad_columns, {input.size(2), input.size(3)}, {kh, kw}, dilation, padding, stride);
  }
  if (output_mask[1]) {
    // sum over n of (N, g, C_out/g, L) @ (N, g, L, K) -> (g, C_out/g, K)
    Tensor columns = at::im2col(input, {kh, kw}, dilation, padding, stride).view({n, groups, -1, L});
    grad_weight = at::matmul(go, columns.transpose(-1, -2)).sum(IntArrayRef{0}).reshape(weight.sizes());
  }
  if (output_mask[2]) {
    grad_bias = grad_output.sum(IntArrayRef{0, 2, 3});
  }
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}
// [end marker: slow_conv2d_backward]

}  // namespace at::native
