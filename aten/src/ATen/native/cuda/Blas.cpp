// aten/src/ATen/native/cuda/Blas.cpp - mm, addmm, bmm, baddbmm, addmv, mv and dot on CUDA tensors: the checks the
// CPU shares, then each operand described as BLAS sees it (column-major, transposed or not, a
// leading dimension) and one call of at::cuda::blas::gemm or bgemm. Mirrors PyTorch's
// aten/src/ATen/native/cuda/Blas.cpp (addmm_out_cuda_impl, prepare_matrix_for_cublas,
// baddbmm_out_cuda_impl). Guide: docs/source/internals/cuda_gemm.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/cuda/CUDABlas.h>
#include <ATen/native/LinearAlgebraUtils.h>
#include <ATen/native/Resize.h>
#include <c10/cuda/CUDAGuard.h>

#include <algorithm>

namespace at::native {
namespace {

// [marker: prepare_matrix_for_cublas]
// How BLAS reads the last two dims of t (rows x cols): column-major with leading dimension ld
// (stride(-2) == 1), or as the column-major storage of its transpose (stride(-1) == 1, so a
// row-major matrix is read in place with trans = true). Anything else, every other column of
// a matrix, say, is first copied to a contiguous (row-major) tensor.
struct BlasMatrix {
  Tensor tensor;  // t itself, or its contiguous copy
  bool trans;
  int64_t ld;
};

BlasMatrix prepare_matrix_for_cublas(const Tensor& t) {
  const int64_t rows = t.size(-2), cols = t.size(-1);
  const int64_t rs = t.stride(-2), cs = t.stride(-1);
  if (rs == 1 && cs >= std::max<int64_t>(1, rows)) {
    return {t, false, cs};
  }
  if (cs == 1 && rs >= std::max<int64_t>(1, cols)) {
    return {t, true, rs};
  }
  Tensor copy = t.contiguous();
  return {copy, true, std::max<int64_t>(1, cols)};
}
// [end marker: prepare_matrix_for_cublas]

char trans_char(bool trans) {
  return trans ? 't' : 'n';
}

// [marker: addmm_out_cuda_impl]
// result = beta * self + alpha * (mat1 @ mat2) for matrices (batch == false) or for every matrix
// of a batch (the first dim). result is already sized. BLAS writes a column-major C; a row-major
// result (the usual case) is written as its transpose, C^T = mat2^T @ mat1^T, which is the same
// memory: so the operands swap places and each is read transposed.
void addmm_out_cuda_impl(const Tensor& result, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                         const Scalar& beta, const Scalar& alpha, bool batch) {
  const int64_t m = mat1.size(-2), k = mat1.size(-1), n = mat2.size(-1);
  const bool beta_is_zero = beta.toComplexDouble() == 0.0;
  if (!beta_is_zero && self.defined() && !result.is_same(self)) {
    result.copy_(self.expand(result.sizes()));
  }
  if (result.numel() == 0) {
    return;
  }
  c10::cuda::CUDAGuard guard(result.device());
  BlasMatrix c = prepare_matrix_for_cublas(result);
  if (!c.tensor.is_same(result) && !beta_is_zero) {
    c.tensor.copy_(result);  // the copy must start from the values beta scales
  }
  // c.trans: compute C^T (n x m) = op(mat2)^T op(mat1)^T.
  const bool swap = c.trans;
  BlasMatrix a = prepare_matrix_for_cublas(swap ? mat2 : mat1);
  BlasMatrix b = prepare_matrix_for_cublas(swap ? mat1 : mat2);
  if (swap) {
    a.trans = !a.trans;  // the transpose of a matrix BLAS reads plainly is the same memory read transposed
    b.trans = !b.trans;
  }
  const int64_t rows = swap ? n : m, cols = swap ? m : n;
  const int64_t batches = batch ? result.size(0) : 1;
  auto run = [&](auto type_tag) {
    using scalar_t = decltype(type_tag);
    using opmath_t = at::opmath_type<scalar_t>;
    const opmath_t alpha_v = alpha.to<opmath_t>();
    const opmath_t beta_v = beta.to<opmath_t>();
    const scalar_t* pa = a.tensor.const_data_ptr<scalar_t>();
    const scalar_t* pb = b.tensor.const_data_ptr<scalar_t>();
    scalar_t* pc = c.tensor.mutable_data_ptr<scalar_t>();
    if (batch) {
      at::cuda::blas::bgemm<scalar_t>(trans_char(a.trans), trans_char(b.trans), rows, cols, k, alpha_v, pa, a.ld,
                                      a.tensor.stride(0), pb, b.ld, b.tensor.stride(0), beta_v, pc, c.ld,
                                      c.tensor.stride(0), batches);
    } else {
      at::cuda::blas::gemm<scalar_t>(trans_char(a.trans), trans_char(b.trans), rows, cols, k, alpha_v, pa, a.ld, pb,
                                     b.ld, beta_v, pc, c.ld);
    }
  };
  // Two dispatches for the two names PyTorch's errors use ("bmm_cuda" not implemented for 'Long').
  if (batch) {
    AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, result.scalar_type(), "bmm_cuda", [&] { run(scalar_t{}); });
  } else {
    AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, result.scalar_type(), "addmm_cuda", [&] { run(scalar_t{}); });
  }
  if (!c.tensor.is_same(result)) {
    result.copy_(c.tensor);
  }
}
// [end marker: addmm_out_cuda_impl]

Tensor empty_like_device(IntArrayRef sizes, const Tensor& like) {
  return at::empty(sizes, like.scalar_type(), std::nullopt, like.device());
}

}  // namespace

Tensor& mm_out_cuda(const Tensor& self, const Tensor& mat2, Tensor& out) {
  mm_check(self, mat2);
  check_out_dtype(out, self.scalar_type());
  resize_output(out, {self.size(0), mat2.size(1)});
  addmm_out_cuda_impl(out, Tensor(), self, mat2, 0, 1, /*batch=*/false);
  return out;
}

Tensor mm_cuda(const Tensor& self, const Tensor& mat2) {
  mm_check(self, mat2);
  Tensor out = empty_like_device({self.size(0), mat2.size(1)}, self);
  addmm_out_cuda_impl(out, Tensor(), self, mat2, 0, 1, false);
  return out;
}

Tensor& addmm_out_cuda(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                       const Scalar& alpha, Tensor& out) {
  addmm_check(self, mat1, mat2);
  check_out_dtype(out, self.scalar_type());
  resize_output(out, {mat1.size(0), mat2.size(1)});
  addmm_out_cuda_impl(out, self, mat1, mat2, beta, alpha, false);
  return out;
}

Tensor addmm_cuda(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  addmm_check(self, mat1, mat2);
  Tensor out = empty_like_device({mat1.size(0), mat2.size(1)}, self);
  addmm_out_cuda_impl(out, self, mat1, mat2, beta, alpha, false);
  return out;
}

Tensor& addmm_cuda_(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  addmm_check(self, mat1, mat2);
  addmm_inplace_check(self, mat1, mat2);
  addmm_out_cuda_impl(self, self, mat1, mat2, beta, alpha, false);
  return self;
}

Tensor& bmm_out_cuda(const Tensor& self, const Tensor& mat2, Tensor& out) {
  bmm_check(self, mat2);
  check_out_dtype(out, self.scalar_type());
  resize_output(out, {self.size(0), self.size(1), mat2.size(2)});
  addmm_out_cuda_impl(out, Tensor(), self, mat2, 0, 1, /*batch=*/true);
  return out;
}

Tensor bmm_cuda(const Tensor& self, const Tensor& mat2) {
  bmm_check(self, mat2);
  Tensor out = empty_like_device({self.size(0), self.size(1), mat2.size(2)}, self);
  addmm_out_cuda_impl(out, Tensor(), self, mat2, 0, 1, true);
  return out;
}

Tensor baddbmm_cuda(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                    const Scalar& alpha) {
  baddbmm_check(self, batch1, batch2);
  Tensor out = empty_like_device({batch1.size(0), batch1.size(1), batch2.size(2)}, self);
  addmm_out_cuda_impl(out, self, batch1, batch2, beta, alpha, /*batch=*/true);
  return out;
}

Tensor& baddbmm_cuda_(Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                      const Scalar& alpha) {
  baddbmm_check(self, batch1, batch2);
  baddbmm_inplace_check(self, batch1, batch2);
  addmm_out_cuda_impl(self, self, batch1, batch2, beta, alpha, true);
  return self;
}

// addmv: addmm of one column (PyTorch calls cuBLAS's gemv).
Tensor addmv_cuda(const Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) {
  addmv_check(self, mat, vec);
  Tensor out = empty_like_device({mat.size(0)}, self);
  addmm_out_cuda_impl(out.unsqueeze(1), self.expand({mat.size(0)}).unsqueeze(1), mat, vec.unsqueeze(1), beta, alpha,
                      false);
  return out;
}

Tensor& addmv_cuda_(Tensor& self, const Tensor& mat, const Tensor& vec, const Scalar& beta, const Scalar& alpha) {
  addmv_check(self, mat, vec);
  addmv_inplace_check(self, mat);
  Tensor self_column = self.unsqueeze(1);
  addmm_out_cuda_impl(self_column, self_column, mat, vec.unsqueeze(1), beta, alpha, false);
  return self;
}

// mv: the matrix times the vector as a one-column matrix (PyTorch calls cuBLAS's gemv).
Tensor mv_cuda(const Tensor& self, const Tensor& vec) {
  mv_check(self, vec);
  Tensor out = empty_like_device({self.size(0)}, self);
  addmm_out_cuda_impl(out.unsqueeze(1), Tensor(), self, vec.unsqueeze(1), 0, 1, false);
  return out;
}

// dot: the elementwise product summed by the reduction kernel (PyTorch calls cuBLAS's dot). A
// 1 x k by k x 1 gemm would run on a single block, one thread of which does all the work.
Tensor dot_cuda(const Tensor& self, const Tensor& tensor) {
  dot_check(self, tensor);
  c10::cuda::CUDAGuard guard(self.device());
  Tensor out;
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "dot", [&] {
    out = at::mul(self, tensor).sum();
  });
  return out;
}

}  // namespace at::native
