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
#include <c10/core/GradMode.h>

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace torch::autograd::generated::details {

using at::IntArrayRef;
using at::Scalar;
using at::Tensor;
using OptionalIntArrayRef = at::OptionalIntArrayRef;

// A real input of an operator with a complex result gets the real part of the gradient.
// The formula of an operator PyTorch records a node for but cannot differentiate
// (_unique2): backward through it is a NotImplementedError.
Tensor not_implemented(const char* name);
Tensor handle_r_to_c(at::ScalarType self_st, Tensor gradient_result);
Tensor maybe_multiply(const Tensor& t, const Scalar& s);
Tensor mul_tensor_backward(const Tensor& grad, const Tensor& other, at::ScalarType self_st);
Tensor mul_tensor_backward(const Tensor& grad, const Scalar& other, at::ScalarType self_st);
Tensor div_tensor_self_backward(const Tensor& grad, const Tensor& other, at::ScalarType self_st);
Tensor div_tensor_self_backward(const Tensor& grad, const Scalar& other, at::ScalarType self_st);
Tensor div_tensor_other_backward(const Tensor& grad, const Tensor& self, const Tensor& other);
Tensor sigmoid_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& output);
Tensor tanh_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& output);
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
// The gradients of mm's operands, laid out as the operands are: a transposed (column-major)
// operand gets a transposed gradient, so that AccumulateGrad can keep it without a copy.
Tensor mm_mat1_backward(const Tensor& grad, const Tensor& mat2, at::IntArrayRef mat1_sizes,
                        at::IntArrayRef mat1_strides, const Scalar& alpha = 1);
Tensor mm_mat2_backward(const Tensor& grad, const Tensor& mat1, at::IntArrayRef mat2_sizes,
                        at::IntArrayRef mat2_strides, const Scalar& alpha = 1);

// ---- saved at forward time for a Tensor[] input (cat, stack) ----
std::vector<std::vector<int64_t>> to_args_sizes(at::TensorList tensors);
std::vector<at::ScalarType> to_args_scalartypes(at::TensorList tensors);

// ---- binary ----
Tensor div_tensor_self_backward(const Tensor& grad, const Tensor& other, at::ScalarType self_st,
                                const std::optional<std::string>& rounding_mode);
Tensor div_tensor_self_backward(const Tensor& grad, const Scalar& other, at::ScalarType self_st,
                                const std::optional<std::string>& rounding_mode);
Tensor div_tensor_other_backward(const Tensor& grad, const Tensor& self, const Tensor& other,
                                 const std::optional<std::string>& rounding_mode);
Tensor pow_backward_self(const Tensor& grad, const Tensor& self, const Tensor& exponent);
Tensor pow_backward_exponent(const Tensor& grad, const Tensor& self, const Tensor& exponent, const Tensor& result);
Tensor pow_backward_exponent(const Tensor& grad, const Scalar& base, const Tensor& exponent, const Tensor& result);
std::tuple<Tensor, Tensor> atan2_backward(const Tensor& grad, const Tensor& self, const Tensor& other,
                                          std::array<bool, 2> output_mask);
Tensor clamp_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max);
Tensor clamp_backward(const Tensor& grad, const Tensor& self, const Tensor& min, const Tensor& max);
std::tuple<Tensor, Tensor> clamp_backward_min_max(const Tensor& grad, const Tensor& self, const Tensor& min,
                                                  const Tensor& max, std::array<bool, 2> output_mask);
Tensor masked_fill_backward(const Tensor& grad, const Tensor& mask);

// ---- unary ----
Tensor gelu_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& self,
                            const std::string& approximate);
Tensor silu_backward(const Tensor& grad, const Tensor& self);

// ---- views ----
Tensor unsqueeze_to(const Tensor& self, IntArrayRef dims, IntArrayRef sizes);
Tensor diagonal_backward(const Tensor& grad, IntArrayRef input_sizes, int64_t offset, int64_t dim1, int64_t dim2);
Tensor unfold_backward(const Tensor& grad, IntArrayRef input_sizes, int64_t dim, int64_t size, int64_t step);
Tensor split_backward(const std::vector<Tensor>& grads, int64_t split_size, int64_t dim, IntArrayRef sizes,
                      const at::TensorOptions& options);
Tensor split_with_sizes_backward(const std::vector<Tensor>& grads, IntArrayRef split_sizes, int64_t dim,
                                 IntArrayRef sizes, const at::TensorOptions& options);
Tensor unbind_backward(const std::vector<Tensor>& grads, int64_t dim);

// ---- reductions ----
Tensor restore_reduced_dims(const Tensor& output, IntArrayRef dims, bool keepdim);
Tensor scale_grad_by_count(const Tensor& grad, const Tensor& mask, IntArrayRef dims);
Tensor prod_backward(const Tensor& grad, const Tensor& input, const Tensor& result);
Tensor prod_backward(const Tensor& grad, const Tensor& input, const Tensor& result, int64_t dim, bool keepdim);
Tensor value_selecting_reduction_backward(const Tensor& grad, int64_t dim, const Tensor& indices, IntArrayRef sizes,
                                          bool keepdim);
Tensor evenly_distribute_backward(const Tensor& grad, const Tensor& input, const Tensor& value);
// aminmax: each defined gradient goes to the elements equal to its extreme, split evenly.
Tensor aminmax_backward(const Tensor& grad_min, const Tensor& grad_max, const Tensor& self, std::optional<int64_t> dim,
                        bool keepdim, const Tensor& min, const Tensor& max);
// cummax/cummin: each output's gradient goes back to the element it copied (indices).
Tensor cummaxmin_backward(const Tensor& grad, const Tensor& self, const Tensor& indices, int64_t dim);
// scatter_reduce: the gradients of self and src for sum, mean, amax/amin (split evenly among
// the elements equal to the result) and prod.
std::tuple<Tensor, Tensor> scatter_reduce_backward(const Tensor& grad, const Tensor& self, int64_t dim,
                                                   const Tensor& index, const Tensor& src, c10::string_view reduce,
                                                   bool include_self, const Tensor& result);
Tensor var_backward(const Tensor& grad, const Tensor& self, OptionalIntArrayRef dim,
                    const std::optional<Scalar>& correction, bool keepdim);
Tensor std_backward(const Tensor& result, const Tensor& grad, const Tensor& self, OptionalIntArrayRef dim,
                    const std::optional<Scalar>& correction, bool keepdim);
Tensor var_mean_backward(const Tensor& gvar, const Tensor& gmean, const Tensor& self, OptionalIntArrayRef dim,
                         const std::optional<Scalar>& correction, bool keepdim);
Tensor std_mean_backward(const Tensor& gstd, const Tensor& gmean, const Tensor& self, const Tensor& std,
                         OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim);
Tensor linalg_vector_norm_backward(const Tensor& grad, const Tensor& self, const Scalar& ord, const Tensor& norm,
                                   OptionalIntArrayRef dim, bool keepdim);
Tensor norm_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& p, const Tensor& norm);
Tensor norm_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& p, const Tensor& norm,
                     IntArrayRef dim, bool keepdim);
Tensor logsumexp_backward(const Tensor& grad, const Tensor& self, const Tensor& result, IntArrayRef dim, bool keepdim);
Tensor cumsum_backward(const Tensor& grad, int64_t dim);
Tensor cumprod_backward(const Tensor& grad, const Tensor& input, int64_t dim, const Tensor& output);
Tensor softmax_double_backward(const Tensor& grad, const Tensor& grad_output, int64_t dim, const Tensor& output);
Tensor log_softmax_double_backward_grad_output(const Tensor& grad, int64_t dim, const Tensor& output);
Tensor log_softmax_double_backward_output(const Tensor& grad, const Tensor& grad_output, int64_t dim,
                                          const Tensor& output);

// ---- indexing ----
Tensor index_backward(const Tensor& grad, IntArrayRef self_sizes, at::ArrayRef<std::optional<Tensor>> indices);
Tensor index_put_self_backward(const Tensor& grad, at::ArrayRef<std::optional<Tensor>> indices, bool accumulate);
Tensor index_select_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim, const Tensor& index);
Tensor gather_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim, const Tensor& index);
Tensor masked_select_backward(const Tensor& grad, const Tensor& self, const Tensor& mask);
Tensor masked_scatter_backward(const Tensor& grad, const Tensor& mask, IntArrayRef source_sizes);
Tensor take_backward(const Tensor& grad, IntArrayRef self_sizes, const Tensor& index);

// ---- joining, repeating, reordering ----
std::vector<Tensor> cat_tensors_backward(const Tensor& grad, const std::vector<std::vector<int64_t>>& sizes,
                                         const std::vector<at::ScalarType>& dtypes, int64_t dim);
std::vector<Tensor> stack_tensors_backward(const Tensor& grad, int64_t dim, const std::vector<at::ScalarType>& dtypes);
Tensor repeat_backward(const Tensor& grad, IntArrayRef repeats, IntArrayRef input_sizes);
Tensor roll_backward(const Tensor& grad, IntArrayRef shifts, IntArrayRef dims);

// ---- losses ----
Tensor binary_cross_entropy_with_logits_backward(const Tensor& grad, const Tensor& input, const Tensor& target,
                                                const std::optional<Tensor>& weight,
                                                const std::optional<Tensor>& pos_weight, int64_t reduction);
Tensor binary_cross_entropy_with_logits_target_backward(const Tensor& grad, const Tensor& input, const Tensor& target,
                                                       const std::optional<Tensor>& weight,
                                                       const std::optional<Tensor>& pos_weight, int64_t reduction);
Tensor binary_cross_entropy_target_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                                            const std::optional<Tensor>& weight, int64_t reduction);

// ---- math and shape operators (copysign, trace, block_diag) ----
Tensor copysign_tensor_self_backward(const Tensor& grad, const Tensor& self, const Tensor& result);
Tensor trace_backward(const Tensor& grad, IntArrayRef sizes);
std::vector<Tensor> block_diag_backward(const Tensor& grad, const std::vector<std::vector<int64_t>>& sizes,
                                        const std::vector<at::ScalarType>& dtypes);

}  // namespace torch::autograd::generated::details
