// aten/src/ATen/native/Dropout.cpp - dropout: zero each element with probability p, scale
// the rest by 1 / (1 - p). Mirrors PyTorch's aten/src/ATen/native/Dropout.cpp.
// Guide: docs/source/internals/cuda_simulated_device.rst (random numbers on the device).
//
// Two routes, as in PyTorch: on CUDA, training with 0 < p < 1 calls native_dropout, one fused
// kernel that draws the mask and scales in a single pass (cuda/Dropout.cu); everywhere else
// dropout is composite: a noise tensor from bernoulli_(1 - p), divided by 1 - p, times input.
// Autograd sees the composite's operators, or native_dropout's own formula (the mask is its
// second output).
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>

#include <type_traits>

namespace at::native {
namespace {

bool is_fused_kernel_acceptable(const Tensor& input, double p) {
  return input.is_cuda() && p > 0 && p < 1 && input.numel() > 0;
}

// input * x, or input *= x for dropout_.
template <bool inplace>
using Ctype = std::conditional_t<inplace, Tensor&, Tensor>;

template <bool inplace>
Ctype<inplace> multiply(Ctype<inplace> input, const Tensor& other) {
  if constexpr (inplace) {
    return input.mul_(other);
  } else {
    return input.mul(other);
  }
}

template <bool inplace>
Ctype<inplace> dropout_impl(Ctype<inplace> input, double p, bool train) {
  TORCH_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (p == 0 || !train || input.numel() == 0) {
    return input;
  }
  if (p == 1) {
    return multiply<inplace>(input, at::zeros({}, input.scalar_type(), std::nullopt, input.device(), std::nullopt));
  }
  Tensor noise = at::empty_like(input);
  noise.bernoulli_(1 - p);
  noise.div_(1 - p);
  return multiply<inplace>(input, noise);
}

}  // namespace

Tensor dropout(const Tensor& input, double p, bool train) {
  if (train && is_fused_kernel_acceptable(input, p)) {
    return std::get<0>(at::native_dropout(input, p, train));
  }
  return dropout_impl</*inplace=*/false>(input, p, train);
}

Tensor& dropout_(Tensor& input, double p, bool train) {
  return dropout_impl</*inplace=*/true>(input, p, train);
}

// (output, mask): mask is bool, true where the element is kept. Not training: the input
// (a copy) and a mask of all true.
std::tuple<Tensor, Tensor> native_dropout_cpu(const Tensor& input, double p, std::optional<bool> train) {
  if (input.numel() == 0) {
    return std::make_tuple(input, at::empty_like(input, kBool));
  }
  if (train.has_value() && !train.value()) {
    return std::make_tuple(input.clone(), at::ones_like(input, kBool));
  }
  TORCH_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  const double p1m = 1. - p;
  // p == 1 keeps nothing: the scale is 0 rather than 1 / 0.
  const double scale = p1m == 0 ? 0. : 1. / p1m;
  Tensor mask = at::empty_like(input, kBool);
  mask.bernoulli_(p1m);
  Tensor output = input.mul(mask).mul_(scale);
  return std::make_tuple(output, mask);
}

Tensor native_dropout_backward(const Tensor& grad_output, const Tensor& mask, double scale) {
  return grad_output.mul(mask).mul_(scale);
}

}  // namespace at::native
