// aten/src/ATen/native/cuda/Sorting.cu - kthvalue of CUDA tensors: the k-th smallest element of
// each row along a dim, and its index. Mirrors PyTorch's aten/src/ATen/native/cuda/Sorting.cu
// and Sorting.cpp (gatherKthValue): one block per row finds the value with a radix select
// (SortingRadixSelect.cuh), never sorting the row, then finds where it is.
// Guide: docs/source/internals/cuda_training.rst.
//
// When the k-th value occurs more than once, PyTorch's kernel returns whichever matching index
// a thread writes; this one returns the element a stable sort would put at position k - 1 (the
// right one among the equal values, counted in index order), which is what the CPU kernel in
// Sorting.cpp returns too. The checks and their messages are shared with it (SortingUtils.h).
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

constexpr int kKthMaxThreads = 256;

// Smallest first: the selection keys are complemented (largest = false), so the k-th largest
// selection key is the k-th smallest value. radix_select also says that the answer is the
// equal_needed-th of the elements equal to it, in index order; a block-wide prefix count of
// those elements, chunk by chunk, finds the thread holding it, and that thread writes it.
template <typename scalar_t>
__global__ void gather_kthvalue(const scalar_t* __restrict__ in, scalar_t* __restrict__ values,
                                int64_t* __restrict__ indices, int64_t n, int64_t k) {
  __shared__ int counts[kRadixSize];
  __shared__ int scan[kKthMaxThreads];
  const int64_t row = blockIdx.x;
  const scalar_t* x = in + row * n;

  const auto kth = radix_select(x, n, k, /*largest=*/false, counts);

  int64_t ties_before = 0;  // equal elements in the chunks already read; the same in every thread
  for (int64_t base = 0; base < n && ties_before < kth.equal_needed; base += blockDim.x) {
    const int64_t i = base + threadIdx.x;
    const bool tie = i < n && selection_key(x[i], false) == kth.key;
    int total;
    const int position = block_exclusive_sum(tie ? 1 : 0, scan, &total);
    if (tie && ties_before + position + 1 == kth.equal_needed) {
      values[row] = x[i];
      indices[row] = i;
    }
    ties_before += total;
  }
}

}  // namespace

std::tuple<Tensor, Tensor> kthvalue_cuda(const Tensor& self, int64_t k, int64_t dim_, bool keepdim) {
  const int64_t dim = kthvalue_check(self, k, dim_);
  const std::vector<int64_t> out_shape = reduced_shape(self, dim, keepdim);
  c10::cuda::CUDAGuard guard(self.device());
  Tensor input = self.dim() == 0 ? self.view({1}) : self.movedim(dim, -1).contiguous();
  const int64_t n = input.size(-1);
  const int64_t rows = input.numel() / n;  // n >= 1: kthvalue_check refused an empty dim
  Tensor values = at::empty({rows}, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  Tensor indices = at::empty({rows}, kLong, std::nullopt, self.device(), std::nullopt, std::nullopt);
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "kthvalue_cuda", [&] {
    if (rows > 0) {
      TORCH_CHECK(rows <= std::numeric_limits<int>::max(), "kthvalue: too many rows for one launch");
      const int threads = static_cast<int>(std::min<int64_t>(kKthMaxThreads, std::max<int64_t>(1, (n + 31) / 32) * 32));
      gather_kthvalue<scalar_t><<<static_cast<unsigned>(rows), threads, 0, at::cuda::getCurrentCUDAStream()>>>(
          input.const_data_ptr<scalar_t>(), values.mutable_data_ptr<scalar_t>(), indices.mutable_data_ptr<int64_t>(),
          n, k);
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    }
  });
  return {values.view(out_shape), indices.view(out_shape)};
}

}  // namespace at::native
