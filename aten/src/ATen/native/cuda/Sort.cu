// aten/src/ATen/native/cuda/Sort.cu - sort (and so argsort, and msort's like) of CUDA tensors
// along one dim: values and the indices they came from. Mirrors PyTorch's
// aten/src/ATen/native/cuda/Sort.cu, Sort.cpp and SortUtils.cuh (a row that fits in shared
// memory is sorted by one block, a bitonic sort of (key, index) pairs) and SortStable.cu
// (longer rows take a segmented sort in global memory; PyTorch's is cub's radix sort, here it
// is the same bitonic network run one stage per kernel launch).
// Guide: docs/source/internals/cuda_training.rst.
//
// Every value becomes an ordered integer key (SortUtils.cuh), complemented for a descending
// sort. The pairs (key, index) are all different, since the indices are, so sorting them
// gives one answer: the stable order, NaN last (first when descending), equal to the CPU's
// std::stable_sort in values and indices. The values are read back from the input through the
// sorted indices, so the bits of each value (a NaN's payload, -0.0) are the CPU's too.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/native/cuda/SortUtils.cuh>
#include <c10/core/WrapDimMinimal.h>
#include <c10/cuda/CUDAGuard.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace at::native {
namespace {

// Rows of up to this many elements are sorted in shared memory: 4096 keys of 8 bytes and
// their 4-byte indices take 48 KiB, all the dynamic shared memory a block gets by default.
constexpr int64_t kMaxSharedSortSize = 4096;
constexpr int kMaxSortThreads = 256;

int64_t next_power_of_two(int64_t n) {
  int64_t p = 1;
  while (p < n) {
    p *= 2;
  }
  return p;
}

// [marker: bitonic_sort_shared]
// One comparator of the network: the pairs at a and b end up in order, ascending or not.
template <typename key_t, typename index_t>
__device__ __forceinline__ void bitonic_compare_swap(key_t* keys, index_t* idx, int64_t a, int64_t b, bool ascending) {
  if (pair_greater(keys[a], idx[a], keys[b], idx[b]) == ascending) {
    const key_t k = keys[a];
    keys[a] = keys[b];
    keys[b] = k;
    const index_t j = idx[a];
    idx[a] = idx[b];
    idx[b] = j;
  }
}

// One block sorts one row of n elements. The row is loaded as (key, index) pairs into shared
// memory and padded to `padded`, a power of two, with the largest key: the padding indices
// (n and up) are larger than any real one, so the padding sorts last even after a NaN.
//
// A bitonic sort merges sorted runs of length size / 2 into runs of length size, size = 2,
// 4, ..., padded. Each merge is log2(size) steps; in the step with distance `stride`, element
// a and element a + stride are compared and swapped if out of order, ascending in runs whose
// bit `size` of a is 0 and descending in the others (so that each pair of neighbouring runs
// forms the bitonic sequence the next merge needs). The padded / 2 comparisons of a step are
// independent, so the block's threads share them; the barrier after the step makes its swaps
// visible to the next one.
template <typename scalar_t>
__global__ void bitonic_sort_rows_shared(const scalar_t* __restrict__ in, scalar_t* __restrict__ values,
                                         int64_t* __restrict__ indices, int64_t n, int padded, bool descending) {
  using key_t = sort_key_t<scalar_t>;
  extern __shared__ __align__(8) unsigned char sort_smem[];
  key_t* keys = reinterpret_cast<key_t*>(sort_smem);
  int* idx = reinterpret_cast<int*>(keys + padded);  // a row here has at most 4096 elements

  const int64_t row = blockIdx.x;
  const scalar_t* x = in + row * n;
  for (int i = threadIdx.x; i < padded; i += blockDim.x) {
    keys[i] = i < n ? to_sort_key(x[i], descending) : max_sort_key<key_t>();
    idx[i] = i;
  }
  __syncthreads();

  for (int size = 2; size <= padded; size *= 2) {
    for (int stride = size / 2; stride > 0; stride /= 2) {
      for (int t = threadIdx.x; t < padded / 2; t += blockDim.x) {
        // The t-th pair of this step: a is t with a 0 bit inserted at `stride`.
        const int a = 2 * t - (t & (stride - 1));
        const int b = a + stride;
        const bool ascending = (a & size) == 0;
        bitonic_compare_swap(keys, idx, a, b, ascending);
      }
      __syncthreads();
    }
  }

  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    values[row * n + i] = x[idx[i]];
    indices[row * n + i] = idx[i];
  }
}
// [end marker: bitonic_sort_shared]

// The segmented path for longer rows: the same bitonic network, over (key, index) arrays in
// global memory, `padded` entries per row. A step needs every swap of the step before it to
// be done, and threads of different blocks cannot wait for each other inside a kernel, so
// each step is a kernel launch of its own (launches on one stream run in order). One thread
// takes one comparison, for all rows at once.
template <typename scalar_t>
__global__ void bitonic_init_global(const scalar_t* __restrict__ in, sort_key_t<scalar_t>* __restrict__ keys,
                                    int64_t* __restrict__ idx, int64_t rows, int64_t n, int64_t padded,
                                    bool descending) {
  CUDA_KERNEL_LOOP_TYPE(i, rows * padded, int64_t) {
    const int64_t row = i / padded, j = i % padded;
    keys[i] = j < n ? to_sort_key(in[row * n + j], descending) : max_sort_key<sort_key_t<scalar_t>>();
    idx[i] = j;
  }
}

template <typename key_t>
__global__ void bitonic_step_global(key_t* __restrict__ keys, int64_t* __restrict__ idx, int64_t rows,
                                    int64_t padded, int64_t size, int64_t stride) {
  const int64_t pairs = padded / 2;
  CUDA_KERNEL_LOOP_TYPE(i, rows * pairs, int64_t) {
    const int64_t row = i / pairs, t = i % pairs;
    const int64_t a = row * padded + 2 * t - (t & (stride - 1));
    const int64_t b = a + stride;
    const bool ascending = ((a - row * padded) & size) == 0;
    bitonic_compare_swap(keys, idx, a, b, ascending);
  }
}

// The first n sorted entries of each row (the padding sorted after them): indices, and the
// values they point at.
template <typename scalar_t>
__global__ void bitonic_gather_global(const scalar_t* __restrict__ in, const int64_t* __restrict__ idx,
                                      scalar_t* __restrict__ values, int64_t* __restrict__ indices, int64_t rows,
                                      int64_t n, int64_t padded) {
  CUDA_KERNEL_LOOP_TYPE(i, rows * n, int64_t) {
    const int64_t row = i / n, j = i % n;
    const int64_t source = idx[row * padded + j];
    values[i] = in[row * n + source];
    indices[i] = source;
  }
}

template <typename scalar_t>
void sort_rows_global(const Tensor& input, const Tensor& values, const Tensor& indices, int64_t rows, int64_t n,
                      bool descending, cudaStream_t stream) {
  using key_t = sort_key_t<scalar_t>;
  const int64_t padded = next_power_of_two(n);
  // Scratch for the keys, as bytes: there is no unsigned 64-bit dtype to allocate them as.
  Tensor key_storage = at::empty({rows * padded * static_cast<int64_t>(sizeof(key_t))}, kByte, std::nullopt,
                                 input.device(), std::nullopt, std::nullopt);
  Tensor idx_storage = at::empty({rows * padded}, kLong, std::nullopt, input.device(), std::nullopt, std::nullopt);
  key_t* keys = reinterpret_cast<key_t*>(key_storage.mutable_data_ptr<uint8_t>());
  int64_t* idx = idx_storage.mutable_data_ptr<int64_t>();
  const int threads = at::cuda::detail::CUDA_NUM_THREADS;

  bitonic_init_global<scalar_t><<<at::cuda::detail::GET_BLOCKS(rows * padded, threads), threads, 0, stream>>>(
      input.const_data_ptr<scalar_t>(), keys, idx, rows, n, padded, descending);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  const int step_blocks = at::cuda::detail::GET_BLOCKS(rows * (padded / 2), threads);
  for (int64_t size = 2; size <= padded; size *= 2) {
    for (int64_t stride = size / 2; stride > 0; stride /= 2) {
      bitonic_step_global<key_t><<<step_blocks, threads, 0, stream>>>(keys, idx, rows, padded, size, stride);
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    }
  }
  bitonic_gather_global<scalar_t><<<at::cuda::detail::GET_BLOCKS(rows * n, threads), threads, 0, stream>>>(
      input.const_data_ptr<scalar_t>(), idx, values.mutable_data_ptr<scalar_t>(),
      indices.mutable_data_ptr<int64_t>(), rows, n, padded);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

template <typename scalar_t>
void sort_rows_shared(const Tensor& input, const Tensor& values, const Tensor& indices, int64_t rows, int64_t n,
                      bool descending, cudaStream_t stream) {
  using key_t = sort_key_t<scalar_t>;
  const int padded = static_cast<int>(next_power_of_two(n));
  const int threads = std::max(1, std::min(kMaxSortThreads, padded / 2));
  const size_t shared_bytes = static_cast<size_t>(padded) * (sizeof(key_t) + sizeof(int));
  // One block per row; gridDim.x goes up to 2^31 - 1.
  TORCH_CHECK(rows <= std::numeric_limits<int>::max(), "sort: too many rows for one launch");
  bitonic_sort_rows_shared<scalar_t><<<static_cast<unsigned>(rows), threads, shared_bytes, stream>>>(
      input.const_data_ptr<scalar_t>(), values.mutable_data_ptr<scalar_t>(), indices.mutable_data_ptr<int64_t>(),
      n, padded, descending);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

}  // namespace

// Rows along dim, made contiguous with dim last (the CPU's layout), sorted one of two ways by
// their length, and moved back. The sort is always stable: with index tie-breaking a stable
// order costs nothing more here, so stable=False gets it too (PyTorch's CUDA sort with
// stable=False may order equal values differently).
std::tuple<Tensor, Tensor> sort_stable_cuda(const Tensor& self, std::optional<bool> stable, int64_t dim,
                                            bool descending) {
  (void)stable;
  TORCH_CHECK(!c10::isComplexType(self.scalar_type()), "Sort does not support complex dtypes on CUDA");
  dim = c10::maybe_wrap_dim(dim, self.dim());
  c10::cuda::CUDAGuard guard(self.device());
  Tensor input = self.dim() == 0 ? self.view({1}) : self.movedim(dim, -1).contiguous();
  const int64_t n = input.size(-1);
  Tensor values = at::empty(input.sizes(), input.scalar_type(), std::nullopt, input.device(), std::nullopt,
                            std::nullopt);
  Tensor indices = at::empty(input.sizes(), kLong, std::nullopt, input.device(), std::nullopt, std::nullopt);
  const int64_t rows = n == 0 ? 0 : input.numel() / n;
  if (rows > 0) {
    const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, input.scalar_type(), "sort_cuda", [&] {
      if (n <= kMaxSharedSortSize) {
        sort_rows_shared<scalar_t>(input, values, indices, rows, n, descending, stream);
      } else {
        sort_rows_global<scalar_t>(input, values, indices, rows, n, descending, stream);
      }
    });
  }
  if (self.dim() == 0) {
    return {values.view(IntArrayRef{}), indices.view(IntArrayRef{})};
  }
  return {values.movedim(-1, dim).contiguous(), indices.movedim(-1, dim).contiguous()};
}

}  // namespace at::native
