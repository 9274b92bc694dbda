// torch/csrc/api/include/torch/nn/functional.h - torch::nn::functional (F::): the stateless
// functions behind the modules. Mirrors PyTorch's torch/csrc/api/include/torch/nn/functional.h
// (there split into nn/functional/*.h). Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <torch/types.h>

#include <cstdint>

namespace torch::nn::functional {

// F::linear(x, w, b) = x w^T + b, what nn::Linear computes. PyTorch calls the aten::linear
// operator; this tree has none, so it is written with the ops autograd knows (matmul
// handles any leading batch dimensions, + broadcasts the bias).
inline Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias = {}) {
  auto output = input.matmul(weight.t());
  return bias.defined() ? output + bias : output;
}

// F::conv2d with the arguments spelled out (PyTorch takes a Conv2dFuncOptions).
inline Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias = {}, IntArrayRef stride = 1,
                     IntArrayRef padding = 0, IntArrayRef dilation = 1, int64_t groups = 1) {
  return at::conv2d(input, weight, bias.defined() ? std::optional<Tensor>(bias) : std::nullopt, stride, padding,
                    dilation, groups);
}

inline Tensor relu(const Tensor& input) { return at::relu(input); }

}  // namespace torch::nn::functional
