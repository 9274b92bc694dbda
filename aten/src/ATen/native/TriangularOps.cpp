// aten/src/ATen/native/TriangularOps.cpp - tril and triu: keep one triangle of each matrix.
// Mirrors PyTorch's aten/src/ATen/native/TriangularOps.cpp; the argument check shared with
// cuda/TriangularOps.cu is in TriangularOpsUtils.h. Guide: docs/source/internals/tensors.rst.
//
// The last two dimensions are the matrix (rows i, columns j); the ones before are a batch.
// tril keeps the elements with j - i <= diagonal, triu those with j - i >= diagonal, and
// sets the others to zero. diagonal 0 is the main diagonal, > 0 above it, < 0 below.
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/native/TriangularOpsUtils.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace at::native {

namespace {

// Zero the other triangle of every matrix of `result`, in place. Zero is all-bits-zero in
// every dtype here (floats, integers, bool, complex), so an element is cleared with memset
// of itemsize bytes and one loop serves every dtype (PyTorch dispatches on the dtype and
// also copies the kept triangle in the same loop).
void zero_triangle(const Tensor& result, int64_t k, bool upper) {
  const int64_t ndim = result.dim();
  const int64_t n = result.size(-2), m = result.size(-1);
  const int64_t row_stride = result.stride(-2), col_stride = result.stride(-1);
  const int64_t itemsize = static_cast<int64_t>(result.itemsize());
  auto* base = static_cast<char*>(result.data_ptr());
  const int64_t batch = result.numel() / std::max<int64_t>(n * m, 1);
  std::vector<int64_t> index(ndim - 2, 0);
  int64_t offset = 0;  // element offset of the current matrix
  for (int64_t b = 0; b < batch; b++) {
    for (int64_t i = 0; i < n; i++) {
      // triu clears j < i + k; tril clears j > i + k.
      const int64_t j_begin = upper ? 0 : std::max<int64_t>(0, i + k + 1);
      const int64_t j_end = upper ? std::min(m, i + k) : m;
      for (int64_t j = j_begin; j < j_end; j++) {
        std::memset(base + (offset + i * row_stride + j * col_stride) * itemsize, 0, itemsize);
      }
    }
    for (int64_t d = ndim - 3; d >= 0; d--) {  // next matrix of the batch
      if (++index[d] < result.size(d)) {
        offset += result.stride(d);
        break;
      }
      offset -= (index[d] - 1) * result.stride(d);
      index[d] = 0;
    }
  }
}

Tensor triu_tril(const Tensor& self, int64_t k, bool upper) {
  check_triu_tril_input(self, upper ? "triu" : "tril");
  Tensor result = at::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Preserve);
  if (self.is_meta() || self.numel() == 0) {
    return result;
  }
  result.copy_(self);
  zero_triangle(result, k, upper);
  return result;
}

Tensor& triu_tril_(Tensor& self, int64_t k, bool upper) {
  check_triu_tril_input(self, upper ? "triu" : "tril");
  if (!self.is_meta() && self.numel() > 0) {
    zero_triangle(self, k, upper);
  }
  return self;
}

}  // namespace

Tensor tril(const Tensor& self, int64_t diagonal) {
  return triu_tril(self, diagonal, /*upper=*/false);
}

Tensor triu(const Tensor& self, int64_t diagonal) {
  return triu_tril(self, diagonal, /*upper=*/true);
}

Tensor& tril_(Tensor& self, int64_t diagonal) {
  return triu_tril_(self, diagonal, /*upper=*/false);
}

Tensor& triu_(Tensor& self, int64_t diagonal) {
  return triu_tril_(self, diagonal, /*upper=*/true);
}

}  // namespace at::native
