// aten/src/ATen/native/layer_norm.cpp - layer_norm and native_layer_norm (forward and backward).
// Mirrors PyTorch's aten/src/ATen/native/layer_norm.cpp (layer_norm_cpu_out,
// _check_layer_norm_inputs) and cpu/layer_norm_kernel.cpp. Guide: docs/source/internals/python_layer.rst.
//
// The last len(normalized_shape) dims form one group of N values; the input is M such
// groups. Each group is normalized by its own mean and biased variance, then scaled by
// weight and shifted by bias (both of normalized_shape). native_layer_norm also returns mean
// and rstd = 1 / sqrt(var + eps), shaped like the input with the normalized dims set to 1.
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/TensorOperators.h>

#include <sstream>
#include <tuple>
#include <vector>

namespace at::native {

namespace {

// [marker: check_layer_norm_inputs]
// Returns (M, N): the number of groups and the size of each.
std::pair<int64_t, int64_t> check_layer_norm_inputs(const Tensor& input, IntArrayRef normalized_shape,
                                                    const Tensor& weight, const Tensor& bias) {
  const int64_t k = static_cast<int64_t>(normalized_shape.size());
  TORCH_CHECK(k >= 1, "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = ",
              normalized_shape);
  TORCH_CHECK(!weight.defined() || weight.sizes() == normalized_shape,
              "Expected weight to be of same shape as normalized_shape, but got weight of shape ",
              weight.sizes(), " and normalized_shape = ", normalized_shape);
  TORCH_CHECK(!bias.defined() || bias.sizes() == normalized_shape,
              "Expected bias to be of same shape as normalized_shape, but got bias of shape ", bias.sizes(),
              " and normalized_shape = ", normalized_shape);
  const int64_t ndim = input.dim();
  bool ok = ndim >= k;
  for (int64_t i = 0; ok && i < k; i++) ok = input.size(ndim - k + i) == normalized_shape[i];
  if (!ok) {
    std::ostringstream ss;
    ss << "Given normalized_shape=" << normalized_shape << ", expected input with shape [*";
    for (auto s : normalized_shape) ss << ", " << s;
    ss << "], but got input of size" << input.sizes();
    TORCH_CHECK(false, ss.str());
  }
  int64_t m = 1, n = 1;
  for (int64_t i = 0; i < ndim - k; i++) m *= input.size(i);
  for (int64_t i = ndim - k; i < ndim; i++) n *= input.size(i);
  return {m, n};
}
// [end marker: check_layer_norm_inputs]

Tensor value_or_undefined(const std::optional<Tensor>& t) { return t.has_value() ? *t : Tensor(); }

// input's shape with the normalized dims set to 1 (the shape of mean and rstd).
std::vector<int64_t> stat_shape(const Tensor& input, IntArrayRef normalized_shape) {
  std::vector<int64_t> shape = input.sizes().vec();
  for (size_t i = 0; i < normalized_shape.size(); i++) shape[shape.size() - 1 - i] = 1;
  return shape;
}

}  // namespace

Tensor layer_norm_symint(const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight,
                         const std::optional<Tensor>& bias, double eps, bool cudnn_enable) {
  return std::get<0>(at::native_layer_norm(input, normalized_shape, weight, bias, eps));
}

// [marker: layer_norm_cpu]
std::tuple<Tensor, Tensor, Tensor> layer_norm_cpu(const Tensor& input, IntArrayRef normalized_shape,
                                                  const std::optional<Tensor>& weight_opt,
                                                  const std::optional<Tensor>& bias_opt, double eps) {
  const Tensor weight = value_or_undefined(weight_opt), bias = value_or_undefined(bias_opt);
  const auto [m, n] = check_layer_norm_inputs(input, normalized_shape, weight, bias);
  const Tensor x = input.reshape({m, n});
  const Tensor mean = x.mean(IntArrayRef{1}, /*keepdim=*/true);
  const Tensor rstd = ((x - mean).pow(2).mean(IntArrayRef{1}, /*keepdim=*/true) + eps).rsqrt();
  Tensor output = ((x - mean) * rstd).reshape(input.sizes());
  if (weight.defined()) output = output * weight;
  if (bias.defined()) output = output + bias;
  const auto shape = stat_shape(input, normalized_shape);
  return std::make_tuple(output, mean.reshape(shape), rstd.reshape(shape));
}
// [end marker: layer_norm_cpu]

// [marker: layer_norm_backward_cpu]
// With xhat = (x - mean) * rstd and g = grad_out * weight, per group of N values:
//   grad_input = rstd / N * (N * g - sum(g) - xhat * sum(g * xhat))
//   grad_weight = sum over the groups of grad_out * xhat,  grad_bias = sum over the groups of grad_out
std::tuple<Tensor, Tensor, Tensor> layer_norm_backward_cpu(const Tensor& grad_out, const Tensor& input,
                                                           IntArrayRef normalized_shape, const Tensor& mean,
                                                           const Tensor& rstd, const std::optional<Tensor>& weight_opt,
                                                           const std::optional<Tensor>& bias_opt,
                                                           std::array<bool, 3> output_mask) {
  const Tensor weight = value_or_undefined(weight_opt), bias = value_or_undefined(bias_opt);
  const auto [m, n] = check_layer_norm_inputs(input, normalized_shape, weight, bias);
  const Tensor x = input.reshape({m, n});
  const Tensor go = grad_out.reshape({m, n});
  const Tensor mu = mean.reshape({m, 1}), rs = rstd.reshape({m, 1});
  const Tensor xhat = (x - mu) * rs;
  Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) {
    const Tensor g = weight.defined() ? go * weight.reshape({1, n}) : go;
    const Tensor sum_g = g.sum(IntArrayRef{1}, true), sum_g_xhat = (g * xhat).sum(IntArrayRef{1}, true);
    grad_input = ((g - sum_g / n - xhat * (sum_g_xhat / n)) * rs).reshape(input.sizes());
  }
  if (output_mask[1] && weight.defined()) {
    grad_weight = (go * xhat).sum(IntArrayRef{0}).reshape(weight.sizes());
  }
  if (output_mask[2] && bias.defined()) {
    grad_bias = go.sum(IntArrayRef{0}).reshape(bias.sizes());
  }
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}
// [end marker: layer_norm_backward_cpu]

}  // namespace at::native
