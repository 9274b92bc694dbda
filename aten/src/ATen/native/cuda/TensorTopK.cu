// aten/src/ATen/native/cuda/TensorTopK.cu - topk of CUDA tensors: the k largest (or smallest)
// elements of each row along a dim, and their indices. Mirrors PyTorch's
// aten/src/ATen/native/cuda/TensorTopK.cu and TensorTopK.cpp: a radix select per row finds the
// k-th value without sorting (SortingRadixSelect.cuh), then the block gathers the elements that
// beat it; with sorted=True the k results are then sorted (Sort.cu), as PyTorch sorts them.
// Guide: docs/source/internals/cuda_training.rst.
//
// The gather writes, in index order, first every element strictly better than the k-th value,
// then as many elements equal to it as the top k still needs, the first ones in index order.
// So with sorted=False the order is the order in the row; with sorted=True equal values come
// out in index order. The CPU (std::nth_element / std::partial_sort) may order equal values
// differently: only the values and that each index points at its value are the same.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/native/SortingUtils.h>
#include <ATen/native/cuda/SortingRadixSelect.cuh>
#include <c10/cuda/CUDAGuard.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace at::native {
namespace {

constexpr int kTopKMaxThreads = 256;

// A block of whole warps, no larger than the row needs (at least 32, so that the kRadixSize
// counters of radix_select are cleared by threads of the block).
int topk_threads(int64_t n) {
  const int64_t warps = (n + 31) / 32;
  return static_cast<int>(std::min<int64_t>(kTopKMaxThreads, std::max<int64_t>(1, warps) * 32));
}

// One block per row. After radix_select every thread knows the k-th best selection key and
// how many elements equal to it belong in the result. The row is then read in chunks of
// blockDim.x elements; in each chunk the threads whose element is taken find where to write
// it with a block-wide exclusive prefix sum of their 0/1 flags, and the chunk's total moves
// the write position on. Two such passes: elements strictly better, then the needed ties.
template <typename scalar_t>
__global__ void gather_topk(const scalar_t* __restrict__ in, scalar_t* __restrict__ values,
                            int64_t* __restrict__ indices, int64_t n, int64_t k, bool largest) {
  __shared__ int counts[kRadixSize];
  __shared__ int scan[kTopKMaxThreads];
  const int64_t row = blockIdx.x;
  const scalar_t* x = in + row * n;
  scalar_t* out_values = values + row * k;
  int64_t* out_indices = indices + row * k;

  const auto kth = radix_select(x, n, k, largest, counts);

  int64_t written = 0;  // the same in every thread: it only grows by block totals
  for (int64_t base = 0; base < n; base += blockDim.x) {
    const int64_t i = base + threadIdx.x;
    const bool better = i < n && selection_key(x[i], largest) > kth.key;
    int total;
    const int position = block_exclusive_sum(better ? 1 : 0, scan, &total);
    if (better) {
      out_values[written + position] = x[i];
      out_indices[written + position] = i;
    }
    written += total;
  }

  int64_t ties_left = kth.equal_needed;
  for (int64_t base = 0; base < n && ties_left > 0; base += blockDim.x) {
    const int64_t i = base + threadIdx.x;
    const bool tie = i < n && selection_key(x[i], largest) == kth.key;
    int total;
    const int position = block_exclusive_sum(tie ? 1 : 0, scan, &total);
    if (tie && position < ties_left) {
      out_values[written + position] = x[i];
      out_indices[written + position] = i;
    }
    const int64_t taken = total < ties_left ? total : ties_left;
    written += taken;
    ties_left -= taken;
  }
}

}  // namespace

std::tuple<Tensor, Tensor> topk_cuda(const Tensor& self, int64_t k, int64_t dim_, bool largest, bool sorted) {
  const int64_t dim = topk_check(self, k, dim_);
  if (self.dim() == 0) {
    k = 1;  // a 0-d result holds the one element, even for k = 0, as in PyTorch
  }
  c10::cuda::CUDAGuard guard(self.device());
  Tensor input = self.dim() == 0 ? self.view({1}) : self.movedim(dim, -1).contiguous();
  const int64_t n = input.size(-1);
  std::vector<int64_t> out_shape = input.sizes().vec();
  out_shape.back() = k;
  Tensor values = at::empty(out_shape, input.scalar_type(), std::nullopt, input.device(), std::nullopt,
                            std::nullopt);
  Tensor indices = at::empty(out_shape, kLong, std::nullopt, input.device(), std::nullopt, std::nullopt);
  const int64_t rows = n == 0 ? 0 : input.numel() / n;
  // The dispatch runs even when there is nothing to select, so every call with an unsupported
  // dtype (bool, complex) is refused alike.
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "topk_out_cuda", [&] {
    if (k > 0 && rows > 0) {
      TORCH_CHECK(rows <= std::numeric_limits<int>::max(), "topk: too many rows for one launch");
      gather_topk<scalar_t><<<static_cast<unsigned>(rows), topk_threads(n), 0, at::cuda::getCurrentCUDAStream()>>>(
          input.const_data_ptr<scalar_t>(), values.mutable_data_ptr<scalar_t>(), indices.mutable_data_ptr<int64_t>(),
          n, k, largest);
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    }
  });
  if (sorted && k > 1 && rows > 0) {
    // Best first: descending for largest. The sort is stable, so ties stay in index order.
    auto [sorted_values, order] = at::sort(values, /*stable=*/true, /*dim=*/-1, /*descending=*/largest);
    indices = indices.gather(-1, order);
    values = sorted_values;
  }
  if (self.dim() == 0) {
    return {values.view(IntArrayRef{}), indices.view(IntArrayRef{})};
  }
  return {values.movedim(-1, dim).contiguous(), indices.movedim(-1, dim).contiguous()};
}

}  // namespace at::native
