// torch/csrc/autograd/FunctionsManual.h - helper functions the formulas of derivatives.yaml call.
// Mirrors PyTorch's torch/csrc/autograd/FunctionsManual.h. Guide: docs/source/internals/autograd.rst.
//
// A formula too long for one YAML line becomes a function here. They are ordinary tensor
// code: under create_graph=True they are themselves recorded, which is how second
// derivatives work.
#pragma once

#include <ATen/ExpandUtils.h>
#include <ATen/Functions.h>
#include <ATen/TensorOperators.h>
#include <ATen/TensorGeometry.h>

#include <optional>
#include <vector>

namespace torch::autograd::generated::details {

using at::IntArrayRef;
using at::Scalar;
using at::Tensor;
using OptionalIntArrayRef = at::OptionalIntArrayRef;

// A real input of an operator with a complex result gets the real part of the gradient.
Tensor handle_r_to_c(at::ScalarType self_st, Tensor gradient_result);
Tensor maybe_multiply(const Tensor& t, const Scalar& s);
Tensor mul_tensor_backward(const Tensor& grad, const Tensor& other, at::ScalarType self_st);
Tensor mul_tensor_backward(const Tensor& grad, const Scalar& other, at::ScalarType self_st);
Tensor div_tensor_self_backward(const Tensor& grad, const Tensor& other, at::ScalarType self_st);
Tensor div_tensor_self_backward(const Tensor& grad, const Scalar& other, at::ScalarType self_st);
Tensor div_tensor_other_backward(const Tensor& grad, const Tensor& self, const Tensor& other);
Tensor threshold_backward(const Tensor& grad, const Tensor& self, const Scalar& threshold);
Tensor sigmoid_backward(const Tensor& grad, const Tensor& result);
Tensor tanh_backward(const Tensor& grad, const Tensor& result);
Tensor pow_backward(Tensor grad, const Tensor& self, const Scalar& exponent);
Tensor _to_copy_backward(const Tensor& grad, const at::TensorOptions& self_options);
Tensor copy_src_backward(const Tensor& grad, const at::TensorOptions& src_options, IntArrayRef src_sizes);
Tensor as_strided_backward(Tensor grad, const at::TensorGeometry& input_geometry, IntArrayRef sizes,
                           IntArrayRef strides, std::optional<int64_t> storage_offset);
Tensor permute_backwards(const Tensor& grad, IntArrayRef fwd_dims);
Tensor select_backward(const Tensor& grad, IntArrayRef input_sizes, int64_t dim, int64_t index);
Tensor slice_backward_wrapper(const Tensor& grad, IntArrayRef input_sizes, int64_t dim, std::optional<int64_t> start,
                              std::optional<int64_t> end, int64_t step);
Tensor unsqueeze_to(const Tensor& self, IntArrayRef sizes);
Tensor unsqueeze_to(const Tensor& self, int64_t dim, IntArrayRef sizes);
Tensor sum_backward(const Tensor& grad, IntArrayRef sizes, OptionalIntArrayRef dims, bool keepdim);
Tensor mean_backward(const Tensor& grad, IntArrayRef shape, OptionalIntArrayRef opt_dim, int64_t numel, bool keepdim);
Tensor mm_mat1_backward(const Tensor& grad, const Tensor& mat2, const Scalar& alpha = 1);
Tensor mm_mat2_backward(const Tensor& grad, const Tensor& mat1, const Scalar& alpha = 1);

}  // namespace torch::autograd::generated::details
