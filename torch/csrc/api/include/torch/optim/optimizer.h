// torch/csrc/api/include/torch/optim/optimizer.h - torch::optim::Optimizer, the base of SGD and
// Adam: parameter groups with their options, per-parameter state, step() and zero_grad().
// Mirrors PyTorch's torch/csrc/api/include/torch/optim/optimizer.h. Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/types.h>

#include <c10/macros/Export.h>

#include <functional>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace torch::optim {

// What an optimizer remembers per parameter between steps (SGD's momentum buffer, Adam's
// moments). Polymorphic because each optimizer keeps a different kind in one state map.
class TORCH_API OptimizerParamState {
 public:
  OptimizerParamState() = default;
  OptimizerParamState(const OptimizerParamState&) = default;
  OptimizerParamState& operator=(const OptimizerParamState&) = default;
  virtual ~OptimizerParamState() = default;
  virtual std::unique_ptr<OptimizerParamState> clone() const;
};

template <typename Derived>
class OptimizerCloneableParamState : public OptimizerParamState {
  std::unique_ptr<OptimizerParamState> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

// The hyperparameters (lr, momentum, ...). Each parameter group has its own copy, which is
// why they are cloned, and why lr is reachable through the base class (schedulers set it).
class TORCH_API OptimizerOptions {
 public:
  OptimizerOptions() = default;
  OptimizerOptions(const OptimizerOptions&) = default;
  OptimizerOptions& operator=(const OptimizerOptions&) = default;
  virtual ~OptimizerOptions() = default;
  virtual std::unique_ptr<OptimizerOptions> clone() const;
  virtual double get_lr() const;
  virtual void set_lr(const double lr);
};

template <typename Derived>
class OptimizerCloneableOptions : public OptimizerOptions {
 private:
  std::unique_ptr<OptimizerOptions> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
};

// Parameters that share options, as Python's param_groups entries. Without options of its
// own, a group takes the optimizer's defaults when added.
class TORCH_API OptimizerParamGroup {
 public:
  OptimizerParamGroup(const OptimizerParamGroup& param_group)
      : params_(param_group.params()),
        options_(param_group.has_options() ? param_group.options().clone() : nullptr) {}
  OptimizerParamGroup(OptimizerParamGroup&&) = default;
  OptimizerParamGroup(std::vector<Tensor> params) : params_(std::move(params)) {}
  OptimizerParamGroup(std::vector<Tensor> params, std::unique_ptr<OptimizerOptions> options)
      : params_(std::move(params)), options_(std::move(options)) {}

  bool has_options() const { return options_ != nullptr; }
  OptimizerOptions& options();
  const OptimizerOptions& options() const;
  void set_options(std::unique_ptr<OptimizerOptions> options) { options_ = std::move(options); }
  std::vector<Tensor>& params() { return params_; }
  const std::vector<Tensor>& params() const { return params_; }

 protected:
  std::vector<Tensor> params_;
  std::unique_ptr<OptimizerOptions> options_;
};

class TORCH_API Optimizer {
 public:
  Optimizer(const Optimizer& optimizer) = delete;
  Optimizer(Optimizer&& optimizer) = default;

  explicit Optimizer(const std::vector<OptimizerParamGroup>& param_groups, std::unique_ptr<OptimizerOptions> defaults)
      : defaults_(std::move(defaults)) {
    for (const auto& param_group : param_groups) add_param_group(param_group);
  }
  // A plain list of parameters is one group with the default options.
  explicit Optimizer(std::vector<Tensor> parameters, std::unique_ptr<OptimizerOptions> defaults)
      : Optimizer({OptimizerParamGroup(std::move(parameters))}, std::move(defaults)) {}

  virtual ~Optimizer() = default;

  // Adds a group; every parameter must be a leaf (a non-leaf's .grad is never filled).
  void add_param_group(const OptimizerParamGroup& param_group);

  // A closure recomputes the loss (with grad enabled) for optimizers that need it several
  // times per step (LBFGS); step() returns its value, or an undefined tensor without one.
  using LossClosure = std::function<Tensor()>;
  virtual Tensor step(LossClosure closure = nullptr) = 0;

  // Appends parameters to the first group.
  void add_parameters(const std::vector<Tensor>& parameters);

  // Between steps: backward() accumulates into .grad, so the last step's gradient must go.
  // set_to_none (the default, as in Python since 2.0) drops the tensor instead of zeroing it.
  void zero_grad(bool set_to_none = true);

  // The first group's parameters (PyTorch's deprecated but still present accessor).
  const std::vector<Tensor>& parameters() const noexcept;
  std::vector<Tensor>& parameters() noexcept;
  // How many parameters there are, over all groups.
  size_t size() const noexcept;

  OptimizerOptions& defaults() noexcept { return *defaults_; }
  const OptimizerOptions& defaults() const noexcept { return *defaults_; }
  std::vector<OptimizerParamGroup>& param_groups() noexcept { return param_groups_; }
  const std::vector<OptimizerParamGroup>& param_groups() const noexcept { return param_groups_; }
  // Keyed by the parameter's TensorImpl: the identity of a tensor, whichever handle names it.
  std::unordered_map<void*, std::unique_ptr<OptimizerParamState>>& state() noexcept { return state_; }
  const std::unordered_map<void*, std::unique_ptr<OptimizerParamState>>& state() const noexcept { return state_; }

 protected:
  std::vector<OptimizerParamGroup> param_groups_;
  std::unordered_map<void*, std::unique_ptr<OptimizerParamState>> state_;
  std::unique_ptr<OptimizerOptions> defaults_;
};

}  // namespace torch::optim
