// aten/src/ATen/native/Blas.cpp - mm, bmm, baddbmm, addmm, addmv, mv, dot: checks, output shapes, then cpublas::gemm.
// Mirrors PyTorch's aten/src/ATen/native/LinearAlgebra.cpp (addmm_impl_cpu_, bmm_out_or_baddbmm_)
// and Blas.cpp (addmv, dot). Guide: docs/source/internals/one_call.rst.
//
// Each operator checks its arguments with PyTorch's messages, sizes the output, and hands
// the operands to cpublas::gemm as (pointer, row stride, column stride): a transposed or
// sliced input is read where it lies. Only float/double operands that BLAS cannot read in
// place (say, every other column) are first copied to contiguous memory.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/Parallel.h>
#include <ATen/native/CPUBlas.h>
#include <ATen/native/LinearAlgebraUtils.h>
#include <ATen/native/Resize.h>

namespace at::native {
namespace {

using cpublas::StridedMatrix;

// A 2-D view of t's data for gemm (element (i, j) at data[i * row_stride + j * col_stride]).
template <typename T>
StridedMatrix<T> as_matrix(T* data, int64_t row_stride, int64_t col_stride) {
  return {data, row_stride, col_stride};
}

// The operand itself when BLAS (or the fallback) can read it, else a contiguous copy.
Tensor readable(const Tensor& m) {
  if (cpublas::blas_enabled_for(m.scalar_type()) &&
      !cpublas::blas_can_read(m.size(0), m.size(1), m.stride(0), m.stride(1))) {
    return m.contiguous();
  }
  return m;
}

// [marker: addmm_impl_cpu_]
// result = beta * self + alpha * (m1 @ m2), result already sized (m x n). When result is
// not self, self (broadcast to m x n) is copied in first and gemm scales it by beta.
void addmm_impl_cpu_(Tensor& result, const Tensor& self, const Tensor& m1_in, const Tensor& m2_in, const Scalar& beta,
                     const Scalar& alpha) {
  const int64_t m = m1_in.size(0), k = m1_in.size(1), n = m2_in.size(1);
  const bool beta_is_zero = beta.toDouble() == 0.0;
  if (!beta_is_zero && self.defined() && !result.is_same(self)) {
    result.copy_(self.expand({m, n}));
  }
  // On Meta the checks and the output's shape were the whole job (PyTorch's TORCH_META_FUNC(mm)).
  if (result.numel() == 0 || result.is_meta()) {
    return;
  }
  const Tensor m1 = readable(m1_in);
  const Tensor m2 = readable(m2_in);
  // BLAS writes row-major output only; anything else is computed aside and copied back.
  const bool write_direct = !cpublas::blas_enabled_for(result.scalar_type()) ||
                            (cpublas::blas_can_read(m, n, result.stride(0), result.stride(1)) &&
                             (result.stride(1) == 1 || n == 1));
  Tensor c = write_direct ? result : (beta_is_zero ? at::empty({m, n}, result.scalar_type(), std::nullopt, result.device()) : result.contiguous());
  AT_DISPATCH_GEMM_TYPES(result.scalar_type(), "addmm_impl_cpu_", [&] {
    cpublas::gemm<scalar_t>(m, n, k, alpha, as_matrix(m1.const_data_ptr<scalar_t>(), m1.stride(0), m1.stride(1)),
                            as_matrix(m2.const_data_ptr<scalar_t>(), m2.stride(0), m2.stride(1)), beta,
                            as_matrix(c.mutable_data_ptr<scalar_t>(), c.stride(0), c.stride(1)));
  });
  if (!c.is_same(result)) {
    result.copy_(c);
  }
}
// [end marker: addmm_impl_cpu_]

}  // namespace

// ---- the checks, shared with the CUDA kernels (native/cuda/Blas.cpp) ----

void check_out_dtype(const Tensor& out, ScalarType expected) {
  TORCH_CHECK(out.scalar_type() == expected, "Expected out tensor to have dtype ", c10::scalarTypeToTypeMeta(expected),
              ", but got ", out.dtype(), " instead");
}

void mm_check(const Tensor& self, const Tensor& mat2) {
  TORCH_CHECK(self.dim() == 2, "self must be a matrix");
  TORCH_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  TORCH_CHECK(self.dtype() == mat2.dtype(), "expected m1 and m2 to have the same dtype, but got: ", self.dtype(),
              " != ", mat2.dtype());
  TORCH_CHECK(self.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (", self.size(0), "x",
              self.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
}

void addmm_check(const Tensor& self, const Tensor& mat1, const Tensor& mat2) {
  TORCH_CHECK(mat1.dim() == 2, "mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  TORCH_CHECK(mat2.dim() == 2, "mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  TORCH_CHECK(mat1.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (", mat1.size(0), "x",
              mat1.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  TORCH_CHECK(self.scalar_type() == mat2.scalar_type(), "self and mat2 must have the same dtype, but got ",
              self.scalar_type(), " and ", mat2.scalar_type());
  TORCH_CHECK(mat1.scalar_type() == mat2.scalar_type(), "mat1 and mat2 must have the same dtype, but got ",
              mat1.scalar_type(), " and ", mat2.scalar_type());
}

void bmm_check(const Tensor& self, const Tensor& mat2) {
  TORCH_CHECK(self.dim() == 3, "batch1 must be a 3D tensor");
  TORCH_CHECK(mat2.dim() == 3, "batch2 must be a 3D tensor");
  const int64_t bs = self.size(0), contraction = self.size(2);
  TORCH_CHECK(mat2.size(0) == bs && mat2.size(1) == contraction,
              "Expected size for first two dimensions of batch2 tensor to be: [", bs, ", ", contraction,
              "] but got: [", mat2.size(0), ", ", mat2.size(1), "].");
  TORCH_CHECK(self.scalar_type() == mat2.scalar_type(), "expected scalar type ", self.scalar_type(), " but found ",
              mat2.scalar_type());
}

void mv_check(const Tensor& self, const Tensor& vec) {
  TORCH_CHECK(self.dim() == 2 && vec.dim() == 1, "vector + matrix @ vector expected, got 1, ", self.dim(), ", ",
              vec.dim());
  TORCH_CHECK(self.size(1) == vec.size(0), "size mismatch, got input (", self.size(0), "), mat (", self.size(0), "x",
              self.size(1), "), vec (", vec.size(0), ")");
  TORCH_CHECK(self.scalar_type() == vec.scalar_type(), "addmv input tensors must have the same dtype, but got ",
              vec.scalar_type(), ", ", self.scalar_type(), ", and ", vec.scalar_type());
}

void dot_check(const Tensor& self, const Tensor& tensor) {
  TORCH_CHECK(self.dim() == 1 && tensor.dim() == 1, "1D tensors expected, but got ", self.dim(), "D and ",
              tensor.dim(), "D tensors");
  TORCH_CHECK(self.scalar_type() == tensor.scalar_type(), "dot : expected both vectors to have same dtype, but found ",
              self.scalar_type(), " and ", tensor.scalar_type());
  TORCH_CHECK(self.numel() == tensor.numel(), "inconsistent tensor size, expected tensor [", self.numel(),
              "] and src [", tensor.numel(), "] to have the same number of elements, but got ", self.numel(), " and ",
              tensor.numel(), " elements respectively");
}

// addmv: self is a vector of the result's length m, or one element broadcast to it.
void addmv_check(const Tensor& self, const Tensor& mat, const Tensor& vec) {
  TORCH_CHECK(mat.dim() == 2 && vec.dim() == 1 && self.dim() <= 1, "vector + matrix @ vector expected, got ",
              self.dim(), ", ", mat.dim(), ", ", vec.dim());
  TORCH_CHECK(mat.size(1) == vec.size(0) && (mat.size(0) == self.numel() || self.numel() == 1),
              "size mismatch, got input (", self.dim() == 0 ? 1 : self.size(0), "), mat (", mat.size(0), "x",
              mat.size(1), "), vec (", vec.size(0), ")");
  TORCH_CHECK(self.scalar_type() == mat.scalar_type() && mat.scalar_type() == vec.scalar_type(),
              "addmv input tensors must have the same dtype, but got ", self.scalar_type(), ", ", mat.scalar_type(),
              ", and ", vec.scalar_type());
}

void addmv_inplace_check(const Tensor& self, const Tensor& mat) {
  TORCH_CHECK(self.dim() == 1 && self.size(0) == mat.size(0), "Bad in-place call: input tensor size ", self.sizes(),
              " and output tensor size [", mat.size(0), "] should match");
}

// baddbmm: self broadcasts to the (b x m x n) result (expand's error otherwise).
void baddbmm_check(const Tensor& self, const Tensor& batch1, const Tensor& batch2) {
  TORCH_CHECK(self.dtype() == batch1.dtype() && batch1.dtype() == batch2.dtype(),
              "Input dtypes must be the same, got: input ", self.dtype(), ", batch1: ", batch1.dtype(),
              ", batch2: ", batch2.dtype());
  bmm_check(batch1, batch2);
}

void baddbmm_inplace_check(const Tensor& self, const Tensor& batch1, const Tensor& batch2) {
  TORCH_CHECK(self.dim() == 3 && self.size(0) == batch1.size(0) && self.size(1) == batch1.size(1) &&
                  self.size(2) == batch2.size(2),
              "Bad in-place call: input tensor size ", self.sizes(), " and output tensor size [", batch1.size(0),
              ", ", batch1.size(1), ", ", batch2.size(2), "] should match");
}

void addmm_inplace_check(const Tensor& self, const Tensor& mat1, const Tensor& mat2) {
  TORCH_CHECK(self.dim() == 2 && self.size(0) == mat1.size(0) && self.size(1) == mat2.size(1),
              "Bad in-place call: input tensor size ", self.sizes(), " and output tensor size [", mat1.size(0), ", ",
              mat2.size(1), "] should match");
}

// ---- mm / addmm ----

Tensor& mm_out(const Tensor& self, const Tensor& mat2, Tensor& out) {
  mm_check(self, mat2);
  check_out_dtype(out, self.scalar_type());
  resize_output(out, {self.size(0), mat2.size(1)});
  addmm_impl_cpu_(out, Tensor(), self, mat2, /*beta=*/0, /*alpha=*/1);
  return out;
}

Tensor mm(const Tensor& self, const Tensor& mat2) {
  mm_check(self, mat2);
  Tensor out = at::empty({self.size(0), mat2.size(1)}, self.scalar_type(), std::nullopt, self.device());
  addmm_impl_cpu_(out, Tensor(), self, mat2, 0, 1);
  return out;
}

Tensor& addmm_out(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha,
                  Tensor& out) {
  addmm_check(self, mat1, mat2);
  check_out_dtype(out, self.scalar_type());
  resize_output(out, {mat1.size(0), mat2.size(1)});
  addmm_impl_cpu_(out, self, mat1, mat2, beta, alpha);
  return out;
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  addmm_check(self, mat1, mat2);
  Tensor out = at::empty({mat1.size(0), mat2.size(1)}, self.scalar_type(), std::nullopt, self.device());
  addmm_impl_cpu_(out, self, mat1, mat2, beta, alpha);
  return out;
}

Tensor& addmm_(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  addmm_check(self, mat1, mat2);
  addmm_inplace_check(self, mat1, mat2);
  addmm_impl_cpu_(self, self, mat1, mat2, beta, alpha);
  return self;
}

// ---- bmm ----

namespace {

// out = beta * out + alpha * (self @ mat2) for every matrix of the batch (out already holds
// the self of baddbmm when beta != 0): one gemm per batch entry. BLAS dtypes loop on this
// thread (BLAS has its own threads); the fallback kernel shares the batch out between
// threads instead.
void baddbmm_impl_cpu_(Tensor& out, const Tensor& self, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  const int64_t bs = self.size(0), m = self.size(1), k = self.size(2), n = mat2.size(2);
  if (out.numel() == 0 || out.is_meta()) {
    return;
  }
  const bool blas = cpublas::blas_enabled_for(out.scalar_type());
  auto readable3 = [&](const Tensor& t) {
    const bool ok = cpublas::blas_can_read(t.size(1), t.size(2), t.stride(1), t.stride(2));
    return blas && !ok ? t.contiguous() : t;
  };
  const Tensor a = readable3(self), b = readable3(mat2);
  const bool beta_is_zero = beta.toComplexDouble() == 0.0;
  Tensor c = out;
  if (blas && !(out.stride(2) == 1 || n == 1)) {
    c = beta_is_zero ? at::empty({bs, m, n}, out.scalar_type(), std::nullopt, out.device()) : out.contiguous();
  }
  AT_DISPATCH_GEMM_TYPES(out.scalar_type(), "bmm", [&] {
    const scalar_t* pa = a.const_data_ptr<scalar_t>();
    const scalar_t* pb = b.const_data_ptr<scalar_t>();
    scalar_t* pc = c.mutable_data_ptr<scalar_t>();
    auto one = [&](int64_t i) {
      cpublas::gemm<scalar_t>(m, n, k, alpha, as_matrix(pa + i * a.stride(0), a.stride(1), a.stride(2)),
                              as_matrix(pb + i * b.stride(0), b.stride(1), b.stride(2)), beta,
                              as_matrix(pc + i * c.stride(0), c.stride(1), c.stride(2)));
    };
    if (blas) {
      for (int64_t i = 0; i < bs; i++) one(i);
    } else {
      at::parallel_for(0, bs, 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; i++) one(i);
      });
    }
  });
  if (!c.is_same(out)) {
    out.copy_(c);
  }
}

}  // namespace

Tensor& bmm_out(const Tensor& self, const Tensor& mat2, Tensor& out) {
  bmm_check(self, mat2);
  check_out_dtype(out, self.scalar_type());
  resize_output(out, {self.size(0), self.size(1), mat2.size(2)});
  baddbmm_impl_cpu_(out, self, mat2, /*beta=*/0, /*alpha=*/1);
  return out;
}

// baddbmm: self (broadcast) copied into the result, then gemm scales it by beta. With beta
// == 0 self is not read at all, so its NaNs do not reach the result (PyTorch's rule).
Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
               const Scalar& alpha) {
  baddbmm_check(self, batch1, batch2);
  Tensor out = at::empty({batch1.size(0), batch1.size(1), batch2.size(2)}, self.scalar_type(), std::nullopt,
                         self.device());
  if (beta.toComplexDouble() != 0.0) {
    out.copy_(self.expand(out.sizes()));
  }
  baddbmm_impl_cpu_(out, batch1, batch2, beta, alpha);
  return out;
}

Tensor& baddbmm_(Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta, const Scalar& alpha) {
  baddbmm_check(self, batch1, batch2);
  baddbmm_inplace_check(self, batch1, batch2);
  baddbmm_impl_cpu_(self, batch1, batch2, beta, alpha);
  return self;
}

Tensor bmm(const Tensor& self, const Tensor& mat2) {
  bmm_check(self, mat2);
  Tensor out = at::empty({self.size(0), self.size(1), mat2.size(2)}, self.scalar_type(), std::nullopt, self.device());
  return at::native::bmm_out(self, mat2, out);
}

// ---- mv / dot ----

Tensor mv(const Tensor& self, const Tensor& vec) {
  mv_check(self, vec);
  Tensor out = at::empty({self.size(0)}, self.scalar_type(), std::nullopt, self.device());
  // self (m x k) @ vec as a (k x 1) matrix: out is an (m x 1) matrix.
  Tensor out_column = out.unsqueeze(1);
  addmm_impl_cpu_(out_column, Tensor(), self, vec.unsqueeze(1), 0, 1);
  return out;
}

// addmv: beta * self + alpha * (mat @ vec), computed as addmm of one column.
Tensor addmv(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) {
  addmv_check(self, mat, vec);
  Tensor out = at::empty({mat.size(0)}, self.scalar_type(), std::nullopt, self.device());
  Tensor out_column = out.unsqueeze(1);
  addmm_impl_cpu_(out_column, self.expand({mat.size(0)}).unsqueeze(1), mat, vec.unsqueeze(1), beta, alpha);
  return out;
}

Tensor& addmv_(Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) {
  addmv_check(self, mat, vec);
  addmv_inplace_check(self, mat);
  Tensor self_column = self.unsqueeze(1);
  addmm_impl_cpu_(self_column, self_column, mat, vec.unsqueeze(1), beta, alpha);
  return self;
}

Tensor dot(const Tensor& self, const Tensor& tensor) {
  dot_check(self, tensor);
  Tensor out = at::empty({}, self.scalar_type(), std::nullopt, self.device());
  if (out.is_meta()) {
    return out;
  }
  // a row (1 x k) times a column (k x 1).
  AT_DISPATCH_GEMM_TYPES(self.scalar_type(), "dot", [&] {
    cpublas::gemm<scalar_t>(1, 1, self.size(0), 1, as_matrix(self.const_data_ptr<scalar_t>(), 0, self.stride(0)),
                            as_matrix(tensor.const_data_ptr<scalar_t>(), tensor.stride(0), 0), 0,
                            as_matrix(out.mutable_data_ptr<scalar_t>(), 1, 1));
  });
  return out;
}

}  // namespace at::native
