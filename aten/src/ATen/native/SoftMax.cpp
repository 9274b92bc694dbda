// aten/src/ATen/native/SoftMax.cpp - softmax and log_softmax along one dim, numerically stable,
// and their backward. Mirrors PyTorch's aten/src/ATen/native/SoftMax.cpp: the operators check
// and allocate here, the loops are in cpu/SoftMaxKernel.cpp (stubs in cpu/SoftmaxKernel.h).
// Guides: docs/source/internals/tensor_iterator.rst, docs/source/internals/performance.rst.
//
// softmax(x)_i = exp(x_i - max) / sum_j exp(x_j - max): subtracting the row's max first
// keeps every exp in (0, 1], so large inputs never overflow to inf/inf = NaN.
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/native/cpu/SoftmaxKernel.h>
#include <c10/core/WrapDimMinimal.h>

#include <optional>

namespace at::native {

DEFINE_DISPATCH(softmax_lastdim_kernel);
DEFINE_DISPATCH(log_softmax_lastdim_kernel);
DEFINE_DISPATCH(softmax_backward_lastdim_kernel);
DEFINE_DISPATCH(log_softmax_backward_lastdim_kernel);
DEFINE_DISPATCH(softmax_kernel);
DEFINE_DISPATCH(log_softmax_kernel);
DEFINE_DISPATCH(softmax_backward_kernel);
DEFINE_DISPATCH(log_softmax_backward_kernel);

namespace {

// The output is contiguous, in the input's shape, as PyTorch's. Along the last dim (or of a 0-d
// tensor, a one-element row) each row is a softmax; along any other dim the kernel works on the
// [outer, dim, inner] block in place, without moving dim last.
template <bool log_softmax>
Tensor host_softmax(const Tensor& input_, int64_t dim_, bool half_to_float) {
  TORCH_CHECK(!half_to_float, "softmax with half to float conversion is not supported on CPU");
  const int64_t dim = c10::maybe_wrap_dim(dim_, input_.dim());
  const Tensor input = input_.contiguous();
  Tensor output = at::empty(input.sizes(), input.scalar_type(), std::nullopt, input.device(), std::nullopt,
                            std::nullopt);
  if (input.numel() == 0) {
    return output;
  }
  const bool last = input.dim() == 0 || dim == input.dim() - 1;
  if constexpr (log_softmax) {
    last ? log_softmax_lastdim_kernel(kCPU, output, input) : log_softmax_kernel(kCPU, output, input, dim);
  } else {
    last ? softmax_lastdim_kernel(kCPU, output, input) : softmax_kernel(kCPU, output, input, dim);
  }
  return output;
}

// PyTorch's checks (the meta function of _softmax_backward_data): grad and output of one size;
// grad_input takes grad's dtype, and the kernel reads output as that dtype too, so an output of
// another dtype is an error ("expected scalar type Double but found Float").
template <bool log_softmax>
Tensor host_softmax_backward(const Tensor& grad_, const Tensor& output_, int64_t dim_) {
  TORCH_CHECK(grad_.sizes() == output_.sizes(), "Expected tensor for argument #1 'grad' to have same size as tensor "
              "for argument #2 'output'; but ", grad_.sizes(), " does not equal ", output_.sizes(),
              " (while checking arguments for ", log_softmax ? "log_softmax_backward" : "softmax_backward", ")");
  const int64_t dim = c10::maybe_wrap_dim(dim_, grad_.dim());
  const Tensor grad = grad_.contiguous();
  const Tensor output = output_.contiguous();
  Tensor grad_input = at::empty(grad.sizes(), grad.scalar_type(), std::nullopt, grad.device(), std::nullopt,
                                std::nullopt);
  if (grad.numel() == 0) {
    return grad_input;
  }
  const bool last = grad.dim() == 0 || dim == grad.dim() - 1;
  if constexpr (log_softmax) {
    last ? log_softmax_backward_lastdim_kernel(kCPU, grad_input, grad, output)
         : log_softmax_backward_kernel(kCPU, grad_input, grad, output, dim);
  } else {
    last ? softmax_backward_lastdim_kernel(kCPU, grad_input, grad, output)
         : softmax_backward_kernel(kCPU, grad_input, grad, output, dim);
  }
  return grad_input;
}

}  // namespace

Tensor softmax_cpu(const Tensor& self, int64_t dim, bool half_to_float) {
  return host_softmax<false>(self, dim, half_to_float);
}

Tensor log_softmax_cpu(const Tensor& self, int64_t dim, bool half_to_float) {
  return host_softmax<true>(self, dim, half_to_float);
}

Tensor softmax_backward_cpu(const Tensor& grad_output, const Tensor& output, int64_t dim, ScalarType input_dtype) {
  return host_softmax_backward<false>(grad_output, output, dim);
}

Tensor log_softmax_backward_cpu(const Tensor& grad_output, const Tensor& output, int64_t dim,
                                ScalarType input_dtype) {
  return host_softmax_backward<true>(grad_output, output, dim);
}

// softmax(dtype=): the input is converted first, as in PyTorch.
Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  const Tensor input = dtype.has_value() ? self.to(*dtype) : self;
  return at::_softmax(input, dim, false);
}

Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  const Tensor input = dtype.has_value() ? self.to(*dtype) : self;
  return at::_log_softmax(input, dim, false);
}

}  // namespace at::native
