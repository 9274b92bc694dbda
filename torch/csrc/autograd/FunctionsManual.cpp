// torch/csrc/autograd/FunctionsManual.cpp - the longer derivative formulas.
// Mirrors PyTorch's torch/csrc/autograd/FunctionsManual.cpp. Guide: docs/source/internals/autograd.rst.
#include <torch/csrc/autograd/FunctionsManual.h>

#include <c10/core/WrapDimMinimal.h>

namespace torch::autograd::generated::details {

// PyTorch takes the real part here when a real input met a complex operand; this tree's
// autograd differentiates real dtypes only, so the gradient passes unchanged.
Tensor handle_r_to_c(at::ScalarType self_st, Tensor gradient_result) {
  (void)self_st;
  return gradient_result;
}

Tensor maybe_multiply(const Tensor& t, const Scalar& s) {
  bool is_one = false;
  if (s.isFloatingPoint()) {
    is_one = s.toDouble() == 1;
  } else if (s.isIntegral(true)) {
    is_one = s.toLong() == 1;
  }
  return is_one ? t : t * s;
}

Tensor mul_tensor_backward(const Tensor& grad, const Tensor& other, at::ScalarType self_st) {
  return handle_r_to_c(self_st, grad * other);
}
Tensor mul_tensor_backward(const Tensor& grad, const Scalar& other, at::ScalarType self_st) {
  return handle_r_to_c(self_st, grad * other);
}

Tensor div_tensor_self_backward(const Tensor& grad, const Tensor& other, at::ScalarType self_st) {
  return handle_r_to_c(self_st, grad / other);
}
Tensor div_tensor_self_backward(const Tensor& grad, const Scalar& other, at::ScalarType self_st) {
  return handle_r_to_c(self_st, grad / other);
}
Tensor div_tensor_other_backward(const Tensor& grad, const Tensor& self, const Tensor& other) {
  // d(self/other)/d(other) = -self / other^2
  return handle_r_to_c(other.scalar_type(), -grad * (self / other) / other);
}

Tensor threshold_backward(const Tensor& grad, const Tensor& self, const Scalar& threshold) {
  return at::where(self <= threshold, at::zeros_like(grad), grad);
}

Tensor sigmoid_backward(const Tensor& grad, const Tensor& result) {
  return grad * (1 - result) * result;
}

Tensor tanh_backward(const Tensor& grad, const Tensor& result) {
  return grad * (1 - result * result);
}

Tensor pow_backward(Tensor grad, const Tensor& self, const Scalar& exponent) {
  if (exponent.toDouble() == 0.0) {
    return at::zeros_like(self);
  }
  // d(x^e)/dx = e * x^(e-1), with 0 where e-1 < 0 would make 0^(e-1) infinite times 0.
  auto grad_lambda = [&](auto exp) { return grad * (self.pow(exp - 1) * exp); };
  if (exponent.isIntegral(false)) {
    return grad_lambda(exponent.toLong());
  }
  return grad_lambda(exponent.toDouble());
}

Tensor _to_copy_backward(const Tensor& grad, const at::TensorOptions& self_options) {
  return grad.to(self_options.dtype());
}

Tensor copy_src_backward(const Tensor& grad, const at::TensorOptions& src_options, IntArrayRef src_sizes) {
  return at::sum_to(grad.to(src_options.dtype()), src_sizes);
}

// [marker: as_strided_backward]
// The gradient of an arbitrary window (size, stride, offset) into the input's storage: lay
// the gradient into a zero tensor the size of the storage the input spans, then read it
// back with the input's own geometry. (Windows that overlap themselves, such as expanded
// ones, are summed correctly only when the window does not overlap; PyTorch handles that
// case with more machinery.)
Tensor as_strided_backward(Tensor grad, const at::TensorGeometry& input_geometry, IntArrayRef sizes,
                           IntArrayRef strides, std::optional<int64_t> storage_offset) {
  const int64_t base_offset = input_geometry.storage_offset();
  const int64_t offset = storage_offset.value_or(base_offset);
  // The storage extent both geometries reach.
  auto extent = [](IntArrayRef sz, IntArrayRef st, int64_t off) {
    int64_t max = off;
    for (size_t i = 0; i < sz.size(); ++i) {
      if (sz[i] == 0) return off;
      max += (sz[i] - 1) * st[i];
    }
    return max + 1;
  };
  const int64_t end = std::max(extent(input_geometry.sizes(), input_geometry.strides(), base_offset),
                               extent(sizes, strides, offset));
  const int64_t start = std::min(base_offset, offset);
  Tensor storage = at::zeros({end - start}, grad.scalar_type(), std::nullopt, grad.device());
  storage.as_strided(sizes, strides, offset - start).copy_(grad);
  return storage.as_strided(input_geometry.sizes(), input_geometry.strides(), base_offset - start).clone();
}
// [end marker: as_strided_backward]

Tensor permute_backwards(const Tensor& grad, IntArrayRef fwd_dims) {
  const int64_t ndims = static_cast<int64_t>(fwd_dims.size());
  std::vector<int64_t> dims(ndims);
  for (int64_t i = 0; i < ndims; i++) {
    dims[c10::maybe_wrap_dim(fwd_dims[i], ndims)] = i;
  }
  return grad.permute(dims);
}

Tensor select_backward(const Tensor& grad, IntArrayRef input_sizes, int64_t dim, int64_t index) {
  auto grad_input = at::zeros(input_sizes, grad.scalar_type(), std::nullopt, grad.device());
  grad_input.select(dim, index).copy_(grad);
  return grad_input;
}

Tensor slice_backward_wrapper(const Tensor& grad, IntArrayRef input_sizes, int64_t dim, std::optional<int64_t> start,
                              std::optional<int64_t> end, int64_t step) {
  auto grad_input = at::zeros(input_sizes, grad.scalar_type(), std::nullopt, grad.device());
  grad_input.slice(dim, start, end, step).copy_(grad);
  return grad_input;
}

Tensor unsqueeze_to(const Tensor& self, IntArrayRef sizes) {
  auto result = self;
  for (int64_t dim = 0; dim < static_cast<int64_t>(sizes.size()); dim++) {
    if (sizes[dim] == 1) {
      result = result.unsqueeze(dim);
    }
  }
  return result;
}

Tensor unsqueeze_to(const Tensor& self, int64_t dim, IntArrayRef sizes) {
  dim = c10::maybe_wrap_dim(dim, static_cast<int64_t>(sizes.size()));
  if (!sizes.empty() && sizes[dim] == 1) {
    return self.unsqueeze(dim);
  }
  return self;
}

// [marker: sum_backward]
// The gradient of a sum is the output's gradient copied to every element that was summed:
// put back the reduced dimensions (size 1) and expand.
Tensor sum_backward(const Tensor& grad, IntArrayRef sizes, OptionalIntArrayRef dims, bool keepdim) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  if (!keepdim && ndim > 0) {
    std::vector<bool> reduced(ndim, false);
    if (!dims.has_value() || dims->empty()) {
      std::fill(reduced.begin(), reduced.end(), true);
    } else {
      for (int64_t d : *dims) {
        reduced[c10::maybe_wrap_dim(d, ndim)] = true;
      }
    }
    Tensor g = grad;
    for (int64_t d = 0; d < ndim; ++d) {
      if (reduced[d]) {
        g = g.unsqueeze(d);
      }
    }
    return g.expand(sizes);
  }
  return grad.expand(sizes);
}
// [end marker: sum_backward]

Tensor mean_backward(const Tensor& grad, IntArrayRef shape, OptionalIntArrayRef opt_dim, int64_t numel, bool keepdim) {
  const bool is_all_reduce = !opt_dim.has_value() || opt_dim->empty();
  int64_t n = numel;
  if (!is_all_reduce) {
    n = 1;
    for (int64_t d : *opt_dim) {
      n *= shape[c10::maybe_wrap_dim(d, static_cast<int64_t>(shape.size()))];
    }
  }
  return sum_backward(grad, shape, opt_dim, keepdim) / n;
}

Tensor mm_mat1_backward(const Tensor& grad, const Tensor& mat2, const Scalar& alpha) {
  return maybe_multiply(grad.mm(mat2.t()), alpha);
}

Tensor mm_mat2_backward(const Tensor& grad, const Tensor& mat1, const Scalar& alpha) {
  return maybe_multiply(mat1.t().mm(grad), alpha);
}

}  // namespace torch::autograd::generated::details
