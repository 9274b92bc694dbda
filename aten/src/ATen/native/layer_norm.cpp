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
#include <ATen/native/layer_norm.h>

#include <sstream>
#include <tuple>
#include <vector>

namespace at::native {

DEFINE_DISPATCH(LayerNormKernel);
DEFINE_DISPATCH(LayerNormBackwardKernel);

namespace {

Tensor value_or_undefined(const std::optional<Tensor>& t) { return t.has_value() ? *t : Tensor(); }

// float and double with parameters of the same dtype run the fused kernels
// (cpu/layer_norm_kernel.cpp); other dtypes keep the formulas below, written with tensor
// operations.
bool use_kernel(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  const auto dtype = input.scalar_type();
  return (dtype == kFloat || dtype == kDouble) && (!weight.defined() || weight.scalar_type() == dtype) &&
         (!bias.defined() || bias.scalar_type() == dtype);
}

}  // namespace

Tensor layer_norm_symint(const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight,
                         const std::optional<Tensor>& bias, double eps, bool cudnn_enable) {
  return std::get<0>(at::native_layer_norm(input, normalized_shape, weight, bias, eps));
}

std::tuple<Tensor, Tensor, Tensor> layer_norm_cpu(const Tensor& input, IntArrayRef normalized_shape,
                                                  const std::optional<Tensor>& weight_opt,
                                                  const std::optional<Tensor>& bias_opt, double eps) {
  const Tensor weight = value_or_undefined(weight_opt), bias = value_or_undefined(bias_opt);
  const auto [m, n] = check_layer_norm_inputs(input, normalized_shape, weight, bias);
  if (use_kernel(input, weight, bias) && m > 0 && n > 0) {
    // One pass per row for the statistics and one to write, instead of seven tensor operators.
    const Tensor X = input.contiguous();
    Tensor Y = at::empty_like(X);
    Tensor mean = at::empty({m}, X.options()), rstd = at::empty({m}, X.options());
    LayerNormKernel(kCPU, X, weight.defined() ? weight.contiguous() : weight, bias.defined() ? bias.contiguous() : bias,
                    m, n, eps, &Y, &mean, &rstd);
    const auto shape = stat_shape(input, normalized_shape);
    return std::make_tuple(Y.view(input.sizes()), mean.view(shape), rstd.view(shape));
  }
  const Tensor x = input.reshape({m, n});
  const Tensor mean = x.mean(IntArrayRef{1}, /*keepdim=*/true);
  const Tensor rstd = ((x - mean).pow(2).mean(IntArrayRef{1}, /*keepdim=*/true) + eps).rsqrt();
  Tensor output = ((x - mean) * rstd).reshape(input.sizes());
  if (weight.defined()) output = output * weight;
  if (bias.defined()) output = output + bias;
  const auto shape = stat_shape(input, normalized_shape);
  return std::make_tuple(output, mean.reshape(shape), rstd.reshape(shape));
}

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
  if (use_kernel(input, weight, bias) && grad_out.scalar_type() == input.scalar_type() && m > 0 && n > 0) {
    const Tensor X = input.contiguous(), dY = grad_out.contiguous();
    Tensor dX = output_mask[0] ? at::empty_like(X) : Tensor();
    Tensor dgamma = output_mask[1] && weight.defined() ? at::empty({n}, X.options()) : Tensor();
    Tensor dbeta = output_mask[2] && bias.defined() ? at::empty({n}, X.options()) : Tensor();
    LayerNormBackwardKernel(kCPU, dY, X, mean.contiguous(), rstd.contiguous(),
                            weight.defined() ? weight.contiguous() : weight, m, n, &dX, &dgamma, &dbeta);
    return std::make_tuple(dX.defined() ? dX.view(input.sizes()) : dX,
                           dgamma.defined() ? dgamma.view(weight.sizes()) : dgamma,
                           dbeta.defined() ? dbeta.view(bias.sizes()) : dbeta);
  }
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

}  // namespace at::native
