// torch/csrc/api/include/torch/optim/sgd.h - torch::optim::SGD: stochastic gradient descent with
// momentum, dampening, Nesterov and weight decay. Mirrors PyTorch's torch/csrc/api/include/torch/optim/sgd.h.
// Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/arg.h>
#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include <c10/macros/Export.h>

#include <utility>
#include <vector>

namespace torch::optim {

// SGDOptions(0.1).momentum(0.9).weight_decay(1e-4), as SGD(params, lr=0.1, momentum=0.9, ...).
struct TORCH_API SGDOptions : public OptimizerCloneableOptions<SGDOptions> {
  SGDOptions(double lr);
  TORCH_ARG(double, lr);
  TORCH_ARG(double, momentum) = 0;
  TORCH_ARG(double, dampening) = 0;
  TORCH_ARG(double, weight_decay) = 0;
  TORCH_ARG(bool, nesterov) = false;

 public:
  double get_lr() const override;
  void set_lr(const double lr) override;
};

// The velocity v of momentum SGD, one per parameter, made at the parameter's first step.
struct TORCH_API SGDParamState : public OptimizerCloneableParamState<SGDParamState> {
  TORCH_ARG(torch::Tensor, momentum_buffer);
};

// Each step, for each parameter p with gradient g (the update of Python's torch.optim.SGD):
//   g = g + weight_decay * p
//   v = g at the first step, then v = momentum * v + (1 - dampening) * g
//   g = g + momentum * v (nesterov) or g = v
//   p = p - lr * g
class TORCH_API SGD : public Optimizer {
 public:
  explicit SGD(const std::vector<OptimizerParamGroup>& param_groups, SGDOptions defaults);
  explicit SGD(std::vector<Tensor> params, SGDOptions defaults)
      : SGD({OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}

  torch::Tensor step(LossClosure closure = nullptr) override;
};

}  // namespace torch::optim
