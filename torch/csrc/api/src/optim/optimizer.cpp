// torch/csrc/api/src/optim/optimizer.cpp - the Optimizer base: parameter groups, zero_grad().
// Mirrors PyTorch's torch/csrc/api/src/optim/optimizer.cpp. Guide: docs/source/internals/cpp_extensions.rst.
#include <torch/optim/optimizer.h>

#include <c10/util/Exception.h>

namespace torch::optim {

std::unique_ptr<OptimizerParamState> OptimizerParamState::clone() const {
  TORCH_CHECK(false, "clone() has not been implemented for torch::optim::OptimizerParamState. ",
              "Subclass torch::optim::OptimizerCloneableParamState<YourOptimizerParamState> ",
              "instead of torch::optim::OptimizerParamState to inherit the ability to clone.");
}

std::unique_ptr<OptimizerOptions> OptimizerOptions::clone() const {
  TORCH_CHECK(false, "clone() has not been implemented for torch::optim::OptimizerOptions. ",
              "Subclass torch::optim::OptimizerCloneableOptions<YourOptimizerOptions> ",
              "instead of torch::optim::OptimizerOptions to inherit the ability to clone.");
}

double OptimizerOptions::get_lr() const {
  TORCH_CHECK(false, "double get_lr() has not been overridden and implemented in subclass of "
                     "torch::optim::OptimizerOptions, you must override it in your subclass.");
}

void OptimizerOptions::set_lr(const double /*lr*/) {
  TORCH_CHECK(false, "void set_lr() has not been overridden and implemented in subclass of "
                     "torch::optim::OptimizerOptions, you must override it in your subclass.");
}

OptimizerOptions& OptimizerParamGroup::options() {
  TORCH_CHECK(has_options(), "Parameter group doesn't have options");
  return *options_;
}

const OptimizerOptions& OptimizerParamGroup::options() const {
  TORCH_CHECK(has_options(), "Parameter group doesn't have options");
  return *options_;
}

void Optimizer::add_param_group(const OptimizerParamGroup& param_group) {
  for (const auto& param : param_group.params()) {
    TORCH_CHECK(param.is_leaf(), "can't optimize a non-leaf Tensor");
  }
  TORCH_INTERNAL_ASSERT(defaults_ != nullptr);
  // Each group owns its options, so that changing one group's lr leaves the others alone.
  OptimizerParamGroup group(param_group.params());
  group.set_options(param_group.has_options() ? param_group.options().clone() : defaults_->clone());
  for (const auto& p : group.params()) {
    for (const auto& other : param_groups_) {
      for (const auto& q : other.params()) {
        TORCH_CHECK(!p.is_same(q), "some parameters appear in more than one parameter group");
      }
    }
  }
  param_groups_.emplace_back(std::move(group));
}

void Optimizer::add_parameters(const std::vector<Tensor>& parameters) {
  TORCH_CHECK(!param_groups_.empty(), "add_parameters() needs a parameter group to add to");
  auto& params = param_groups_[0].params();
  params.insert(params.end(), parameters.begin(), parameters.end());
}

void Optimizer::zero_grad(bool set_to_none) {
  for (auto& group : param_groups_) {
    for (auto& p : group.params()) {
      auto& grad = p.mutable_grad();
      if (!grad.defined()) continue;
      if (set_to_none) {
        grad.reset();
      } else {
        // A .grad made with create_graph=True has history; zero it without recording that.
        grad = grad.detach();
        grad.zero_();
      }
    }
  }
}

const std::vector<Tensor>& Optimizer::parameters() const noexcept { return param_groups_.at(0).params(); }

std::vector<Tensor>& Optimizer::parameters() noexcept { return param_groups_.at(0).params(); }

size_t Optimizer::size() const noexcept {
  size_t count = 0;
  for (const auto& group : param_groups_) count += group.params().size();
  return count;
}

}  // namespace torch::optim
