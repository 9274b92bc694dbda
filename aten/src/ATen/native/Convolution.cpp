// aten/src/ATen/native/Convolution.cpp - conv1d, conv2d and the convolution they reach.
// Mirrors PyTorch's aten/src/ATen/native/Convolution.cpp (conv2d, _convolution_mode,
// check_shape_forward, convolution, convolution_backward). Guide: docs/source/internals/python_layer.rst.
//
// conv1d / conv2d are composite: they check the input's rank, turn padding="same"/"valid"
// into numbers and call at::convolution, the one operator autograd records
// (ConvolutionBackward0). convolution checks the shapes with PyTorch's messages and runs the
// im2col + GEMM kernel of ConvolutionMM2d.cpp; a 1-d convolution is a 2-d one over a height
// of 1. Its derivative, convolution_backward, is the same three matrix products backwards.
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/native/ConvUtils.h>

#include <sstream>
#include <string>
#include <vector>

namespace at::native {

namespace {

// int[2] stride=1 reaches C++ as {1}: one value for every spatial dimension (PyTorch's
// expand_param_if_needed).
std::vector<int64_t> expand_param_if_needed(IntArrayRef p, const char* name, int64_t expected) {
  if (p.size() == 1) return std::vector<int64_t>(expected, p[0]);
  TORCH_CHECK(static_cast<int64_t>(p.size()) == expected, "expected ", name, " to be a single integer value or a list of ",
              expected, " values to match the convolution dimensions, but got ", name, "=", p);
  return p.vec();
}

void check_shape_forward(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef padding,
                         IntArrayRef dilation, int64_t groups) {
  const int64_t k = input.dim();
  TORCH_CHECK(weight.dim() == k, "Expected ", weight.dim(), "-dimensional input for ", weight.dim(),
              "-dimensional weight ", weight.sizes(), ", but got ", k, "-dimensional input of size ",
              input.sizes(), " instead");
  TORCH_CHECK(groups > 0, "non-positive groups is not supported");
  TORCH_CHECK(weight.size(0) % groups == 0, "Given groups=", groups, ", expected weight to be divisible by ", groups,
              " at dimension 0, but got weight of size [", weight.sizes(), "] instead");
  TORCH_CHECK(input.size(1) == weight.size(1) * groups, "Given groups=", groups, ", weight of size ",
              weight.sizes(), ", expected input", input.sizes(), " to have ",
              weight.size(1) * groups, " channels, but got ", input.size(1), " channels instead");
  TORCH_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == weight.size(0)), "Given weight of size ",
              weight.sizes(), ", expected bias to be 1-dimensional with ", weight.size(0),
              " elements, but got bias of size ", (bias.defined() ? bias.sizes() : IntArrayRef{}), " instead");
  std::vector<int64_t> padded, kernel;
  bool too_big = false;
  for (int64_t i = 2; i < k; i++) {
    padded.push_back(input.size(i) + 2 * padding[i - 2]);
    kernel.push_back(dilation[i - 2] * (weight.size(i) - 1) + 1);
    too_big = too_big || padded.back() < kernel.back();
  }
  if (too_big) {
    std::ostringstream p, q;
    for (size_t i = 0; i < padded.size(); i++) {
      p << (i ? " x " : "") << padded[i];
      q << (i ? " x " : "") << kernel[i];
    }
    TORCH_CHECK(false, "Calculated padded input size per channel: (", p.str(), "). Kernel size: (", q.str(),
                "). Kernel size can't be greater than actual input size");
  }
}

// A 1-d problem (N, C, L) as a 2-d one (N, C, 1, L); the parameters gain a leading
// height entry (stride 1, padding 0, dilation 1).
std::vector<int64_t> with_height(const std::vector<int64_t>& p, int64_t h) { return {h, p[0]}; }

// Unbatched (C, H, W) or (C, L) inputs run as a batch of one (PyTorch's batchify).
Tensor convNd(const char* name, int64_t spatial, const Tensor& input, const Tensor& weight,
              const std::optional<Tensor>& bias, IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
              int64_t groups) {
  TORCH_CHECK(input.dim() == spatial + 1 || input.dim() == spatial + 2, "Expected ", spatial + 1, "D (unbatched) or ",
              spatial + 2, "D (batched) input to ", name, ", but got input of size: ", input.sizes());
  const bool batched = input.dim() == spatial + 2;
  Tensor out = at::convolution(batched ? input : input.unsqueeze(0), weight, bias, stride, padding, dilation,
                               /*transposed=*/false, /*output_padding=*/{0}, groups);
  return batched ? out : out.squeeze(0);
}

// padding="valid" is no padding; "same" pads so the output keeps the input's size (stride 1
// only). An odd total padding puts the extra zero at the end (PyTorch's _convolution_mode).
Tensor convNd_padding(const char* name, int64_t spatial, const Tensor& input, const Tensor& weight,
                      const std::optional<Tensor>& bias, IntArrayRef stride, c10::string_view padding,
                      IntArrayRef dilation, int64_t groups) {
  if (padding == "valid") {
    return convNd(name, spatial, input, weight, bias, stride, {0}, dilation, groups);
  }
  TORCH_CHECK(padding == "same", "Invalid padding string: '", std::string(padding), "'");
  auto s = expand_param_if_needed(stride, "stride", spatial);
  auto d = expand_param_if_needed(dilation, "dilation", spatial);
  for (auto v : s) TORCH_CHECK(v == 1, "padding='same' is not supported for strided convolutions");
  Tensor in = input;
  std::vector<int64_t> pad(spatial);
  for (int64_t i = 0; i < spatial; i++) {
    const int64_t total = d[i] * (weight.size(weight.dim() - spatial + i) - 1);
    pad[i] = total / 2;
    if (total % 2) {  // one more zero after the input along this dimension
      const int64_t dim = in.dim() - spatial + i;
      std::vector<int64_t> zshape = in.sizes().vec();
      zshape[dim] = 1;
      in = at::cat({in, at::zeros(zshape, in.scalar_type(), std::nullopt, in.device(), std::nullopt)}, dim);
    }
  }
  return convNd(name, spatial, in, weight, bias, stride, pad, dilation, groups);
}

}  // namespace

Tensor conv1d_symint(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
                     IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return convNd("conv1d", 1, input, weight, bias, stride, padding, dilation, groups);
}

Tensor conv2d_symint(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
                     IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return convNd("conv2d", 2, input, weight, bias, stride, padding, dilation, groups);
}

Tensor conv1d_padding_symint(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                             IntArrayRef stride, c10::string_view padding, IntArrayRef dilation, int64_t groups) {
  return convNd_padding("conv1d", 1, input, weight, bias, stride, padding, dilation, groups);
}

Tensor conv2d_padding_symint(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                             IntArrayRef stride, c10::string_view padding, IntArrayRef dilation, int64_t groups) {
  return convNd_padding("conv2d", 2, input, weight, bias, stride, padding, dilation, groups);
}

Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias_opt,
                   IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                   IntArrayRef output_padding, int64_t groups) {
  TORCH_CHECK(!transposed, "convolution: transposed convolution (conv_transpose2d) is not implemented in this tree");
  TORCH_CHECK(input.dim() == 3 || input.dim() == 4, "convolution: expected a 3-d or 4-d input, but got input of size: ",
              input.sizes());
  const Tensor bias = bias_opt.has_value() ? *bias_opt : Tensor();
  const int64_t spatial = input.dim() - 2;
  auto s = expand_param_if_needed(stride, "stride", spatial);
  auto p = expand_param_if_needed(padding, "padding", spatial);
  auto d = expand_param_if_needed(dilation, "dilation", spatial);
  for (auto v : s) TORCH_CHECK(v > 0, "non-positive stride is not supported");
  for (auto v : p) TORCH_CHECK(v >= 0, "negative padding is not supported");
  for (auto v : d) TORCH_CHECK(v > 0, "dilation should be greater than zero");
  check_shape_forward(input, weight, bias, p, d, groups);
  if (spatial == 1) {
    return slow_conv2d_forward(input.unsqueeze(2), weight.unsqueeze(2), bias, with_height(s, 1), with_height(p, 0),
                               with_height(d, 1), groups)
        .squeeze(2);
  }
  return slow_conv2d_forward(input, weight, bias, s, p, d, groups);
}

std::tuple<Tensor, Tensor, Tensor> convolution_backward(const Tensor& grad_output, const Tensor& input,
                                                        const Tensor& weight, OptionalIntArrayRef bias_sizes,
                                                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                                        bool transposed, IntArrayRef output_padding, int64_t groups,
                                                        std::array<bool, 3> output_mask) {
  TORCH_CHECK(!transposed, "convolution_backward: transposed convolution is not implemented in this tree");
  const int64_t spatial = input.dim() - 2;
  auto s = expand_param_if_needed(stride, "stride", spatial);
  auto p = expand_param_if_needed(padding, "padding", spatial);
  auto d = expand_param_if_needed(dilation, "dilation", spatial);
  output_mask[2] = output_mask[2] && bias_sizes.has_value();
  if (spatial == 1) {
    auto [gi, gw, gb] = slow_conv2d_backward(grad_output.unsqueeze(2), input.unsqueeze(2), weight.unsqueeze(2),
                                             with_height(s, 1), with_height(p, 0), with_height(d, 1), groups,
                                             output_mask);
    return std::make_tuple(gi.defined() ? gi.squeeze(2) : gi, gw.defined() ? gw.squeeze(2) : gw, gb);
  }
  return slow_conv2d_backward(grad_output, input, weight, s, p, d, groups, output_mask);
}

}  // namespace at::native
