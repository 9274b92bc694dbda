// torch/csrc/api/src/nn/modules/linear.cpp - nn::Linear: parameters, PyTorch's default init,
// forward. Mirrors PyTorch's torch/csrc/api/src/nn/modules/linear.cpp. Guide: docs/source/internals/cpp_extensions.rst.
#include <torch/nn/functional.h>
#include <torch/nn/modules/linear.h>

#include <c10/core/GradMode.h>

#include <cmath>
#include <ostream>

namespace torch::nn {

LinearImpl::LinearImpl(const LinearOptions& options_) : options(options_) { reset(); }

void LinearImpl::reset() {
  weight = register_parameter("weight", torch::empty({options.out_features(), options.in_features()}));
  if (options.bias()) {
    bias = register_parameter("bias", torch::empty({options.out_features()}));
  } else {
    // Registered though undefined, as in PyTorch: named_parameters() skips it.
    bias = register_parameter("bias", {}, /*requires_grad=*/false);
  }
  reset_parameters();
}

void LinearImpl::reset_parameters() {
  // PyTorch's kaiming_uniform_(weight, a=sqrt(5)) comes down to U(-1/sqrt(fan_in), 1/sqrt(fan_in)),
  // and the bias uses the same bound. Written into the leaves without recording a graph.
  c10::NoGradGuard no_grad;
  const auto fan_in = options.in_features();
  const double bound = fan_in > 0 ? 1.0 / std::sqrt(static_cast<double>(fan_in)) : 0.0;
  weight.uniform_(-bound, bound);
  if (bias.defined()) bias.uniform_(-bound, bound);
}

void LinearImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::Linear(in_features=" << options.in_features()
         << ", out_features=" << options.out_features() << ", bias=" << options.bias() << ")";
}

Tensor LinearImpl::forward(const Tensor& input) { return functional::linear(input, weight, bias); }

}  // namespace torch::nn
