// torch/csrc/api/include/torch/nn/modules/container/functional.h - nn::Functional: a plain
// function (torch::relu) wrapped as a module, to sit in a Sequential.
// Mirrors PyTorch's torch/csrc/api/include/torch/nn/modules/container/functional.h. Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>
#include <torch/types.h>

#include <c10/macros/Export.h>

#include <functional>
#include <ostream>
#include <type_traits>
#include <utility>

namespace torch::nn {

// Why: Sequential holds modules, and an activation is a function; Functional turns one into
// the other without a class per activation. Extra arguments are bound after the input:
// Functional(torch::leaky_relu, 0.2) computes torch::leaky_relu(x, 0.2).
// It has no parameters, so it adds nothing to named_parameters() but still takes an index
// in a Sequential ("0.weight", then "2.weight" after a Functional at 1), as in PyTorch.
class TORCH_API FunctionalImpl : public Module {
 public:
  using Function = std::function<Tensor(Tensor)>;

  explicit FunctionalImpl(Function function);

  template <typename SomeFunction, typename... Args, typename = std::enable_if_t<(sizeof...(Args) > 0)>>
  explicit FunctionalImpl(SomeFunction original_function, Args&&... args)
      : function_([original_function, args...](Tensor input) { return original_function(input, args...); }) {}

  void reset() {}

  // "torch::nn::Functional()"
  void pretty_print(std::ostream& stream) const override;

  Tensor forward(Tensor input);
  // Calls forward(): Functional is often called directly, as in PyTorch.
  Tensor operator()(Tensor input);

 private:
  Function function_;
};

TORCH_MODULE(Functional);

}  // namespace torch::nn
