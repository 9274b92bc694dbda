// aten/src/ATen/native/cuda/IndexKernel.cu - indexing on CUDA tensors: the kernels behind
// masked_fill_, t[idx] (index), t[idx] = v (index_put_, with accumulate through atomics) and
// take, registered on the CPU's stubs, and index_select, index_add_, nonzero and
// embedding_dense_backward. Mirrors PyTorch's aten/src/ATen/native/cuda/IndexKernel.cu,
// Indexing.cu, Nonzero.cu and Embedding.cu. An index out of range is a device-side assert, as in
// PyTorch. Guide: docs/source/internals/cuda_training.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/cuda/Atomic.cuh>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/native/IndexKernel.h>
#include <ATen/native/TensorAdvancedIndexing.h>
#include <ATen/native/cuda/Loops.cuh>
#include <c10/core/WrapDimMinimal.h>
#include <c10/cuda/CUDAGuard.h>

#include <vector>

namespace at::native {
namespace {

// index and index_put_ take at most this many index tensors (t[a, b, c, d]).
constexpr int kMaxIndices = 4;

// The offset calculator of every operand of an indexing iterator, with zero strides for the
// index slots past the last one, so one kernel serves 1 to kMaxIndices indices.
OffsetCalculator<2 + kMaxIndices> index_offset_calculator(const TensorIteratorBase& iter) {
  TORCH_CHECK(iter.ndim() <= kMaxDims, "CUDA kernels here take at most ", kMaxDims,
              " dimensions after coalescing, got ", iter.ndim());
  OffsetCalculator<2 + kMaxIndices> calc;
  calc.dims = iter.ndim();
  for (int d = 0; d < iter.ndim(); d++) {
    calc.sizes[d] = iter.shape()[d];
    for (int arg = 0; arg < 2 + kMaxIndices; arg++) {
      calc.strides[d][arg] = arg < iter.ntensors() ? iter.strides(arg)[d] : 0;
    }
  }
  return calc;
}

struct IndexParams {
  int nindices = 0;
  int64_t sizes[kMaxIndices] = {};
  int64_t strides[kMaxIndices] = {};  // bytes
  const char* ptrs[kMaxIndices] = {};
};

IndexParams index_params(const TensorIteratorBase& iter, IntArrayRef index_size, IntArrayRef index_stride) {
  TORCH_CHECK(index_size.size() <= static_cast<size_t>(kMaxIndices), "indexing a CUDA tensor with more than ",
              kMaxIndices, " index tensors is not supported here");
  IndexParams p;
  p.nindices = static_cast<int>(index_size.size());
  for (int k = 0; k < p.nindices; k++) {
    p.sizes[k] = index_size[k];
    p.strides[k] = index_stride[k];
    p.ptrs[k] = static_cast<const char*>(iter.data_ptr(2 + k));
  }
  return p;
}

// sum over k of index_k * stride_k for the element at `offsets`: PyTorch's gpu_index_kernel.
// A negative index counts from the end; one out of range stops the kernel with an assert.
__host__ __device__ __forceinline__ int64_t indexed_offset(const IndexParams& p,
                                                          const std::array<int64_t, 2 + kMaxIndices>& offsets) {
  int64_t offset = 0;
  for (int k = 0; k < p.nindices; k++) {
    int64_t idx = *reinterpret_cast<const int64_t*>(p.ptrs[k] + offsets[2 + k]);
    CUDA_KERNEL_ASSERT(idx >= -p.sizes[k] && idx < p.sizes[k] && "index out of bounds");
    if (idx < 0) {
      idx += p.sizes[k];
    }
    offset += idx * p.strides[k];
  }
  return offset;
}

void masked_fill_kernel_cuda(TensorIterator& iter, const Scalar& value) {
  if (iter.numel() == 0) {
    return;
  }
  c10::cuda::CUDAGuard guard(iter.device(0));
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "masked_fill_cuda", [&] {
    const auto value_ = value.to<scalar_t>();
    char* self = static_cast<char*>(iter.data_ptr(0));
    const char* mask = static_cast<const char*>(iter.data_ptr(1));
    const auto calc = make_offset_calculator<2>(iter);
    launch_legacy_kernel<num_threads(), thread_work_size()>(iter.numel(), [=] GPU_LAMBDA(int64_t i) {
      const auto offsets = calc.get(i);
      if (*reinterpret_cast<const bool*>(mask + offsets[1])) {
        *reinterpret_cast<scalar_t*>(self + offsets[0]) = value_;
      }
    });
  });
}

// iter = (out, src restrided, index...): out = src[offset].
void index_kernel_cuda(TensorIterator& iter, IntArrayRef index_size, IntArrayRef index_stride) {
  if (iter.numel() == 0) {
    return;
  }
  c10::cuda::CUDAGuard guard(iter.device(0));
  const IndexParams p = index_params(iter, index_size, index_stride);
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "index_cuda", [&] {
    char* out = static_cast<char*>(iter.data_ptr(0));
    const char* src = static_cast<const char*>(iter.data_ptr(1));
    const auto calc = index_offset_calculator(iter);
    launch_legacy_kernel<num_threads(), thread_work_size()>(iter.numel(), [=] GPU_LAMBDA(int64_t i) {
      const auto offsets = calc.get(i);
      *reinterpret_cast<scalar_t*>(out + offsets[0]) =
          *reinterpret_cast<const scalar_t*>(src + offsets[1] + indexed_offset(p, offsets));
    });
  });
}

// iter = (self restrided, values, index...): self[offset] = value, or += value with accumulate.
// With accumulate, an element named twice receives both values: the add is atomic.
void index_put_kernel_cuda(TensorIterator& iter, IntArrayRef index_size, IntArrayRef index_stride, bool accumulate) {
  if (iter.numel() == 0) {
    return;
  }
  c10::cuda::CUDAGuard guard(iter.device(0));
  const IndexParams p = index_params(iter, index_size, index_stride);
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "index_put_cuda", [&] {
    char* self = static_cast<char*>(iter.data_ptr(0));
    const char* values = static_cast<const char*>(iter.data_ptr(1));
    const auto calc = index_offset_calculator(iter);
    launch_legacy_kernel<num_threads(), thread_work_size()>(iter.numel(), [=] __device__(int64_t i) {
      const auto offsets = calc.get(i);
      auto* dst = reinterpret_cast<scalar_t*>(self + offsets[0] + indexed_offset(p, offsets));
      const scalar_t v = *reinterpret_cast<const scalar_t*>(values + offsets[1]);
      if (accumulate) {
        at::cuda::detail::gpuAtomicAdd(dst, v);
      } else {
        *dst = v;
      }
    });
  });
}

// iter = (out, index): out = src.flatten()[index].
void take_kernel_cuda(TensorIterator& iter, const Tensor& src) {
  if (iter.numel() == 0) {
    return;
  }
  c10::cuda::CUDAGuard guard(iter.device(0));
  const int64_t numel = src.numel();
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "take_cuda", [&] {
    char* out = static_cast<char*>(iter.data_ptr(0));
    const char* index = static_cast<const char*>(iter.data_ptr(1));
    const scalar_t* base = src.const_data_ptr<scalar_t>();
    const auto calc = make_offset_calculator<2>(iter);
    launch_legacy_kernel<num_threads(), thread_work_size()>(iter.numel(), [=] GPU_LAMBDA(int64_t i) {
      const auto offsets = calc.get(i);
      int64_t idx = *reinterpret_cast<const int64_t*>(index + offsets[1]);
      CUDA_KERNEL_ASSERT(idx >= -numel && idx < numel && "index out of bounds");
      if (idx < 0) {
        idx += numel;
      }
      *reinterpret_cast<scalar_t*>(out + offsets[0]) = base[idx];
    });
  });
}

// nonzero, once the running count of nonzero flags is known (an inclusive cumsum): element i,
// if set, is row position[i] - 1 of the result and writes its coordinates there. Every row is
// written by one thread, so the rows come out in row-major order, as on the CPU.
struct NonzeroDims {
  int64_t sizes[25];  // PyTorch's MAX_DIMS for CUDA kernels
};

__global__ void nonzero_scatter_kernel(const bool* __restrict__ flags, const int64_t* __restrict__ position,
                                       int64_t* __restrict__ out, int64_t numel, int ndim, NonzeroDims dims) {
  CUDA_KERNEL_LOOP_TYPE(i, numel, int64_t) {
    if (flags[i]) {
      int64_t* row = out + (position[i] - 1) * ndim;
      int64_t rest = i;
      for (int d = ndim - 1; d >= 0; d--) {
        row[d] = rest % dims.sizes[d];
        rest /= dims.sizes[d];
      }
    }
  }
}

// index_select along dim of a contiguous self: out viewed as (outer, n, inner) from self
// viewed as (outer, size, inner), row j of out being row index[j] of self.
template <typename scalar_t>
__global__ void index_select_kernel(const scalar_t* __restrict__ self, const int64_t* __restrict__ index,
                                    scalar_t* __restrict__ out, int64_t outer, int64_t n, int64_t size,
                                    int64_t inner) {
  CUDA_KERNEL_LOOP_TYPE(i, outer * n * inner, int64_t) {
    const int64_t s = i % inner, j = (i / inner) % n, o = i / (inner * n);
    const int64_t idx = index[j];
    CUDA_KERNEL_ASSERT(idx >= 0 && idx < size && "index out of bounds");
    out[i] = self[(o * size + idx) * inner + s];
  }
}

// index_add_ into a contiguous self viewed as (outer, size, inner): self[o, index[j], s] +=
// alpha * source[o, j, s], atomically (an index may repeat).
template <typename scalar_t>
__global__ void index_add_kernel(scalar_t* __restrict__ self, const int64_t* __restrict__ index,
                                 const scalar_t* __restrict__ source, scalar_t alpha, int64_t outer, int64_t n,
                                 int64_t size, int64_t inner) {
  CUDA_KERNEL_LOOP_TYPE(i, outer * n * inner, int64_t) {
    const int64_t s = i % inner, j = (i / inner) % n, o = i / (inner * n);
    const int64_t idx = index[j];
    CUDA_KERNEL_ASSERT(idx >= 0 && idx < size && "index out of bounds");
    at::cuda::detail::gpuAtomicAdd(self + (o * size + idx) * inner + s, static_cast<scalar_t>(source[i] * alpha));
  }
}

int64_t prod_range(IntArrayRef sizes, int64_t begin, int64_t end) {
  int64_t p = 1;
  for (int64_t d = begin; d < end; d++) p *= sizes[d];
  return p;
}

}  // namespace

REGISTER_CUDA_DISPATCH(masked_fill_stub, &masked_fill_kernel_cuda);
REGISTER_CUDA_DISPATCH(index_stub, &index_kernel_cuda);
REGISTER_CUDA_DISPATCH(index_put_stub, &index_put_kernel_cuda);
REGISTER_CUDA_DISPATCH(take_stub, &take_kernel_cuda);

// masked_fill_ and masked_select build the CPU's iterator (TensorAdvancedIndexing.cpp); the
// stubs above run it on the device.
Tensor& masked_fill__cuda(Tensor& self, const Tensor& mask, const Scalar& value) {
  c10::cuda::CUDAGuard guard(self.device());
  return masked_fill__cpu(self, mask, value);
}

Tensor& masked_fill__cuda(Tensor& self, const Tensor& mask, const Tensor& value) {
  c10::cuda::CUDAGuard guard(self.device());
  return masked_fill__cpu(self, mask, value);
}

Tensor masked_select_cuda(const Tensor& self, const Tensor& mask) {
  c10::cuda::CUDAGuard guard(self.device());
  return masked_select_cpu(self, mask);
}

Tensor nonzero_cuda(const Tensor& self) {
  c10::cuda::CUDAGuard guard(self.device());
  const Tensor flags = (self.scalar_type() == kBool ? self : self.ne(0)).contiguous();
  const int64_t numel = flags.numel();
  const int ndim = static_cast<int>(self.dim());
  if (numel == 0) {
    return at::empty({0, ndim}, kLong, std::nullopt, self.device());
  }
  // The running count on the device; its last entry, read by the host, sizes the result
  // (the synchronization PyTorch's nonzero makes too).
  const Tensor position = flags.reshape({-1}).to(kLong).cumsum(0);
  const int64_t count = position.select(0, numel - 1).item().toLong();
  Tensor result = at::empty({count, ndim}, kLong, std::nullopt, self.device());
  if (count == 0 || ndim == 0) {
    return result;
  }
  TORCH_CHECK(ndim <= 25, "nonzero is not supported for tensor with more than ", 25, " dimensions");
  NonzeroDims dims;
  for (int d = 0; d < ndim; d++) dims.sizes[d] = self.size(d);
  nonzero_scatter_kernel<<<static_cast<unsigned>(at::cuda::detail::GET_BLOCKS(numel, 256)), 256, 0,
                           at::cuda::getCurrentCUDAStream()>>>(
      flags.const_data_ptr<bool>(), position.const_data_ptr<int64_t>(), result.mutable_data_ptr<int64_t>(), numel,
      ndim, dims);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return result;
}

Tensor index_select_cuda(const Tensor& self, int64_t dim, const Tensor& index) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(index.scalar_type() == kLong || index.scalar_type() == kInt,
              "index_select(): Expected dtype int32 or int64 for index");
  TORCH_CHECK_INDEX(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  TORCH_CHECK(self.dim() > 0 || index.numel() == 1, "index_select(): Index to scalar can have only 1 value, got ",
              index.numel(), " value(s)");
  c10::cuda::CUDAGuard guard(self.device());
  const Tensor src = (self.dim() == 0 ? self.view({1}) : self).contiguous();
  const Tensor idx = index.reshape({-1}).to(kLong).contiguous();
  std::vector<int64_t> shape = src.sizes().vec();
  const int64_t size = shape[dim];
  shape[dim] = idx.numel();
  Tensor out = at::empty(shape, self.scalar_type(), std::nullopt, self.device());
  if (out.numel() > 0) {
    const int64_t outer = prod_range(src.sizes(), 0, dim), inner = prod_range(src.sizes(), dim + 1, src.dim());
    AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "index_select_cuda", [&] {
      index_select_kernel<scalar_t><<<static_cast<unsigned>(at::cuda::detail::GET_BLOCKS(out.numel(), 256)), 256, 0,
                                      at::cuda::getCurrentCUDAStream()>>>(
          src.const_data_ptr<scalar_t>(), idx.const_data_ptr<int64_t>(), out.mutable_data_ptr<scalar_t>(), outer,
          idx.numel(), size, inner);
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    });
  }
  return self.dim() == 0 ? out.view(IntArrayRef{}) : out;
}

Tensor& index_add_cuda_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  dim = index_add_check(self, dim, index, source);
  const int64_t n = source.dim() > 0 ? source.size(dim) : 1;
  if (source.numel() == 0) {
    return self;
  }
  c10::cuda::CUDAGuard guard(self.device());
  const Tensor src = (source.dim() == 0 ? source.view({1}) : source).contiguous();
  const Tensor idx = index.reshape({-1}).to(kLong).contiguous();
  // A strided self is updated through a contiguous copy, written back after.
  Tensor dst = (self.dim() == 0 ? self.view({1}) : self).contiguous();
  const int64_t outer = prod_range(src.sizes(), 0, dim), inner = prod_range(src.sizes(), dim + 1, src.dim());
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "index_add_cuda_", [&] {
    index_add_kernel<scalar_t><<<static_cast<unsigned>(at::cuda::detail::GET_BLOCKS(src.numel(), 256)), 256, 0,
                                 at::cuda::getCurrentCUDAStream()>>>(
        dst.mutable_data_ptr<scalar_t>(), idx.const_data_ptr<int64_t>(), src.const_data_ptr<scalar_t>(),
        alpha.to<scalar_t>(), outer, n, dst.size(dim), inner);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  if (dst.data_ptr() != self.data_ptr()) {  // contiguous() made a copy
    self.copy_(self.dim() == 0 ? dst.view(IntArrayRef{}) : dst);
  }
  return self;
}

// The rows of grad_output added into the rows of the weight they were read from: index_add_
// along dim 0, after padding_idx's rows are zeroed and, with scale_grad_by_freq, each row divided
// by how often its index occurs.
Tensor embedding_dense_backward_cuda(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                     int64_t padding_idx, bool scale_grad_by_freq) {
  TORCH_CHECK(indices.scalar_type() == kLong || indices.scalar_type() == kInt,
              "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got "
              "torch.cuda.", c10::toString(indices.scalar_type()), "Tensor instead (while checking arguments for "
              "embedding_backward)");
  c10::cuda::CUDAGuard guard(grad_output.device());
  const Tensor idx = indices.reshape({-1}).to(kLong);
  const int64_t dim = grad_output.size(-1);
  Tensor rows = grad_output.reshape({idx.numel(), dim});
  if (padding_idx >= 0) {
    rows = rows.masked_fill(idx.eq(padding_idx).unsqueeze(1), 0);
  }
  if (scale_grad_by_freq) {
    const Tensor counts = at::zeros({num_weights}, rows.scalar_type(), std::nullopt, rows.device(), std::nullopt)
                              .index_add_(0, idx, at::ones({idx.numel()}, rows.scalar_type(), std::nullopt, rows.device(), std::nullopt));
    rows = at::div(rows, counts.index_select(0, idx).unsqueeze(1));
  }
  Tensor grad_weight = at::zeros({num_weights, dim}, grad_output.scalar_type(), std::nullopt, grad_output.device(), std::nullopt);
  return grad_weight.index_add_(0, idx, rows);
}

}  // namespace at::native
