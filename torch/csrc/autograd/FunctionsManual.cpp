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

Tensor not_implemented(const char* name) {
  TORCH_CHECK_NOT_IMPLEMENTED(false, "the derivative for '", name, "' is not implemented.");
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

// sigmoid's and tanh's own backwards are the fused kernels at::sigmoid_backward and
// at::tanh_backward (aten/src/ATen/native/BinaryOps.cpp); these are the derivatives of those
// kernels with respect to the saved output y, for double backward.
// d/dy [g (1 - y) y] = g (1 - 2y)
Tensor sigmoid_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& output) {
  return grad * grad_output * (1 - 2 * output);
}

// d/dy [g (1 - y^2)] = -2 g y
Tensor tanh_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& output) {
  return grad * (-2 * output * grad_output);
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

// The gradient goes back to where the input was: its device (x.cuda()'s gradient is a CPU
// tensor) and its dtype.
Tensor _to_copy_backward(const Tensor& grad, const at::TensorOptions& self_options) {
  return grad.to(self_options.device(), self_options.dtype());
}

Tensor copy_src_backward(const Tensor& grad, const at::TensorOptions& src_options, IntArrayRef src_sizes) {
  return at::sum_to(grad.to(src_options.device(), src_options.dtype()), src_sizes);
}

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

// [marker: mm_mat2_backward]
// For y = x @ w.t() (nn.Linear), mat2 is w.t(): column-major, strides (1, rows). Its
// gradient mat1.t() @ grad would come out row-major, and the gradient of w (its transpose)
// column-major, unlike w: AccumulateGrad would then copy it into w's layout, a transposed
// copy of every weight on every step. Computing (grad.t() @ mat1).t() instead gives the
// gradient in mat2's own layout, for the price of two free transposes, as PyTorch's
// FunctionsManual.cpp does. mat1's gradient likewise.
namespace {
bool is_column_major(at::IntArrayRef sizes, at::IntArrayRef strides) {
  return sizes.size() == 2 && strides[0] == 1 && strides[1] == sizes[0];
}
}  // namespace

Tensor mm_mat1_backward(const Tensor& grad, const Tensor& mat2, at::IntArrayRef mat1_sizes,
                        at::IntArrayRef mat1_strides, const Scalar& alpha) {
  if (is_column_major(mat1_sizes, mat1_strides)) {
    return maybe_multiply(mat2.mm(grad.t()).t(), alpha);
  }
  return maybe_multiply(grad.mm(mat2.t()), alpha);
}

Tensor mm_mat2_backward(const Tensor& grad, const Tensor& mat1, at::IntArrayRef mat2_sizes,
                        at::IntArrayRef mat2_strides, const Scalar& alpha) {
  if (is_column_major(mat2_sizes, mat2_strides)) {
    return maybe_multiply(grad.t().mm(mat1).t(), alpha);
  }
  return maybe_multiply(mat1.t().mm(grad), alpha);
}
// [end marker: mm_mat2_backward]


namespace {

Tensor zeros_of(IntArrayRef sizes, const Tensor& like) {
  return at::zeros(sizes, like.scalar_type(), std::nullopt, like.device());
}

Tensor zeros_of(IntArrayRef sizes, const at::TensorOptions& options) {
  return at::zeros(sizes, options.dtype(), std::nullopt, options.device());
}

int64_t wrap(int64_t dim, size_t ndim) {
  return c10::maybe_wrap_dim(dim, static_cast<int64_t>(ndim));
}

// The reduced dimensions of a reduction over `dims` (all of them when empty or absent).
std::vector<bool> reduced_dims(OptionalIntArrayRef dims, size_t ndim) {
  std::vector<bool> reduced(ndim, !dims.has_value() || dims->empty());
  if (dims.has_value()) {
    for (int64_t d : *dims) {
      reduced[wrap(d, ndim)] = true;
    }
  }
  return reduced;
}

// A reduction's output (or its gradient) with its reduced dimensions back as size 1.
Tensor unsqueeze_reduced(const Tensor& t, OptionalIntArrayRef dims, size_t ndim, bool keepdim) {
  if (keepdim || ndim == 0) {
    return t;
  }
  auto reduced = reduced_dims(dims, ndim);
  Tensor r = t;
  for (size_t d = 0; d < ndim; ++d) {
    if (reduced[d]) {
      r = r.unsqueeze(static_cast<int64_t>(d));
    }
  }
  return r;
}

// How many elements each output element of a reduction over `dims` summarised.
int64_t reduced_numel(IntArrayRef sizes, OptionalIntArrayRef dims) {
  auto reduced = reduced_dims(dims, sizes.size());
  int64_t n = 1;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (reduced[d]) {
      n *= sizes[d];
    }
  }
  return n;
}

// The product of the elements before each position along `dim` (1 for the first).
Tensor exclusive_cumprod(const Tensor& x, int64_t dim) {
  const int64_t n = x.size(dim);
  auto ones = at::ones_like(x.narrow(dim, 0, 1));
  if (n == 1) {
    return ones;
  }
  return at::cat({ones, x.narrow(dim, 0, n - 1).cumprod(dim)}, dim);
}

}  // namespace

// ---- saved at forward time for a Tensor[] input ----

std::vector<std::vector<int64_t>> to_args_sizes(at::TensorList tensors) {
  std::vector<std::vector<int64_t>> sizes;
  for (const auto& t : tensors) {
    sizes.push_back(t.sizes().vec());
  }
  return sizes;
}

std::vector<at::ScalarType> to_args_scalartypes(at::TensorList tensors) {
  std::vector<at::ScalarType> dtypes;
  for (const auto& t : tensors) {
    dtypes.push_back(t.scalar_type());
  }
  return dtypes;
}

// ---- binary ----

Tensor div_tensor_self_backward(const Tensor& grad, const Tensor& other, at::ScalarType self_st,
                                const std::optional<std::string>& rounding_mode) {
  if (rounding_mode.has_value()) {
    return at::zeros_like(grad, grad.scalar_type());
  }
  return div_tensor_self_backward(grad, other, self_st);
}

Tensor div_tensor_self_backward(const Tensor& grad, const Scalar& other, at::ScalarType self_st,
                                const std::optional<std::string>& rounding_mode) {
  if (rounding_mode.has_value()) {
    return at::zeros_like(grad, grad.scalar_type());
  }
  return div_tensor_self_backward(grad, other, self_st);
}

Tensor div_tensor_other_backward(const Tensor& grad, const Tensor& self, const Tensor& other,
                                 const std::optional<std::string>& rounding_mode) {
  if (rounding_mode.has_value()) {
    return at::zeros_like(grad, grad.scalar_type());
  }
  return div_tensor_other_backward(grad, self, other);
}

// d(x^y)/dx = y * x^(y-1); where y == 0 the gradient is 0 (x^0 is constant, even at x = 0).
Tensor pow_backward_self(const Tensor& grad, const Tensor& self, const Tensor& exponent) {
  auto out = grad * (exponent * self.pow(exponent - 1));
  return at::where(exponent == 0, at::zeros_like(out), out);
}

// d(x^y)/dy = x^y * log(x); 0 where x == 0 and y >= 0 (the limit), rather than 0 * -inf.
Tensor pow_backward_exponent(const Tensor& grad, const Tensor& self, const Tensor& exponent, const Tensor& result) {
  auto out = grad * (result * self.log());
  auto cond = (self == 0).logical_and(exponent >= 0);
  return at::where(cond, at::zeros_like(out), out);
}

Tensor pow_backward_exponent(const Tensor& grad, const Scalar& base, const Tensor& exponent, const Tensor& result) {
  if (base.toDouble() == 0.0) {
    auto out = grad * result;  // placeholder of the right shape and dtype
    return at::where(exponent >= 0, at::zeros_like(out), grad * (result * std::log(0.0)));
  }
  return grad * (result * std::log(base.toDouble()));
}

// atan2(y, x): d/dy = x / (x^2 + y^2), d/dx = -y / (x^2 + y^2).
std::tuple<Tensor, Tensor> atan2_backward(const Tensor& grad, const Tensor& self, const Tensor& other,
                                          std::array<bool, 2> output_mask) {
  if (!grad.defined()) {
    return {Tensor(), Tensor()};
  }
  auto recip = (self * self + other * other).reciprocal();
  return {output_mask[0] ? grad * other * recip : Tensor(), output_mask[1] ? grad * -self * recip : Tensor()};
}

// The gradient passes where the input was not clamped.
Tensor clamp_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max) {
  if (min.has_value() && max.has_value()) {
    return at::where((self >= *min).logical_and(self <= *max), grad, 0);
  }
  if (min.has_value()) {
    return at::where(self >= *min, grad, 0);
  }
  if (max.has_value()) {
    return at::where(self <= *max, grad, 0);
  }
  return grad;
}

Tensor clamp_backward(const Tensor& grad, const Tensor& self, const Tensor& min, const Tensor& max) {
  if (min.defined() && max.defined()) {
    return at::where((self >= min).logical_and(self <= max), grad, 0);
  }
  if (min.defined()) {
    return at::where(self >= min, grad, 0);
  }
  if (max.defined()) {
    return at::where(self <= max, grad, 0);
  }
  return grad;
}

// A bound gets the gradient where it was the value taken (max wins where min > max).
std::tuple<Tensor, Tensor> clamp_backward_min_max(const Tensor& grad, const Tensor& self, const Tensor& min,
                                                  const Tensor& max, std::array<bool, 2> output_mask) {
  if (!grad.defined()) {
    return {Tensor(), Tensor()};
  }
  Tensor grad_min, grad_max;
  if (max.defined() && min.defined()) {
    if (output_mask[0]) {
      grad_min = at::where((self < min).logical_and(min < max), grad, 0);
    }
    if (output_mask[1]) {
      grad_max = at::where((self > max).logical_or(max < min), grad, 0);
    }
  } else if (min.defined() && output_mask[0]) {
    grad_min = at::where(self < min, grad, 0);
  } else if (max.defined() && output_mask[1]) {
    grad_max = at::where(self > max, grad, 0);
  }
  return {grad_min, grad_max};
}

Tensor masked_fill_backward(const Tensor& grad, const Tensor& mask) {
  return at::where(mask, grad, 0).sum();
}

// ---- unary ----

// gelu's second derivative, for the double backward of at::gelu_backward
// (aten/src/ATen/native/Activation.cpp holds the first).
// "none": gelu'(x) = Phi(x) + x phi(x), so gelu''(x) = 2 phi(x) + x phi'(x) = phi(x) (2 - x^2).
// "tanh": with u = beta (x + kappa x^3) and t = tanh(u), gelu'(x) = (1 + t)/2 + x (1 - t^2) u'/2,
// so gelu''(x) = (1 - t^2) (u' - x t u'^2 + x u''/2), where u' = beta (1 + 3 kappa x^2) and
// u'' = 6 beta kappa x.
Tensor gelu_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& self,
                            const std::string& approximate) {
  if (approximate == "tanh") {
    const double kBeta = std::sqrt(2.0 / M_PI);
    const double kKappa = 0.044715;
    auto t = (kBeta * (self + kKappa * self.pow(3))).tanh();
    auto du = kBeta * (1 + 3 * kKappa * self.pow(2));
    auto d2u = (6 * kBeta * kKappa) * self;
    auto second = (1 - t * t) * (du - self * t * du * du + 0.5 * self * d2u);
    return grad * grad_output * second;
  }
  auto pdf = (-0.5 * self * self).exp() * (M_2_SQRTPI * M_SQRT1_2 * 0.5);
  return grad * grad_output * pdf * (2 - self * self);
}

Tensor silu_backward(const Tensor& grad, const Tensor& self) {
  auto sig = self.sigmoid();
  return grad * sig * (1 + self * (1 - sig));
}

// ---- views ----

Tensor unsqueeze_to(const Tensor& self, IntArrayRef dims, IntArrayRef sizes) {
  std::vector<bool> squeezed(sizes.size(), false);
  for (int64_t d : dims) {
    const int64_t w = wrap(d, sizes.size());
    squeezed[w] = !sizes.empty() && sizes[w] == 1;
  }
  Tensor result = self;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (squeezed[d]) {
      result = result.unsqueeze(static_cast<int64_t>(d));
    }
  }
  return result;
}

Tensor diagonal_backward(const Tensor& grad, IntArrayRef input_sizes, int64_t offset, int64_t dim1, int64_t dim2) {
  auto grad_input = zeros_of(input_sizes, grad);
  grad_input.diagonal(offset, dim1, dim2).copy_(grad);
  return grad_input;
}

// Windows overlap when step < size, so the gradient is accumulated with index_add: window k,
// element j of the output came from input position k * step + j along `dim`.
Tensor unfold_backward(const Tensor& grad, IntArrayRef input_sizes, int64_t dim, int64_t size, int64_t step) {
  if (input_sizes.empty()) {
    return grad.reshape(input_sizes);
  }
  dim = wrap(dim, input_sizes.size());
  const int64_t windows = grad.size(dim);
  auto starts = at::arange(windows, at::kLong, std::nullopt, grad.device()) * step;
  auto offsets = at::arange(size, at::kLong, std::nullopt, grad.device());
  auto positions = (starts.unsqueeze(1) + offsets.unsqueeze(0)).reshape({-1});
  // [..., windows, ..., size] -> [..., windows, size, ...] -> [..., windows * size, ...]
  auto g = grad.movedim(grad.dim() - 1, dim + 1).flatten(dim, dim + 1);
  return zeros_of(input_sizes, grad).index_add(dim, positions, g);
}

Tensor split_with_sizes_backward(const std::vector<Tensor>& grads, IntArrayRef split_sizes, int64_t dim,
                                 IntArrayRef sizes, const at::TensorOptions& options) {
  dim = wrap(dim, sizes.size());
  std::vector<Tensor> parts;
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].defined()) {
      parts.push_back(grads[i]);
    } else {
      // An output that got no gradient contributes zeros of its own shape.
      auto part_sizes = sizes.vec();
      part_sizes[dim] = split_sizes[i];
      parts.push_back(zeros_of(part_sizes, options));
    }
  }
  return at::cat(parts, dim);
}

Tensor split_backward(const std::vector<Tensor>& grads, int64_t split_size, int64_t dim, IntArrayRef sizes,
                      const at::TensorOptions& options) {
  const int64_t dim_size = sizes[wrap(dim, sizes.size())];
  std::vector<int64_t> split_sizes;
  for (int64_t start = 0; start < dim_size || (dim_size == 0 && split_sizes.empty()); start += split_size) {
    split_sizes.push_back(std::min(split_size, dim_size - start));
    if (split_size == 0) break;
  }
  return split_with_sizes_backward(grads, split_sizes, dim, sizes, options);
}

// The engine calls a node when at least one output got a gradient: that one gives the
// shape and dtype of the zeros standing in for the others.
Tensor unbind_backward(const std::vector<Tensor>& grads, int64_t dim) {
  Tensor like;
  for (const auto& g : grads) {
    if (g.defined()) {
      like = g;
      break;
    }
  }
  TORCH_INTERNAL_ASSERT(like.defined(), "unbind_backward: no output has a gradient");
  const int64_t out_dim = wrap(dim, static_cast<size_t>(like.dim() + 1));
  std::vector<Tensor> parts;
  for (const auto& g : grads) {
    parts.push_back(g.defined() ? g : at::zeros_like(like));
  }
  return at::stack(parts, out_dim);
}

// ---- reductions ----

Tensor restore_reduced_dims(const Tensor& output, IntArrayRef dims, bool keepdim) {
  // The input had output.dim() + (number of reduced dims) dimensions unless keepdim.
  if (keepdim) {
    return output;
  }
  const size_t ndim = dims.empty() ? 0 : output.dim() + dims.size();
  if (dims.empty()) {
    return output;  // a full reduction: the scalar broadcasts against the input
  }
  return unsqueeze_reduced(output, dims, ndim, false);
}

// Split the gradient evenly among the elements that attained the extreme value.
Tensor scale_grad_by_count(const Tensor& grad, const Tensor& mask, IntArrayRef dims) {
  auto count = dims.empty() ? mask.sum() : mask.sum(dims, true);
  return (grad / count) * mask;
}

// The product of all elements but one, computed without dividing (zeros are allowed): the
// product of those before it times the product of those after it.
Tensor aminmax_backward(const Tensor& grad_min, const Tensor& grad_max, const Tensor& self, std::optional<int64_t> dim,
                        bool keepdim, const Tensor& min, const Tensor& max) {
  std::vector<int64_t> dims;
  if (dim.has_value() && self.dim() > 0) {
    dims.push_back(wrap(*dim, self.dim()));
  }
  // dim=None with keepdim: the results have self.dim() ones, which broadcast as they are.
  const bool keep = keepdim || dims.empty();
  Tensor result = at::zeros_like(self);
  for (const auto& [g, value] : {std::pair<Tensor, Tensor>{grad_min, min}, std::pair<Tensor, Tensor>{grad_max, max}}) {
    if (!g.defined()) continue;
    const Tensor mask = restore_reduced_dims(value, dims, keep) == self;
    result = result + scale_grad_by_count(restore_reduced_dims(g, dims, keep), mask, dims);
  }
  return result;
}

std::tuple<Tensor, Tensor> scatter_reduce_backward(const Tensor& grad, const Tensor& self, int64_t dim,
                                                   const Tensor& index, const Tensor& src, c10::string_view reduce,
                                                   bool include_self, const Tensor& result) {
  Tensor grad_self, grad_src;
  if (reduce == "sum") {
    grad_self = grad;
    grad_src = grad.gather(dim, index);
  } else if (reduce == "mean") {
    // Each output was divided by its count (1 for self, if included, plus the scattered).
    Tensor count = include_self ? at::ones_like(grad) : at::zeros_like(grad);
    count = count.scatter_add(dim, index, at::ones_like(src));
    count = count.masked_fill(count == 0, 1);
    grad_self = grad / count;
    grad_src = (grad / count).gather(dim, index);
  } else if (reduce == "amax" || reduce == "amin") {
    const Tensor value = result.gather(dim, index);
    const Tensor self_is_result = (self == result).to(grad.scalar_type());
    const Tensor src_is_result = (src == value).to(grad.scalar_type());
    const Tensor n = (include_self ? self_is_result : at::zeros_like(self_is_result)).scatter_add(dim, index,
                                                                                                 src_is_result);
    const Tensor distributed = grad / n.masked_fill(n == 0, 1);
    grad_self = self_is_result * distributed;
    grad_src = src_is_result * distributed.gather(dim, index);
  } else if (reduce == "prod") {
    // d(prod)/dx = prod / x; zeros in the inputs are not supported here.
    TORCH_CHECK((self == 0).sum().item().toLong() == 0 && (src == 0).sum().item().toLong() == 0,
                "scatter_reduce(): the gradient of reduce='prod' with zeros in the input is not supported");
    const Tensor g = grad * result;
    grad_self = g / self;
    grad_src = g.gather(dim, index) / src;
  } else {
    TORCH_CHECK(false, "reduce argument must be either sum, prod, mean, amax or amin, got ",
                std::string(reduce.data(), reduce.size()));
  }
  if (!include_self) {
    // Positions scattered to did not read self.
    grad_self = grad_self.scatter(dim, index, 0);
  }
  return {grad_self, grad_src};
}

Tensor cummaxmin_backward(const Tensor& grad, const Tensor& self, const Tensor& indices, int64_t dim) {
  if (self.numel() == 0) {
    return self;
  }
  return at::zeros_like(self).scatter_add(dim, indices, grad);
}

Tensor prod_backward(const Tensor& grad, const Tensor& input, const Tensor& result, int64_t dim, bool keepdim) {
  (void)result;
  if (input.dim() == 0) {
    return grad;
  }
  dim = wrap(dim, input.dim());
  auto g = keepdim ? grad : grad.unsqueeze(dim);
  auto before = exclusive_cumprod(input, dim);
  auto after = exclusive_cumprod(input.flip({dim}), dim).flip({dim});
  return g * before * after;
}

Tensor prod_backward(const Tensor& grad, const Tensor& input, const Tensor& result) {
  if (input.dim() == 0) {
    return grad;
  }
  auto flat = input.reshape({-1});
  return prod_backward(grad.reshape({1}), flat, result, 0, true).reshape(input.sizes());
}

// max.dim, min.dim, sort, topk: each output value came from one input element (indices).
Tensor value_selecting_reduction_backward(const Tensor& grad, int64_t dim, const Tensor& indices, IntArrayRef sizes,
                                          bool keepdim) {
  if (sizes.empty()) {
    return grad.reshape(sizes);
  }
  dim = wrap(dim, sizes.size());
  auto g = keepdim ? grad : grad.unsqueeze(dim);
  auto i = keepdim ? indices : indices.unsqueeze(dim);
  return zeros_of(sizes, grad).scatter(dim, i, g);
}

// max(), min(): ties share the gradient equally (a NaN result selects the NaNs).
Tensor evenly_distribute_backward(const Tensor& grad, const Tensor& input, const Tensor& value) {
  auto mask = value.isnan().item().toBool() ? input.isnan() : (input == value);
  return mask * (grad / mask.sum());
}

Tensor var_backward(const Tensor& grad, const Tensor& self, OptionalIntArrayRef dim,
                    const std::optional<Scalar>& correction, bool keepdim) {
  const double c = correction.has_value() ? correction->toDouble() : 1.0;
  const int64_t n = reduced_numel(self.sizes(), dim);
  const double dof = std::max(0.0, static_cast<double>(n) - c);
  auto g = unsqueeze_reduced(grad, dim, self.dim(), keepdim);
  auto mean = (dim.has_value() && !dim->empty()) ? self.mean(dim, true) : self.mean();
  auto centered = self - mean;
  return (2.0 / dof) * g * centered;
}

Tensor std_backward(const Tensor& result, const Tensor& grad, const Tensor& self, OptionalIntArrayRef dim,
                    const std::optional<Scalar>& correction, bool keepdim) {
  // d std = d var / (2 std); where std == 0 the gradient is taken as 0.
  auto grad_var = at::where(result == 0, at::zeros_like(grad), grad / (result * 2));
  return var_backward(grad_var, self, dim, correction, keepdim);
}

Tensor var_mean_backward(const Tensor& gvar, const Tensor& gmean, const Tensor& self, OptionalIntArrayRef dim,
                         const std::optional<Scalar>& correction, bool keepdim) {
  Tensor gself;
  if (gvar.defined()) {
    gself = var_backward(gvar, self, dim, correction, keepdim);
  }
  if (gmean.defined()) {
    auto g = mean_backward(gmean, self.sizes(), dim.has_value() && !dim->empty() ? dim : OptionalIntArrayRef(),
                           self.numel(), keepdim);
    gself = gself.defined() ? gself + g : g;
  }
  return gself;
}

Tensor std_mean_backward(const Tensor& gstd, const Tensor& gmean, const Tensor& self, const Tensor& std,
                         OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim) {
  Tensor gself;
  if (gstd.defined()) {
    gself = std_backward(std, gstd, self, dim, correction, keepdim);
  }
  if (gmean.defined()) {
    auto g = mean_backward(gmean, self.sizes(), dim.has_value() && !dim->empty() ? dim : OptionalIntArrayRef(),
                           self.numel(), keepdim);
    gself = gself.defined() ? gself + g : g;
  }
  return gself;
}

// d||x||_p / dx = sign(x) |x|^(p-1) / ||x||^(p-1); p = 2 gives x / ||x||, p = 1 gives sign(x),
// p = inf shares the gradient among the elements of largest |x|, p = 0 (a count) gives 0.
Tensor linalg_vector_norm_backward(const Tensor& grad, const Tensor& self, const Scalar& ord, const Tensor& norm,
                                   OptionalIntArrayRef dim, bool keepdim) {
  const double p = ord.toDouble();
  const size_t ndim = self.dim();
  auto g = unsqueeze_reduced(grad, dim, ndim, keepdim);
  auto n = unsqueeze_reduced(norm, dim, ndim, keepdim);
  if (p == 0.0) {
    return at::zeros_like(self);
  }
  if (p == 1.0) {
    return self.sign() * g;
  }
  if (p == 2.0) {
    return at::where(n == 0, at::zeros_like(self), self * (g / n));
  }
  if (std::isinf(p)) {
    auto mask = self.abs() == n;
    auto count = (dim.has_value() && !dim->empty()) ? mask.sum(*dim, true) : mask.sum();
    return self.sign() * mask * (g / count);
  }
  auto scaled = self * self.abs().pow(p - 2) * g / n.pow(p - 1);
  return at::where(n == 0, at::zeros_like(self), scaled);
}

Tensor norm_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& p, const Tensor& norm) {
  return linalg_vector_norm_backward(grad, self, p.value_or(2), norm, std::nullopt, false);
}

Tensor norm_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& p, const Tensor& norm,
                     IntArrayRef dim, bool keepdim) {
  return linalg_vector_norm_backward(grad, self, p.value_or(2), norm, dim, keepdim);
}

// d logsumexp(x) / dx = softmax(x) = exp(x - logsumexp(x)).
Tensor logsumexp_backward(const Tensor& grad, const Tensor& self, const Tensor& result, IntArrayRef dim, bool keepdim) {
  const size_t ndim = self.dim();
  auto g = unsqueeze_reduced(grad, dim, ndim, keepdim);
  auto r = unsqueeze_reduced(result, dim, ndim, keepdim);
  return g * (self - r).exp();
}

// Input i reaches every output j >= i: the gradient is a cumulative sum taken from the end.
Tensor cumsum_backward(const Tensor& grad, int64_t dim) {
  if (grad.dim() == 0) {
    return grad;
  }
  return grad.flip({dim}).cumsum(dim).flip({dim});
}

// d out_j / d x_i = prod_{k <= j, k != i} x_k for j >= i. Without zeros that is out_j / x_i,
// giving a reversed cumulative sum; with zeros, each x_i is replaced by 1 in a copy of the
// input (one copy per position along dim) and the products are taken directly.
Tensor cumprod_backward(const Tensor& grad, const Tensor& input, int64_t dim, const Tensor& output) {
  if (input.dim() == 0 || input.numel() == 0) {
    return grad;
  }
  dim = wrap(dim, input.dim());
  if ((input == 0).sum().item().toLong() == 0) {
    return cumsum_backward(grad * output, dim) / input;
  }
  const int64_t n = input.size(dim);
  auto x = input.movedim(dim, -1);                                // [..., n]
  auto g = grad.movedim(dim, -1);                                 // [..., n]
  auto eye = at::eye(n, at::kBool, std::nullopt, input.device());  // [i, k]
  auto copies_sizes = x.sizes().vec();
  copies_sizes.insert(copies_sizes.end() - 1, n);
  auto copies = x.unsqueeze(-2).expand(copies_sizes).masked_fill(eye, 1);  // [..., i, k]: x with x_i = 1
  auto prods = copies.cumprod(-1);                                // [..., i, j]
  auto upper = at::ones({n, n}, at::kBool, std::nullopt, input.device()).triu();  // j >= i
  const int64_t last = -1;  // (an IntArrayRef over a literal would outlive it)
  auto grad_x = (prods * upper * g.unsqueeze(-2)).sum(IntArrayRef(last), false);  // [..., i]
  return grad_x.movedim(-1, dim);
}

// The backwards of softmax and log_softmax are kernels (at::_softmax_backward_data,
// aten/src/ATen/native/SoftMax.cpp). With gI = y (g - sum(g y)) for softmax, the derivative
// with respect to the saved output y, for a gradient gg of gI, is
// gg (g - sum(g y)) - g sum(gg y).
Tensor softmax_double_backward(const Tensor& grad, const Tensor& grad_output, int64_t dim, const Tensor& output) {
  return grad * (grad_output - (grad_output * output).sum(IntArrayRef(dim), true)) -
         grad_output * (grad * output).sum(IntArrayRef(dim), true);
}

// log_softmax: gI = g - exp(y) sum(g). With respect to g: gg - sum(gg exp(y));
// with respect to y: -gg exp(y) sum(g).
Tensor log_softmax_double_backward_grad_output(const Tensor& grad, int64_t dim, const Tensor& output) {
  return grad - (grad * output.exp()).sum(IntArrayRef(dim), true);
}

Tensor log_softmax_double_backward_output(const Tensor& grad, const Tensor& grad_output, int64_t dim,
                                          const Tensor& output) {
  return -grad * output.exp() * grad_output.sum(IntArrayRef(dim), true);
}

// ---- indexing ----

// Elements picked several times get the sum of their gradients (accumulate = true).
Tensor index_backward(const Tensor& grad, IntArrayRef self_sizes, at::ArrayRef<std::optional<Tensor>> indices) {
  return at::index_put(zeros_of(self_sizes, grad), indices, grad, true);
}

// Without accumulate the written positions held values, not self: their gradient is zero.
Tensor index_put_self_backward(const Tensor& grad, at::ArrayRef<std::optional<Tensor>> indices, bool accumulate) {
  if (accumulate) {
    return grad;
  }
  return grad.index_put(indices, at::zeros({}, grad.scalar_type(), std::nullopt, grad.device()), false);
}

Tensor index_select_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim, const Tensor& index) {
  if (self_sizes.empty()) {
    return grad.sum().reshape(self_sizes);
  }
  return zeros_of(self_sizes, grad).index_add(dim, index, grad);
}

Tensor gather_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim, const Tensor& index) {
  return zeros_of(self_sizes, grad).scatter_add(dim, index, grad);
}

Tensor masked_select_backward(const Tensor& grad, const Tensor& self, const Tensor& mask) {
  auto shape = at::infer_size(self.sizes(), mask.sizes());
  return zeros_of(shape, grad).masked_scatter(mask.expand(shape), grad);
}

// The first mask.sum() elements of source were used, in order; the rest get zeros.
Tensor masked_scatter_backward(const Tensor& grad, const Tensor& mask, IntArrayRef source_sizes) {
  int64_t numel = 1;
  for (int64_t s : source_sizes) numel *= s;
  auto used = at::masked_select(grad, mask);
  const int64_t rest = numel - used.numel();
  if (rest > 0) {
    used = at::cat({used, at::zeros({rest}, grad.scalar_type(), std::nullopt, grad.device())});
  }
  return used.reshape(source_sizes);
}

Tensor take_backward(const Tensor& grad, IntArrayRef self_sizes, const Tensor& index) {
  auto flat = zeros_of(self_sizes, grad).reshape({-1});
  std::vector<std::optional<Tensor>> indices{index.reshape({-1})};
  return at::index_put(flat, indices, grad.reshape({-1}), true).reshape(self_sizes);
}

// ---- joining, repeating, reordering ----

std::vector<Tensor> cat_tensors_backward(const Tensor& grad, const std::vector<std::vector<int64_t>>& sizes,
                                         const std::vector<at::ScalarType>& dtypes, int64_t dim) {
  std::vector<Tensor> grads;
  if (!grad.defined()) {
    return grads;
  }
  dim = wrap(dim, grad.dim());
  int64_t offset = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const auto& shape = sizes[i];
    if (shape.size() == 1 && shape[0] == 0) {
      // A legacy empty 1-d input (skipped by cat): its gradient is empty too.
      grads.push_back(at::zeros({0}, dtypes[i], std::nullopt, grad.device()));
      continue;
    }
    const int64_t len = shape[dim];
    grads.push_back(grad.narrow(dim, offset, len));
    offset += len;
  }
  return grads;
}

std::vector<Tensor> stack_tensors_backward(const Tensor& grad, int64_t dim, const std::vector<at::ScalarType>& dtypes) {
  (void)dtypes;
  return grad.unbind(dim);
}

// repeat tiles the input: view the gradient as [r0, s0, r1, s1, ...] and sum over the r's.
Tensor repeat_backward(const Tensor& grad, IntArrayRef repeats, IntArrayRef input_sizes) {
  const int64_t extra = static_cast<int64_t>(repeats.size() - input_sizes.size());
  Tensor g = grad;
  if (extra > 0) {
    std::vector<int64_t> lead(extra);
    for (int64_t i = 0; i < extra; ++i) lead[i] = i;
    g = g.sum(lead, false);
  }
  std::vector<int64_t> shape, sum_dims;
  for (size_t i = 0; i < input_sizes.size(); ++i) {
    sum_dims.push_back(static_cast<int64_t>(shape.size()));
    shape.push_back(repeats[extra + i]);
    shape.push_back(input_sizes[i]);
  }
  if (sum_dims.empty()) {
    return g;
  }
  return g.reshape(shape).sum(sum_dims, false);
}

Tensor roll_backward(const Tensor& grad, IntArrayRef shifts, IntArrayRef dims) {
  std::vector<int64_t> back;
  for (int64_t s : shifts) back.push_back(-s);
  return grad.roll(back, dims);
}

namespace {
bool is_defined(const std::optional<Tensor>& t) {
  return t.has_value() && t->defined();
}

// The weight, then the 1 / numel of 'mean': what every loss gradient below ends with.
Tensor weight_and_mean(Tensor g, const std::optional<Tensor>& weight, int64_t reduction, int64_t numel) {
  if (is_defined(weight)) {
    g = g * *weight;
  }
  return reduction == at::Reduction::Mean ? g / numel : g;
}

// log(sigmoid(x)) without overflow: min(x, 0) - log1p(exp(-|x|)).
Tensor log_sigmoid(const Tensor& x) {
  return at::clamp_max(x, 0) - at::log1p(at::exp(-at::abs(x)));
}
}  // namespace

// d/dy of -w (y log x + (1 - y) log(1 - x)) is -w (log x - log(1 - x)), the logs clamped at
// -100 as the forward clamps them (PyTorch's FunctionsManual.cpp formula).
Tensor binary_cross_entropy_target_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                                            const std::optional<Tensor>& weight, int64_t reduction) {
  Tensor grad_target = at::clamp_min(at::log(1 - self), -100) - at::clamp_min(at::log(self), -100);
  return weight_and_mean(grad_target * grad, weight, reduction, target.numel());
}

// d/dx of (1 - y) x - (1 + (p - 1) y) log sigmoid(x) is (1 + (p - 1) y) sigmoid(x) - p y, which
// is sigmoid(x) - y without pos_weight p (PyTorch's FunctionsManual.cpp formulas).
Tensor binary_cross_entropy_with_logits_backward(const Tensor& grad, const Tensor& input, const Tensor& target,
                                                const std::optional<Tensor>& weight,
                                                const std::optional<Tensor>& pos_weight, int64_t reduction) {
  Tensor grad_input;
  if (is_defined(pos_weight)) {
    const Tensor t = *pos_weight * target;
    grad_input = (t + 1 - target) * at::sigmoid(input) - t;
  } else {
    grad_input = at::sigmoid(input) - target;
  }
  return weight_and_mean(grad_input * grad, weight, reduction, input.numel());
}

// d/dy of the same: log sigmoid(-x) - p log sigmoid(x), which is -x without pos_weight.
Tensor binary_cross_entropy_with_logits_target_backward(const Tensor& grad, const Tensor& input, const Tensor& target,
                                                       const std::optional<Tensor>& weight,
                                                       const std::optional<Tensor>& pos_weight, int64_t reduction) {
  Tensor grad_target = is_defined(pos_weight) ? log_sigmoid(-input) - log_sigmoid(input) * *pos_weight : -input;
  return weight_and_mean(grad_target * grad, weight, reduction, target.numel());
}

// ---- math and shape operators (copysign, trace, block_diag) ----

// copysign(x, y) is |x| or -|x|: d/dx is result / x (+1 or -1), taken as 0 at x == 0 where
// the sign of the result does not follow x.
Tensor copysign_tensor_self_backward(const Tensor& grad, const Tensor& self, const Tensor& result) {
  auto ratio = result / self;
  ratio.masked_fill_(self.eq(0), 0);
  return grad * ratio;
}

// trace sums the diagonal: its gradient is grad on the diagonal, zero elsewhere.
Tensor trace_backward(const Tensor& grad, IntArrayRef sizes) {
  TORCH_CHECK(sizes.size() == 2, "expected matrix input");
  auto grad_input = at::zeros({sizes[0] * sizes[1]}, grad.scalar_type(), std::nullopt, grad.device(), std::nullopt);
  // The diagonal of a row-major (rows x cols) matrix is every (cols + 1)-th element.
  const int64_t n = std::min(sizes[0], sizes[1]);
  grad_input.as_strided({n}, {sizes[1] + 1}, 0).fill_(grad);
  return grad_input.view({sizes[0], sizes[1]});
}

// Each input's gradient is its block of grad: rows and columns advance by the sizes of the
// blocks before it (a 1-D input was a 1 x n block, a 0-D input a 1 x 1 block).
std::vector<Tensor> block_diag_backward(const Tensor& grad, const std::vector<std::vector<int64_t>>& sizes,
                                        const std::vector<at::ScalarType>& dtypes) {
  std::vector<Tensor> grad_inputs(sizes.size());
  if (!grad.defined()) {
    return grad_inputs;
  }
  int64_t row = 0, col = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const auto& shape = sizes[i];
    const int64_t rows = shape.size() == 2 ? shape[0] : 1;
    const int64_t cols = shape.size() == 2 ? shape[1] : (shape.size() == 1 ? shape[0] : 1);
    auto block = grad.slice(0, row, row + rows).slice(1, col, col + cols);
    if (shape.size() < 2) {
      block = block.reshape(shape);
    }
    grad_inputs[i] = block.to(dtypes[i]);
    row += rows;
    col += cols;
  }
  return grad_inputs;
}

}  // namespace torch::autograd::generated::details
