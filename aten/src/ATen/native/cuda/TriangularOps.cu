// aten/src/ATen/native/cuda/TriangularOps.cu - tril and triu of CUDA tensors, and their in-place
// forms: one kernel over every element, zeroing those on the wrong side of the diagonal, for
// every matrix of a batch at once. Mirrors PyTorch's aten/src/ATen/native/cuda/TriangularOps.cu
// (triu_tril_kernel). Guide: docs/source/internals/cuda_training.rst.
//
// The last two dims are the matrix (row i, column j), the ones before it a batch. tril keeps
// the elements with j - i <= diagonal, triu those with j - i >= diagonal. The argument check is
// the CPU's (TriangularOpsUtils.h).
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/native/TriangularOpsUtils.h>
#include <c10/cuda/CUDAGuard.h>

namespace at::native {
namespace {

constexpr int kThreads = 256;

// The shape travels to the device by value in the kernel's arguments, in a fixed-size array. 25
// is PyTorch's limit for CUDA kernels that take a tensor's geometry (MAX_TENSORINFO_DIMS).
constexpr int kMaxTriangularDims = 25;

struct TriangularGeometry {
  int ndim;
  int64_t sizes[kMaxTriangularDims];
  int64_t self_strides[kMaxTriangularDims];
  int64_t result_strides[kMaxTriangularDims];
};

// One thread per element, in the order of a contiguous tensor (the last dim fastest), so a warp
// reads and writes neighbouring elements of one row. Out of place, every element of result is
// written: the kept ones with self's value, the others with zero, so result needs no copy of self
// first. In place (result is self), only the elements to clear are written: the kept ones already
// hold their value.
template <typename scalar_t, bool upper, bool inplace>
__global__ void triu_tril_kernel(scalar_t* __restrict__ result, const scalar_t* __restrict__ self, int64_t numel,
                                 int64_t k, TriangularGeometry g) {
  CUDA_KERNEL_LOOP_TYPE(index, numel, int64_t) {
    int64_t rest = index, self_offset = 0, result_offset = 0;
    int64_t row = 0, col = 0;
    for (int d = g.ndim - 1; d >= 0; d--) {
      const int64_t i = rest % g.sizes[d];
      rest /= g.sizes[d];
      if (d == g.ndim - 1) {
        col = i;
      } else if (d == g.ndim - 2) {
        row = i;
      }
      self_offset += i * g.self_strides[d];
      result_offset += i * g.result_strides[d];
    }
    const bool keep = upper ? col - row >= k : col - row <= k;
    if (inplace) {
      if (!keep) {
        result[result_offset] = scalar_t(0);
      }
    } else {
      result[result_offset] = keep ? self[self_offset] : scalar_t(0);
    }
  }
}

// result and self have self's shape; they are the same tensor for tril_ and triu_.
template <bool upper>
void triu_tril_cuda_template(const Tensor& result, const Tensor& self, int64_t k, const char* name) {
  const int64_t numel = self.numel();
  if (numel == 0) {
    return;
  }
  const int64_t ndim = self.dim();
  TORCH_CHECK(ndim <= kMaxTriangularDims, name, "_cuda: tensors with more than ", kMaxTriangularDims,
              " dimensions are not supported, got ", ndim);
  TriangularGeometry g{};
  g.ndim = static_cast<int>(ndim);
  for (int64_t d = 0; d < ndim; d++) {
    g.sizes[d] = self.size(d);
    g.self_strides[d] = self.stride(d);
    g.result_strides[d] = result.stride(d);
  }
  const bool inplace = result.is_same(self);
  c10::cuda::CUDAGuard guard(self.device());
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int64_t blocks = at::cuda::detail::GET_BLOCKS(numel, kThreads);
  const ScalarType dtype = self.scalar_type();
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND4(kBool, kHalf, kBFloat16, kComplexHalf, dtype, "triu_tril_cuda", [&] {
    scalar_t* out = result.mutable_data_ptr<scalar_t>();
    const scalar_t* in = self.const_data_ptr<scalar_t>();
    if (inplace) {
      triu_tril_kernel<scalar_t, upper, true>
          <<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(out, in, numel, k, g);
    } else {
      triu_tril_kernel<scalar_t, upper, false>
          <<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(out, in, numel, k, g);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

Tensor triu_tril_cuda(const Tensor& self, int64_t k, bool upper) {
  const char* name = upper ? "triu" : "tril";
  check_triu_tril_input(self, name);
  // Same layout as self where self is dense, as the CPU's result.
  Tensor result = at::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Preserve);
  if (upper) {
    triu_tril_cuda_template<true>(result, self, k, name);
  } else {
    triu_tril_cuda_template<false>(result, self, k, name);
  }
  return result;
}

Tensor& triu_tril_cuda_(Tensor& self, int64_t k, bool upper) {
  const char* name = upper ? "triu" : "tril";
  check_triu_tril_input(self, name);
  if (upper) {
    triu_tril_cuda_template<true>(self, self, k, name);
  } else {
    triu_tril_cuda_template<false>(self, self, k, name);
  }
  return self;
}

}  // namespace

Tensor tril_cuda(const Tensor& self, int64_t diagonal) {
  return triu_tril_cuda(self, diagonal, /*upper=*/false);
}

Tensor triu_cuda(const Tensor& self, int64_t diagonal) {
  return triu_tril_cuda(self, diagonal, /*upper=*/true);
}

Tensor& tril_cuda_(Tensor& self, int64_t diagonal) {
  return triu_tril_cuda_(self, diagonal, /*upper=*/false);
}

Tensor& triu_cuda_(Tensor& self, int64_t diagonal) {
  return triu_tril_cuda_(self, diagonal, /*upper=*/true);
}

}  // namespace at::native
