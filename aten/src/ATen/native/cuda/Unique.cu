// aten/src/ATen/native/cuda/Unique.cu - torch.unique of CUDA tensors: _unique2 (the distinct
// elements) and unique_dim (the distinct slices along a dim), with the inverse and the counts.
// Mirrors PyTorch's aten/src/ATen/native/cuda/Unique.cu and UniqueCub.cu: sort, mark the first
// element of each run of equal ones, an inclusive scan of the marks numbers the runs (the
// inverse), and the counts are the distances between run starts. PyTorch sorts with thrust or
// cub; here the sort is Sort.cu's stable sort. Guide: docs/source/internals/cuda_training.rst.
//
// The results equal the CPU's (Unique.cpp): sorted whatever `sorted` says, NaNs all distinct,
// -0.0 equal to 0.0 and each output element the first of its run in the stable order; the
// inverse and counts of _unique2 are empty when not asked for, unique_dim always fills them.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/native/cuda/SortUtils.cuh>
#include <c10/core/WrapDimMinimal.h>
#include <c10/cuda/CUDAGuard.h>

namespace at::native {
namespace {

// Element i of the sorted sequence starts a run when it differs from element i - 1.
template <typename scalar_t>
__global__ void mark_run_starts(const scalar_t* __restrict__ sorted, bool* __restrict__ starts, int64_t n) {
  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
    starts[i] = i == 0 || !same_value(sorted[i], sorted[i - 1]);
  }
}

// The same for the rows of a sorted [n, width] matrix: a row starts a run when any of its
// elements differs from the row above.
template <typename scalar_t>
__global__ void mark_row_run_starts(const scalar_t* __restrict__ sorted, bool* __restrict__ starts, int64_t n,
                                    int64_t width) {
  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
    bool differs = i == 0;
    for (int64_t c = 0; c < width && !differs; c++) {
      differs = !same_value(sorted[i * width + c], sorted[(i - 1) * width + c]);
    }
    starts[i] = differs;
  }
}

// run_id is the inclusive scan of the starts: position i belongs to run run_id[i] - 1. Each
// run's first position records where the run begins and which input element it came from
// (perm[i]); every position sends its run number back to the element it came from.
__global__ void scatter_runs(const bool* __restrict__ starts, const int64_t* __restrict__ run_id,
                             const int64_t* __restrict__ perm, int64_t* __restrict__ run_begin,
                             int64_t* __restrict__ first_source, int64_t* __restrict__ inverse, int64_t n) {
  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
    const int64_t run = run_id[i] - 1;
    if (starts[i]) {
      run_begin[run] = i;
      first_source[run] = perm[i];
    }
    if (inverse != nullptr) {
      inverse[perm[i]] = run;
    }
  }
}

// A run's count is where the next run begins (n after the last) minus where it begins.
__global__ void run_counts(const int64_t* __restrict__ run_begin, int64_t* __restrict__ counts, int64_t runs,
                           int64_t n) {
  CUDA_KERNEL_LOOP_TYPE(j, runs, int64_t) {
    counts[j] = (j + 1 < runs ? run_begin[j + 1] : n) - run_begin[j];
  }
}

struct Runs {
  int64_t count = 0;
  Tensor first_source;  // [count]: the input position of each run's first element
  Tensor inverse;       // [n]: the run of each input position (when asked for)
  Tensor counts;        // [count]: the length of each run (when asked for)
};

// From the run starts of a sorted sequence (perm[i] = the input position of sorted element i):
// the number of runs, read by the host to size the results (a synchronization, as in PyTorch),
// and the per-run and per-element results.
Runs runs_from_starts(const Tensor& starts, const Tensor& perm, bool want_inverse, bool want_counts) {
  const int64_t n = starts.numel();
  const auto options_device = perm.device();
  Runs r;
  const Tensor run_id = starts.to(kLong).cumsum(0);
  r.count = run_id.select(0, n - 1).item().toLong();
  Tensor run_begin = at::empty({r.count}, kLong, std::nullopt, options_device, std::nullopt, std::nullopt);
  r.first_source = at::empty({r.count}, kLong, std::nullopt, options_device, std::nullopt, std::nullopt);
  if (want_inverse) {
    r.inverse = at::empty({n}, kLong, std::nullopt, options_device, std::nullopt, std::nullopt);
  }
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 256;
  scatter_runs<<<at::cuda::detail::GET_BLOCKS(n, threads), threads, 0, stream>>>(
      starts.const_data_ptr<bool>(), run_id.const_data_ptr<int64_t>(), perm.const_data_ptr<int64_t>(),
      run_begin.mutable_data_ptr<int64_t>(), r.first_source.mutable_data_ptr<int64_t>(),
      want_inverse ? r.inverse.mutable_data_ptr<int64_t>() : nullptr, n);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  if (want_counts) {
    r.counts = at::empty({r.count}, kLong, std::nullopt, options_device, std::nullopt, std::nullopt);
    run_counts<<<at::cuda::detail::GET_BLOCKS(r.count, threads), threads, 0, stream>>>(
        run_begin.const_data_ptr<int64_t>(), r.counts.mutable_data_ptr<int64_t>(), r.count, n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  }
  return r;
}

Tensor empty_long(IntArrayRef shape, Device device) {
  return at::empty(shape, kLong, std::nullopt, device, std::nullopt, std::nullopt);
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> _unique2_cuda(const Tensor& self, bool sorted, bool return_inverse,
                                                 bool return_counts) {
  (void)sorted;  // the result is sorted either way, as on the CPU
  c10::cuda::CUDAGuard guard(self.device());
  const Tensor flat = self.reshape({-1});
  const int64_t n = flat.numel();
  if (n == 0) {
    return {at::empty({0}, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt),
            return_inverse ? empty_long(self.sizes(), self.device()) : empty_long({0}, self.device()),
            empty_long({0}, self.device())};
  }
  // Stable, so each run of equal values lists their input positions in order: its first
  // element is the value's first occurrence, the one the CPU returns (-0.0 or 0.0).
  const auto sort_result = at::sort(flat, /*stable=*/true, /*dim=*/0, /*descending=*/false);
  const Tensor& sorted_values = std::get<0>(sort_result);
  const Tensor& perm = std::get<1>(sort_result);
  Tensor starts = at::empty({n}, kBool, std::nullopt, self.device(), std::nullopt, std::nullopt);
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "unique_cuda", [&] {
    mark_run_starts<scalar_t><<<at::cuda::detail::GET_BLOCKS(n, 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        sorted_values.const_data_ptr<scalar_t>(), starts.mutable_data_ptr<bool>(), n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  Runs runs = runs_from_starts(starts, perm, return_inverse, return_counts);
  Tensor output = flat.index_select(0, runs.first_source);
  Tensor inverse = return_inverse ? runs.inverse.view(self.sizes()) : empty_long({0}, self.device());
  Tensor counts = return_counts ? runs.counts : empty_long({0}, self.device());
  return {output, inverse, counts};
}

// The slices along dim, flattened to the rows of an [n, width] matrix, are put in
// lexicographic order the way a least-significant-digit radix sort orders numbers: a stable
// sort by the last column, then by the one before it, ..., then by the first. Each sort keeps
// the order of the previous ones among rows equal in its column, so at the end rows are
// ordered by the first column, then the second, and so on. Equal rows end up next to each
// other, and the run machinery of _unique2 does the rest.
std::tuple<Tensor, Tensor, Tensor> unique_dim_cuda(const Tensor& self, int64_t dim, bool sorted, bool return_inverse,
                                                   bool return_counts) {
  (void)sorted;
  (void)return_inverse;  // like the CPU's unique_dim, the inverse and counts are always filled
  (void)return_counts;
  dim = c10::maybe_wrap_dim(dim, self.dim());
  c10::cuda::CUDAGuard guard(self.device());
  const int64_t n = self.size(dim);
  const Tensor rows = self.movedim(dim, 0).contiguous().view({n, -1});
  const int64_t width = rows.size(1);
  Tensor perm = at::arange(n, kLong, std::nullopt, self.device(), std::nullopt);
  for (int64_t c = width - 1; c >= 0; c--) {
    const Tensor column = rows.select(1, c).index_select(0, perm);
    const Tensor order = std::get<1>(at::sort(column, /*stable=*/true, /*dim=*/0, /*descending=*/false));
    perm = perm.index_select(0, order);
  }
  const Tensor sorted_rows = rows.index_select(0, perm).contiguous();
  Tensor starts = at::empty({n}, kBool, std::nullopt, self.device(), std::nullopt, std::nullopt);
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "unique_dim_cuda", [&] {
    mark_row_run_starts<scalar_t>
        <<<at::cuda::detail::GET_BLOCKS(n, 256), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
            sorted_rows.const_data_ptr<scalar_t>(), starts.mutable_data_ptr<bool>(), n, width);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  Runs runs = runs_from_starts(starts, perm, /*want_inverse=*/true, /*want_counts=*/true);
  return {self.index_select(dim, runs.first_source), runs.inverse, runs.counts};
}

}  // namespace at::native
