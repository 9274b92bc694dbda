// aten/src/ATen/native/LinearAlgebra.cpp - matmul (and its out= form) and outer: products built from mm, mv, bmm, dot;
// linalg_svdvals (singular values, for the nuclear norm).
// Mirrors PyTorch's aten/src/ATen/native/LinearAlgebra.cpp (_matmul_impl, should_fold, outer) and
// BatchLinearAlgebra.cpp (linalg_svdvals).
// Guide: docs/source/internals/one_call.rst.
//
// matmul is CompositeImplicitAutograd: it only reshapes and calls other operators, so the
// dispatcher never sees "matmul" below autograd - it sees dot, mv, mm or bmm:
//   1-D @ 1-D  -> dot                 2-D @ 1-D -> mv              1-D @ 2-D -> (1 x k) mm, squeezed
//   2-D @ 2-D  -> mm                  N-D @ 1-D/2-D (and the mirror) -> folded into one mm/mv
//   otherwise  -> the batch dimensions broadcast, flattened into one, and bmm.
#include <ATen/ExpandUtils.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/Resize.h>
#include <c10/core/WrapDimMinimal.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace at::native {

namespace {

// Fold when one side has >= 3 dims and the other <= 2, and the big side's batch dims can be
// merged with a view: then [b, n, k] @ [k, m] is one (b*n x k) @ (k x m) mm, not b small ones.
bool should_fold(const Tensor& tensor1, const Tensor& tensor2) {
  const int64_t dim_tensor1 = tensor1.dim(), dim_tensor2 = tensor2.dim();
  const bool tensor1_larger = dim_tensor1 >= dim_tensor2;
  const Tensor t1 = tensor1_larger ? tensor1 : tensor2.transpose(-2, -1);
  const int64_t dim_t1 = t1.dim();
  const int64_t dim_t2 = tensor1_larger ? dim_tensor2 : dim_tensor1;
  if (!(dim_t1 >= 3 && dim_t2 <= 2)) {
    return false;
  }
  for (int64_t i = 0; i < dim_t1 - 2; i++) {
    if (t1.stride(i) != t1.stride(i + 1) * t1.size(i + 1)) {
      return false;
    }
  }
  return true;
}

}  // namespace

Tensor matmul(const Tensor& tensor1, const Tensor& tensor2) {
  const int64_t dim_tensor1 = tensor1.dim(), dim_tensor2 = tensor2.dim();
  TORCH_CHECK(dim_tensor1 != 0 && dim_tensor2 != 0, "both arguments to matmul need to be at least 1D, but they are ",
              dim_tensor1, "D and ", dim_tensor2, "D");
  if (dim_tensor1 == 1 && dim_tensor2 == 1) {
    return tensor1.dot(tensor2);
  }
  if (dim_tensor1 == 2 && dim_tensor2 == 1) {
    return tensor1.mv(tensor2);
  }
  if (dim_tensor1 == 1 && dim_tensor2 == 2) {
    return tensor1.unsqueeze(0).mm(tensor2).squeeze(0);
  }
  if (dim_tensor1 == 2 && dim_tensor2 == 2) {
    return tensor1.mm(tensor2);
  }
  if (should_fold(tensor1, tensor2)) {
    // The larger side is t1 (transposed when it was the right one: (A @ B)^T = B^T @ A^T).
    const bool transpose = dim_tensor2 > dim_tensor1;
    const Tensor t1 = transpose ? tensor2.transpose(-2, -1) : tensor1;
    const Tensor t2 = !transpose ? tensor2 : (dim_tensor1 == 2 ? tensor1.t() : tensor1);
    std::vector<int64_t> output_shape(t1.sizes().begin(), t1.sizes().end() - 1);
    if (t2.dim() == 2) {
      output_shape.push_back(t2.size(1));
    }
    const Tensor t1_folded = t1.reshape({-1, t1.size(-1)});
    const Tensor output = (t2.dim() == 1 ? t1_folded.mv(t2) : t1_folded.mm(t2)).view(output_shape);
    return transpose ? output.transpose(-2, -1) : output;
  }
  // Batched: broadcast the batch dims, flatten them into one, bmm, and view the result.
  const int64_t n = dim_tensor1 > 1 ? tensor1.size(-2) : 1;
  const int64_t m1 = tensor1.size(-1);
  const IntArrayRef batch_tensor1 = tensor1.sizes().slice(0, std::max<int64_t>(dim_tensor1 - 2, 0));
  const int64_t m2 = dim_tensor2 > 1 ? tensor2.size(-2) : tensor2.size(0);
  const int64_t p = dim_tensor2 > 1 ? tensor2.size(-1) : 1;
  const IntArrayRef batch_tensor2 =
      dim_tensor2 > 1 ? tensor2.sizes().slice(0, dim_tensor2 - 2) : IntArrayRef();
  std::vector<int64_t> expand_batch_portion = infer_size(batch_tensor1, batch_tensor2);
  const int64_t expand_batch_product =
      std::accumulate(expand_batch_portion.begin(), expand_batch_portion.end(), int64_t{1}, std::multiplies<>());

  std::vector<int64_t> tensor1_expand_size(expand_batch_portion);
  tensor1_expand_size.insert(tensor1_expand_size.end(), {n, m1});
  std::vector<int64_t> output_shape(expand_batch_portion);
  if (dim_tensor1 > 1) output_shape.push_back(n);
  if (dim_tensor2 > 1) output_shape.push_back(p);

  const Tensor tensor1_expanded =
      tensor1.expand(tensor1_expand_size).reshape({expand_batch_product, n, m1});
  Tensor tensor2_expanded;
  if (dim_tensor2 == 1) {
    std::vector<int64_t> size2(expand_batch_portion);
    size2.push_back(m2);
    tensor2_expanded = tensor2.expand(size2).reshape({expand_batch_product, m2}).unsqueeze(2);
  } else {
    std::vector<int64_t> size2(expand_batch_portion);
    size2.insert(size2.end(), {m2, p});
    tensor2_expanded = tensor2.expand(size2).reshape({expand_batch_product, m2, p});
  }
  return tensor1_expanded.bmm(tensor2_expanded).view(output_shape);
}

Tensor& matmul_out(const Tensor& tensor1, const Tensor& tensor2, Tensor& out) {
  const Tensor result = at::matmul(tensor1, tensor2);
  TORCH_CHECK(out.scalar_type() == result.scalar_type(), "Expected out tensor to have dtype ", result.dtype(),
              ", but got ", out.dtype(), " instead");
  resize_output(out, result.sizes());
  out.copy_(result);
  return out;
}

Tensor outer(const Tensor& self, const Tensor& vec2) {
  TORCH_CHECK(self.dim() == 1, "outer: Expected 1-D argument self, but got ", self.dim(), "-D");
  TORCH_CHECK(vec2.dim() == 1, "outer: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  // A column times a row, broadcast: mul's type promotion applies (int64 x float -> float).
  return at::mul(self.unsqueeze(1), vec2);
}

// ---- singular values ----

namespace {

// The singular values of one m x n matrix (row-major doubles, m >= n), by one-sided Jacobi
// (Hestenes): rotate pairs of columns until every pair is orthogonal; the column norms are
// then the singular values. PyTorch calls LAPACK's gesdd here; this is the short, exact-enough
// method a reader can follow (quadratic convergence, a handful of sweeps).
std::vector<double> jacobi_singular_values(std::vector<double> a, int64_t m, int64_t n) {
  const double eps = std::numeric_limits<double>::epsilon();
  for (int sweep = 0; sweep < 100; sweep++) {
    bool rotated = false;
    for (int64_t p = 0; p < n; p++) {
      for (int64_t q = p + 1; q < n; q++) {
        double alpha = 0, beta = 0, gamma = 0;
        for (int64_t i = 0; i < m; i++) {
          const double up = a[i * n + p], uq = a[i * n + q];
          alpha += up * up;
          beta += uq * uq;
          gamma += up * uq;
        }
        if (gamma == 0 || std::abs(gamma) <= eps * std::sqrt(alpha * beta)) {
          continue;
        }
        rotated = true;
        const double zeta = (beta - alpha) / (2 * gamma);
        const double t = (zeta >= 0 ? 1.0 : -1.0) / (std::abs(zeta) + std::sqrt(1 + zeta * zeta));
        const double c = 1 / std::sqrt(1 + t * t), sn = c * t;
        for (int64_t i = 0; i < m; i++) {
          const double up = a[i * n + p], uq = a[i * n + q];
          a[i * n + p] = c * up - sn * uq;
          a[i * n + q] = sn * up + c * uq;
        }
      }
    }
    if (!rotated) {
      break;
    }
  }
  std::vector<double> sv(n);
  for (int64_t j = 0; j < n; j++) {
    double norm2 = 0;
    for (int64_t i = 0; i < m; i++) norm2 += a[i * n + j] * a[i * n + j];
    sv[j] = std::sqrt(norm2);
  }
  std::sort(sv.begin(), sv.end(), std::greater<double>());
  return sv;
}

}  // namespace

// Singular values of each matrix in the batch [..., m, n]: min(m, n) of them, descending.
Tensor linalg_svdvals(const Tensor& A, std::optional<c10::string_view> driver) {
  (void)driver;  // a CUDA (cuSOLVER) option in PyTorch
  TORCH_CHECK(A.dim() >= 2, "linalg.svd: The input tensor A must have at least 2 dimensions.");
  const ScalarType dtype = A.scalar_type();
  TORCH_CHECK(isFloatingType(dtype) || isComplexType(dtype),
              "linalg.svd: Expected a floating point or complex tensor as input. Got ", dtype);
  TORCH_CHECK_NOT_IMPLEMENTED(dtype == kFloat || dtype == kDouble, "\"linalg_svd_cpu\" not implemented for '",
                              c10::toString(dtype), "'");
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  std::vector<int64_t> out_shape(A.sizes().begin(), A.sizes().end() - 2);
  out_shape.push_back(k);
  Tensor out = at::empty(out_shape, dtype, std::nullopt, A.device(), std::nullopt, std::nullopt);
  if (out.numel() == 0 || out.is_meta()) {
    return out;
  }
  // Each matrix as doubles, transposed when it is wide so that rows >= columns.
  Tensor mats = (m >= n ? A : A.transpose(-2, -1)).to(kDouble).contiguous();
  const int64_t rows = std::max(m, n), cols = k, batch = out.numel() / k;
  const double* src = mats.const_data_ptr<double>();
  AT_DISPATCH_FLOATING_TYPES(dtype, "linalg_svd_cpu", [&] {
    scalar_t* dst = out.mutable_data_ptr<scalar_t>();
    at::parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; b++) {
        std::vector<double> a(src + b * rows * cols, src + (b + 1) * rows * cols);
        const auto sv = jacobi_singular_values(std::move(a), rows, cols);
        for (int64_t j = 0; j < k; j++) dst[b * k + j] = static_cast<scalar_t>(sv[j]);
      }
    });
  });
  return out;
}

// The nuclear norm of the matrices over two dims: the sum of their singular values (PyTorch's
// linalg_matrix_norm(A, "nuc", dim, keepdim); torch.norm(A, "nuc") comes here). PyTorch also
// warns that at::nuclear_norm is deprecated in favour of linalg.matrix_norm, which this tree
// does not bind to Python yet, so no warning here.
Tensor nuclear_norm(const Tensor& self, IntArrayRef dim, bool keepdim) {
  TORCH_CHECK(self.dim() >= 2, "linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
  const ScalarType dtype = self.scalar_type();
  TORCH_CHECK(isFloatingType(dtype) || isComplexType(dtype),
              "linalg.matrix_norm: Expected a floating point or complex tensor as input. Got ", dtype);
  TORCH_CHECK(!isReducedFloatingType(dtype) && dtype != kComplexHalf,
              "linalg.matrix_norm: Low precision dtypes not supported. Got ", dtype);
  TORCH_CHECK(dim.size() == 2, "linalg.matrix_norm: dim must be a 2-tuple. Got ", dim);
  const int64_t d0 = c10::maybe_wrap_dim(dim[0], self.dim()), d1 = c10::maybe_wrap_dim(dim[1], self.dim());
  TORCH_CHECK(d0 != d1, "linalg.matrix_norm: dims must be different. Got (", dim[0], ", ", dim[1], ")");
  const std::vector<int64_t> source{d0, d1}, destination{-2, -1}, last{-1};
  Tensor result = at::linalg_svdvals(self.movedim(source, destination)).sum(last);
  if (keepdim) {
    result = result.unsqueeze(std::min(d0, d1)).unsqueeze(std::max(d0, d1));
  }
  return result;
}

Tensor nuclear_norm(const Tensor& self, bool keepdim) {
  return at::native::nuclear_norm(self, IntArrayRef{-2, -1}, keepdim);
}

}  // namespace at::native

// ---- inner, kron, vdot ----
namespace at::native {

// inner(a, b): the sum over the last dimension of both (a tensordot over one pair of dims);
// a 0-D operand just multiplies.
Tensor inner(const Tensor& self, const Tensor& other) {
  if (self.dim() == 0 || other.dim() == 0) {
    return at::mul(self, other);
  }
  TORCH_CHECK(self.size(-1) == other.size(-1),
              "inner() the last dimension must match on both input tensors but got shapes ", self.sizes(), " and ",
              other.sizes());
  return at::tensordot(self, other, {self.dim() - 1}, {other.dim() - 1});
}

Tensor& inner(const Tensor& self, const Tensor& other, Tensor& out) {
  auto result = at::native::inner(self, other);
  at::native::resize_output(out, result.sizes());
  return out.copy_(result);
}

// kron(a, b): every element of a times the whole of b. Both are padded with leading 1s to
// the same rank n; a viewed as (a0, 1, a1, 1, ...) times b viewed as (1, b0, 1, b1, ...)
// broadcasts to (a0, b0, a1, b1, ...), which reshapes to (a0 b0, a1 b1, ...).
Tensor kron(const Tensor& self, const Tensor& other) {
  const int64_t maxdim = std::max(self.dim(), other.dim());
  const int64_t pad_self = maxdim - self.dim(), pad_other = maxdim - other.dim();
  std::vector<int64_t> a_shape(2 * maxdim), b_shape(2 * maxdim), result_shape(maxdim);
  for (int64_t i = 0; i < maxdim; ++i) {
    a_shape[2 * i] = i >= pad_self ? self.size(i - pad_self) : 1;
    a_shape[2 * i + 1] = 1;
    b_shape[2 * i] = 1;
    b_shape[2 * i + 1] = i >= pad_other ? other.size(i - pad_other) : 1;
    result_shape[i] = a_shape[2 * i] * b_shape[2 * i + 1];
  }
  return at::mul(self.view(a_shape), other.view(b_shape)).view(result_shape);
}

Tensor& kron(const Tensor& self, const Tensor& other, Tensor& out) {
  auto result = at::native::kron(self, other);
  at::native::resize_output(out, result.sizes());
  return out.copy_(result);
}

// vdot(a, b) = sum(conj(a) * b): dot for real dtypes; complex dtypes are summed here.
Tensor vdot(const Tensor& self, const Tensor& other) {
  if (!isComplexType(self.scalar_type())) {
    return at::dot(self, other);
  }
  TORCH_CHECK(self.dim() == 1 && other.dim() == 1, "1D tensors expected, but got ", self.dim(), "D and ", other.dim(),
              "D tensors");
  TORCH_CHECK(self.scalar_type() == other.scalar_type(), "expected both vectors to have same dtype, but found ",
              self.scalar_type(), " and ", other.scalar_type());
  TORCH_CHECK(self.numel() == other.numel(), "inconsistent tensor size, expected tensor [", self.numel(),
              "] and src [", other.numel(), "] to have the same number of elements, but got ", self.numel(), " and ",
              other.numel(), " elements respectively");
  Tensor out = at::empty({}, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  if (out.is_meta()) {
    return out;
  }
  AT_DISPATCH_COMPLEX_TYPES(self.scalar_type(), "vdot", [&] {
    const scalar_t* a = self.const_data_ptr<scalar_t>();
    const scalar_t* b = other.const_data_ptr<scalar_t>();
    scalar_t sum(0, 0);
    for (int64_t i = 0; i < self.numel(); ++i) {
      const scalar_t x = a[i * self.stride(0)];
      sum += scalar_t(x.real(), -x.imag()) * b[i * other.stride(0)];
    }
    *out.mutable_data_ptr<scalar_t>() = sum;
  });
  return out;
}

// On the GPU: dot for real dtypes; complex vectors are summed on the host.
Tensor vdot_cuda(const Tensor& self, const Tensor& other) {
  if (!isComplexType(self.scalar_type())) {
    return at::dot(self, other);
  }
  return at::native::vdot(self.to(Device(kCPU), self.scalar_type()), other.to(Device(kCPU), other.scalar_type()))
      .to(self.device(), self.scalar_type());
}

Tensor& vdot_out(const Tensor& self, const Tensor& other, Tensor& out) {
  auto result = at::vdot(self, other);
  TORCH_CHECK(out.scalar_type() == result.scalar_type(), "expected out tensor to have dtype ", result.scalar_type(),
              ", but got ", out.scalar_type(), " instead");
  at::native::resize_output(out, result.sizes());
  return out.copy_(result);
}

}  // namespace at::native
