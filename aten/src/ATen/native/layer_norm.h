// aten/src/ATen/native/layer_norm.h - layer_norm's argument checks and the shape of its statistics,
// shared by the CPU operators (layer_norm.cpp) and the CUDA ones (cuda/Normalization.cu), and the
// stubs of the CPU kernels (cpu/layer_norm_kernel.cpp). Mirrors PyTorch's
// aten/src/ATen/native/layer_norm.h (_check_layer_norm_inputs, LayerNormKernel).
// Guide: docs/source/internals/python_layer.rst.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/native/DispatchStub.h>
#include <c10/util/Exception.h>

#include <sstream>
#include <utility>
#include <vector>

namespace at::native {

// X (M, N) contiguous, gamma/beta (N) or undefined; Y (M, N), mean and rstd (M).
using layer_norm_fn = void (*)(const Tensor& X, const Tensor& gamma, const Tensor& beta, int64_t M, int64_t N,
                               double eps, Tensor* Y, Tensor* mean, Tensor* rstd);
// dY, X (M, N) contiguous, mean/rstd (M), gamma (N) or undefined; the outputs not wanted are
// undefined.
using layer_norm_backward_fn = void (*)(const Tensor& dY, const Tensor& X, const Tensor& mean, const Tensor& rstd,
                                        const Tensor& gamma, int64_t M, int64_t N, Tensor* dX, Tensor* dgamma,
                                        Tensor* dbeta);
DECLARE_DISPATCH(layer_norm_fn, LayerNormKernel);
DECLARE_DISPATCH(layer_norm_backward_fn, LayerNormBackwardKernel);

// Returns (M, N): the number of groups and the size of each.
inline std::pair<int64_t, int64_t> check_layer_norm_inputs(const Tensor& input, IntArrayRef normalized_shape,
                                                    const Tensor& weight, const Tensor& bias) {
  const int64_t k = static_cast<int64_t>(normalized_shape.size());
  TORCH_CHECK(k >= 1, "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = ",
              normalized_shape);
  TORCH_CHECK(!weight.defined() || weight.sizes() == normalized_shape,
              "Expected weight to be of same shape as normalized_shape, but got weight of shape ",
              weight.sizes(), " and normalized_shape = ", normalized_shape);
  TORCH_CHECK(!bias.defined() || bias.sizes() == normalized_shape,
              "Expected bias to be of same shape as normalized_shape, but got bias of shape ", bias.sizes(),
              " and normalized_shape = ", normalized_shape);
  const int64_t ndim = input.dim();
  bool ok = ndim >= k;
  for (int64_t i = 0; ok && i < k; i++) ok = input.size(ndim - k + i) == normalized_shape[i];
  if (!ok) {
    std::ostringstream ss;
    ss << "Given normalized_shape=" << normalized_shape << ", expected input with shape [*";
    for (auto s : normalized_shape) ss << ", " << s;
    ss << "], but got input of size" << input.sizes();
    TORCH_CHECK(false, ss.str());
  }
  int64_t m = 1, n = 1;
  for (int64_t i = 0; i < ndim - k; i++) m *= input.size(i);
  for (int64_t i = ndim - k; i < ndim; i++) n *= input.size(i);
  return {m, n};
}

// input's shape with the normalized dims set to 1 (the shape of mean and rstd).
inline std::vector<int64_t> stat_shape(const Tensor& input, IntArrayRef normalized_shape) {
  std::vector<int64_t> shape = input.sizes().vec();
  for (size_t i = 0; i < normalized_shape.size(); i++) shape[shape.size() - 1 - i] = 1;
  return shape;
}

}  // namespace at::native
