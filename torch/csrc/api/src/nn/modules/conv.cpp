// torch/csrc/api/src/nn/modules/conv.cpp - nn::Conv2d: checks, parameters, PyTorch's default
// init, forward through at::conv2d. Mirrors PyTorch's torch/csrc/api/src/nn/modules/conv.cpp.
// Guide: docs/source/internals/cpp_extensions.rst.
#include <torch/nn/functional.h>
#include <torch/nn/modules/conv.h>

#include <c10/core/GradMode.h>
#include <c10/util/Exception.h>

#include <cmath>
#include <ostream>

namespace torch::nn {

Conv2dImpl::Conv2dImpl(Conv2dOptions options_) : options(std::move(options_)) { reset(); }

void Conv2dImpl::reset() {
  TORCH_CHECK(options.in_channels() > 0 && options.groups() > 0 && options.out_channels() > 0,
              "in_channels, groups and out_channels must be a positive integer.");
  TORCH_CHECK(options.in_channels() % options.groups() == 0, "in_channels must be divisible by groups");
  TORCH_CHECK(options.out_channels() % options.groups() == 0, "out_channels must be divisible by groups");

  // Each output channel sees in_channels / groups input channels through a kH x kW kernel.
  const auto& kernel = *options.kernel_size();
  weight = register_parameter(
      "weight", torch::empty({options.out_channels(), options.in_channels() / options.groups(), kernel[0], kernel[1]}));
  if (options.bias()) {
    bias = register_parameter("bias", torch::empty({options.out_channels()}));
  } else {
    bias = register_parameter("bias", Tensor(), /*requires_grad=*/false);
  }
  reset_parameters();
}

void Conv2dImpl::reset_parameters() {
  // kaiming_uniform_(weight, a=sqrt(5)) is U(-1/sqrt(fan_in), 1/sqrt(fan_in)); the bias too.
  c10::NoGradGuard no_grad;
  const auto& kernel = *options.kernel_size();
  const int64_t fan_in = options.in_channels() / options.groups() * kernel[0] * kernel[1];
  const double bound = 1.0 / std::sqrt(static_cast<double>(fan_in));
  weight.uniform_(-bound, bound);
  if (bias.defined()) bias.uniform_(-bound, bound);
}

void Conv2dImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::Conv2d(" << options.in_channels() << ", " << options.out_channels()
         << ", kernel_size=" << options.kernel_size() << ", stride=" << options.stride();
  if (*options.padding() != *ExpandingArray<2>(0)) stream << ", padding=" << options.padding();
  if (*options.dilation() != *ExpandingArray<2>(1)) stream << ", dilation=" << options.dilation();
  if (options.groups() != 1) stream << ", groups=" << options.groups();
  if (!options.bias()) stream << ", bias=" << std::boolalpha << false;
  stream << ")";
}

Tensor Conv2dImpl::forward(const Tensor& input) {
  return functional::conv2d(input, weight, bias, options.stride(), options.padding(), options.dilation(),
                            options.groups());
}

}  // namespace torch::nn
