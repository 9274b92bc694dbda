// torch/csrc/api/src/optim/adam.cpp - Adam::step(). Mirrors PyTorch's torch/csrc/api/src/optim/adam.cpp.
// Guide: docs/source/internals/cpp_extensions.rst.
#include <torch/optim/adam.h>

#include <c10/core/GradMode.h>
#include <c10/util/Exception.h>

#include <cmath>
#include <memory>

namespace torch::optim {

AdamOptions::AdamOptions(double lr) : lr_(lr) {}

double AdamOptions::get_lr() const { return lr(); }

void AdamOptions::set_lr(const double lr) { this->lr(lr); }

Adam::Adam(const std::vector<OptimizerParamGroup>& param_groups, AdamOptions defaults)
    : Optimizer(param_groups, std::make_unique<AdamOptions>(defaults)) {
  TORCH_CHECK(defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
  TORCH_CHECK(defaults.eps() >= 0, "Invalid epsilon value: ", defaults.eps());
  auto betas = defaults.betas();
  TORCH_CHECK(0 <= std::get<0>(betas) && std::get<0>(betas) < 1.0,
              "Invalid beta parameter at index 0: ", std::get<0>(betas));
  TORCH_CHECK(0 <= std::get<1>(betas) && std::get<1>(betas) < 1.0,
              "Invalid beta parameter at index 1: ", std::get<1>(betas));
  TORCH_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay value: ", defaults.weight_decay());
}

Tensor Adam::step(LossClosure closure) {
  c10::NoGradGuard no_grad;
  Tensor loss = {};
  if (closure != nullptr) {
    c10::AutoGradMode enable_grad(true);
    loss = closure();
  }
  for (auto& group : param_groups_) {
    auto& options = static_cast<AdamOptions&>(group.options());
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      auto grad = p.grad();

      // State is made lazily, at a parameter's first step: moments start at zero.
      auto param_state = state_.find(p.unsafeGetTensorImpl());
      if (param_state == state_.end()) {
        auto state = std::make_unique<AdamParamState>();
        state->step(0);
        state->exp_avg(torch::zeros_like(p));
        state->exp_avg_sq(torch::zeros_like(p));
        if (options.amsgrad()) state->max_exp_avg_sq(torch::zeros_like(p));
        state_[p.unsafeGetTensorImpl()] = std::move(state);
      }
      auto& state = static_cast<AdamParamState&>(*state_[p.unsafeGetTensorImpl()]);
      auto& exp_avg = state.exp_avg();
      auto& exp_avg_sq = state.exp_avg_sq();
      auto& max_exp_avg_sq = state.max_exp_avg_sq();

      state.step(state.step() + 1);
      const auto beta1 = std::get<0>(options.betas());
      const auto beta2 = std::get<1>(options.betas());
      const auto bias_correction1 = 1 - std::pow(beta1, state.step());
      const auto bias_correction2 = 1 - std::pow(beta2, state.step());

      if (options.weight_decay() != 0) grad = grad.add(p, options.weight_decay());

      // Decay the first and second moment running averages.
      exp_avg.mul_(beta1).add_(grad, 1 - beta1);
      exp_avg_sq.mul_(beta2).addcmul_(grad, grad, 1 - beta2);

      Tensor denom;
      if (options.amsgrad()) {
        // The running maximum of the second moment: the step size never grows back.
        max_exp_avg_sq.copy_(at::maximum(max_exp_avg_sq, exp_avg_sq));
        denom = (max_exp_avg_sq.sqrt() / std::sqrt(bias_correction2)).add_(options.eps());
      } else {
        denom = (exp_avg_sq.sqrt() / std::sqrt(bias_correction2)).add_(options.eps());
      }

      const auto step_size = options.lr() / bias_correction1;
      p.addcdiv_(exp_avg, denom, -step_size);
    }
  }
  return loss;
}

}  // namespace torch::optim
