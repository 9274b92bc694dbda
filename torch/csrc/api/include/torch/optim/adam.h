// torch/csrc/api/include/torch/optim/adam.h - torch::optim::Adam: per-parameter step sizes from
// running moments of the gradient. Mirrors PyTorch's torch/csrc/api/include/torch/optim/adam.h.
// Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/arg.h>
#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include <c10/macros/Export.h>

#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace torch::optim {

// AdamOptions(1e-3).betas({0.9, 0.999}).eps(1e-8).weight_decay(0), as Python's Adam(params, ...).
struct TORCH_API AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  AdamOptions(double lr = 1e-3);
  TORCH_ARG(double, lr) = 1e-3;
  typedef std::tuple<double, double> betas_t;
  TORCH_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(bool, amsgrad) = false;

 public:
  double get_lr() const override;
  void set_lr(const double lr) override;
};

// The step count and the two moments (and, with amsgrad, the largest second moment so far).
struct TORCH_API AdamParamState : public OptimizerCloneableParamState<AdamParamState> {
  TORCH_ARG(int64_t, step) = 0;
  TORCH_ARG(torch::Tensor, exp_avg);
  TORCH_ARG(torch::Tensor, exp_avg_sq);
  TORCH_ARG(torch::Tensor, max_exp_avg_sq) = {};
};

// Each step t (from 1), for each parameter p with gradient g:
//   g = g + weight_decay * p
//   m = beta1 * m + (1 - beta1) * g          v = beta2 * v + (1 - beta2) * g * g
//   p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
// The bias corrections undo the pull of m and v towards their zero start.
class TORCH_API Adam : public Optimizer {
 public:
  explicit Adam(const std::vector<OptimizerParamGroup>& param_groups, AdamOptions defaults = {});
  explicit Adam(std::vector<Tensor> params, AdamOptions defaults = {})
      : Adam({OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}

  torch::Tensor step(LossClosure closure = nullptr) override;
};

}  // namespace torch::optim
