// torch/csrc/api/src/optim/sgd.cpp - SGD::step(). Mirrors PyTorch's torch/csrc/api/src/optim/sgd.cpp.
// Guide: docs/source/internals/cpp_extensions.rst.
#include <torch/optim/sgd.h>

#include <c10/core/GradMode.h>
#include <c10/util/Exception.h>

#include <memory>

namespace torch::optim {

SGDOptions::SGDOptions(double lr) : lr_(lr) {}

double SGDOptions::get_lr() const { return lr(); }

void SGDOptions::set_lr(const double lr) { this->lr(lr); }

SGD::SGD(const std::vector<OptimizerParamGroup>& param_groups, SGDOptions defaults)
    : Optimizer(param_groups, std::make_unique<SGDOptions>(defaults)) {
  TORCH_CHECK(defaults.lr() >= 0, "Invalid learning rate: ", defaults.lr());
  TORCH_CHECK(defaults.momentum() >= 0, "Invalid momentum value: ", defaults.momentum());
  TORCH_CHECK(defaults.weight_decay() >= 0, "Invalid weight_decay value: ", defaults.weight_decay());
  TORCH_CHECK(!defaults.nesterov() || (defaults.momentum() > 0 && defaults.dampening() == 0),
              "Nesterov momentum requires a momentum and zero dampening");
}

Tensor SGD::step(LossClosure closure) {
  // The update is not part of any model: no graph is recorded, and the in-place writes to
  // leaves that require grad are allowed.
  c10::NoGradGuard no_grad;
  Tensor loss = {};
  if (closure != nullptr) {
    c10::AutoGradMode enable_grad(true);
    loss = closure();
  }
  for (auto& group : param_groups_) {
    auto& options = static_cast<SGDOptions&>(group.options());
    const auto weight_decay = options.weight_decay();
    const auto momentum = options.momentum();
    const auto dampening = options.dampening();
    const auto nesterov = options.nesterov();

    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;  // a parameter that took no part in the loss
      Tensor d_p = p.grad();
      if (weight_decay != 0) d_p = d_p.add(p, weight_decay);
      if (momentum != 0) {
        Tensor buf;
        auto param_state = state_.find(p.unsafeGetTensorImpl());
        if (param_state == state_.end()) {
          // The first step starts the velocity at the gradient itself (no dampening).
          buf = d_p.clone().detach();
          auto state = std::make_unique<SGDParamState>();
          state->momentum_buffer(buf);
          state_[p.unsafeGetTensorImpl()] = std::move(state);
        } else {
          buf = static_cast<SGDParamState&>(*param_state->second).momentum_buffer();
          buf.mul_(momentum).add_(d_p, 1 - dampening);
        }
        d_p = nesterov ? d_p.add(buf, momentum) : buf;
      }
      p.add_(d_p, -1 * options.lr());
    }
  }
  return loss;
}

}  // namespace torch::optim
