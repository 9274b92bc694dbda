// aten/src/ATen/native/Normalization.cpp - batch_norm and native_batch_norm (forward and backward).
// Mirrors PyTorch's aten/src/ATen/native/Normalization.cpp (batch_norm, _batch_norm_impl_index,
// batch_norm_cpu, batch_norm_backward_cpu). Guide: docs/source/internals/python_layer.rst.
//
// The input is (N, C, *): each channel c is normalized over every other dimension.
// Training: mean and biased variance of the batch normalize it; running_mean / running_var
// move toward the batch's statistics in place, by `momentum`, the variance entering them
// unbiased (n / (n - 1)). Evaluation: the running statistics normalize it and nothing moves.
// native_batch_norm also returns save_mean and save_invstd (1 / sqrt(var + eps)), which its
// backward reads; in evaluation they are empty, as in PyTorch.
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/TensorOperators.h>

#include <tuple>
#include <vector>

namespace at::native {

namespace {

Tensor value_or_undefined(const std::optional<Tensor>& t) { return t.has_value() ? *t : Tensor(); }

// The dims every channel is reduced over: all but dim 1.
std::vector<int64_t> reduce_dims(const Tensor& input) {
  std::vector<int64_t> dims{0};
  for (int64_t d = 2; d < input.dim(); d++) dims.push_back(d);
  return dims;
}

// A (C) vector as (1, C, 1, ...) so it broadcasts against the input.
Tensor as_channel(const Tensor& v, const Tensor& input) {
  std::vector<int64_t> shape(input.dim(), 1);
  shape[1] = input.size(1);
  return v.reshape(shape);
}

}  // namespace

Tensor batch_norm(const Tensor& input, const std::optional<Tensor>& weight_opt, const std::optional<Tensor>& bias_opt,
                  const std::optional<Tensor>& running_mean_opt, const std::optional<Tensor>& running_var_opt,
                  bool training, double momentum, double eps, bool cudnn_enabled) {
  TORCH_CHECK(input.dim() >= 2, "batch_norm: expected an input of at least 2 dimensions (N, C, ...), but got ",
              input.sizes());
  const int64_t c = input.size(1);
  auto check = [&](const std::optional<Tensor>& t, const char* name) {
    if (t.has_value() && t->defined()) {
      TORCH_CHECK(t->numel() == c, name, " should contain ", c, " elements not ", t->numel());
    }
  };
  check(weight_opt, "weight");
  check(bias_opt, "bias");
  if (!training) {
    TORCH_CHECK(running_mean_opt.has_value() && running_mean_opt->defined(),
                "running_mean must be defined in evaluation mode");
    TORCH_CHECK(running_var_opt.has_value() && running_var_opt->defined(),
                "running_var must be defined in evaluation mode");
  }
  check(running_mean_opt, "running_mean");
  check(running_var_opt, "running_var");
  return std::get<0>(at::native_batch_norm(input, weight_opt, bias_opt, running_mean_opt, running_var_opt, training,
                                           momentum, eps));
}

std::tuple<Tensor, Tensor, Tensor> batch_norm_cpu(const Tensor& input, const std::optional<Tensor>& weight_opt,
                                                  const std::optional<Tensor>& bias_opt,
                                                  const std::optional<Tensor>& running_mean_opt,
                                                  const std::optional<Tensor>& running_var_opt, bool training,
                                                  double momentum, double eps) {
  const Tensor weight = value_or_undefined(weight_opt), bias = value_or_undefined(bias_opt);
  Tensor running_mean = value_or_undefined(running_mean_opt), running_var = value_or_undefined(running_var_opt);
  const auto dims = reduce_dims(input);
  Tensor mean, invstd, save_mean, save_invstd;
  if (training) {
    const int64_t n = input.numel() / input.size(1);
    mean = input.mean(IntArrayRef(dims));
    Tensor var = (input - as_channel(mean, input)).pow(2).mean(IntArrayRef(dims));  // biased: normalizes the batch
    invstd = (var + eps).rsqrt();
    save_mean = mean;
    save_invstd = invstd;
    // (Below autograd here: these in-place updates record no history.)
    if (running_mean.defined()) {
      running_mean.mul_(1 - momentum).add_(mean, momentum);
    }
    if (running_var.defined()) {
      Tensor unbiased = n > 1 ? var * (static_cast<double>(n) / static_cast<double>(n - 1)) : var;
      running_var.mul_(1 - momentum).add_(unbiased, momentum);
    }
  } else {
    mean = running_mean;
    invstd = (running_var + eps).rsqrt();
    save_mean = at::empty({0}, input.scalar_type(), std::nullopt, input.device(), std::nullopt, std::nullopt);
    save_invstd = at::empty({0}, input.scalar_type(), std::nullopt, input.device(), std::nullopt, std::nullopt);
  }
  Tensor output = (input - as_channel(mean, input)) * as_channel(invstd, input);
  if (weight.defined()) output = output * as_channel(weight, input);
  if (bias.defined()) output = output + as_channel(bias, input);
  return std::make_tuple(output, save_mean, save_invstd);
}

// With xhat = (x - mean) * invstd and M values per channel, in training
//   grad_input = weight * invstd / M * (M * g - sum(g) - xhat * sum(g * xhat))
// (mean and invstd depend on x too); in evaluation they are constants: grad_input =
// g * weight * invstd. In both, grad_weight = sum(g * xhat), grad_bias = sum(g).
std::tuple<Tensor, Tensor, Tensor> batch_norm_backward_cpu(
    const Tensor& grad_out, const Tensor& input, const std::optional<Tensor>& weight_opt,
    const std::optional<Tensor>& running_mean_opt, const std::optional<Tensor>& running_var_opt,
    const std::optional<Tensor>& save_mean_opt, const std::optional<Tensor>& save_invstd_opt, bool train, double eps,
    std::array<bool, 3> output_mask) {
  const Tensor weight = value_or_undefined(weight_opt);
  Tensor mean, invstd;
  if (train) {
    mean = value_or_undefined(save_mean_opt);
    invstd = value_or_undefined(save_invstd_opt);
  } else {
    mean = value_or_undefined(running_mean_opt);
    invstd = (value_or_undefined(running_var_opt) + eps).rsqrt();
  }
  const auto dims = reduce_dims(input);
  const int64_t m = input.numel() / input.size(1);
  const Tensor xhat = (input - as_channel(mean, input)) * as_channel(invstd, input);
  const Tensor sum_g = grad_out.sum(IntArrayRef(dims));
  const Tensor sum_g_xhat = (grad_out * xhat).sum(IntArrayRef(dims));
  Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) {
    const Tensor scale = weight.defined() ? invstd * weight : invstd;
    if (train) {
      grad_input = (grad_out - as_channel(sum_g / m, input) - xhat * as_channel(sum_g_xhat / m, input)) *
                   as_channel(scale, input);
    } else {
      grad_input = grad_out * as_channel(scale, input);
    }
  }
  if (output_mask[1]) grad_weight = sum_g_xhat;
  if (output_mask[2]) grad_bias = sum_g;
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}

}  // namespace at::native
