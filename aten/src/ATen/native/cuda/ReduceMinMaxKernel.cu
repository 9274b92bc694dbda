// aten/src/ATen/native/cuda/ReduceMinMaxKernel.cu - amax/amin (and max()/min() of a whole
// tensor), max/min along a dim with their indices, and argmax/argmin on CUDA tensors. Mirrors
// PyTorch's aten/src/ATen/native/cuda/ReduceMaxValuesKernel.cu, ReduceMinValuesKernel.cu,
// ReduceArgMaxKernel.cu, ReduceArgMinKernel.cu and ReduceMinMaxKernel.cu, gathered in one file,
// with their semantics: NaN wins (and stays), ties keep the first index.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/native/SharedReduceOps.h>
#include <ATen/native/cuda/Reduce.cuh>

#include <limits>
#include <type_traits>

namespace at::native {
namespace {

// beats(a, b) and lower_bound_init come from ATen/native/SharedReduceOps.h, as on the CPU.

template <typename acc_t, typename out_t, bool is_max>
struct MinMaxValuesOps {
  __device__ acc_t reduce(acc_t a, acc_t x, int64_t /*idx*/) const { return beats<is_max>(a, x) ? x : a; }
  __device__ acc_t combine(acc_t a, acc_t b) const { return beats<is_max>(a, b) ? b : a; }
  __device__ acc_t warp_shfl_down(acc_t acc, int offset) const { return WARP_SHFL_DOWN(acc, offset); }
  __device__ out_t project(acc_t acc) const { return static_cast<out_t>(acc); }
};

// [marker: ArgMinMaxOps]
// (value, index) pairs. A thread meets its elements in increasing index order, so within a
// thread a tie keeps the earlier one; across threads it does not (thread 0 holds indices 0,
// 256, 512, ...), so combine breaks ties, NaN with NaN included, by the smaller index.
template <typename acc_scalar_t, typename out_t, bool is_max, bool with_values>
struct ArgMinMaxOps {
  using acc_t = pair<acc_scalar_t, int64_t>;
  __device__ acc_t reduce(acc_t a, acc_scalar_t x, int64_t idx) const {
    return (a.second < 0 || beats<is_max>(a.first, x)) ? acc_t{x, idx} : a;
  }
  __device__ acc_t combine(acc_t a, acc_t b) const {
    if (b.second < 0) return a;
    if (a.second < 0) return b;
    if (beats<is_max>(a.first, b.first)) return b;
    if (beats<is_max>(b.first, a.first)) return a;
    return b.second < a.second ? b : a;
  }
  __device__ acc_t warp_shfl_down(acc_t acc, int offset) const {
    return acc_t{WARP_SHFL_DOWN(acc.first, offset), WARP_SHFL_DOWN(acc.second, offset)};
  }
  __device__ auto project(acc_t acc) const {
    if constexpr (with_values) {
      return pair<out_t, int64_t>{static_cast<out_t>(acc.first), acc.second};
    } else {
      return acc.second;
    }
  }
};
// [end marker: ArgMinMaxOps]

template <bool is_max>
void min_max_values_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, iter.dtype(0), is_max ? "max_values_cuda" : "min_values_cuda",
                             [&] {
                               using acc_t = at::opmath_type<scalar_t>;
                               gpu_reduce_kernel<acc_t>(iter, MinMaxValuesOps<acc_t, scalar_t, is_max>{},
                                                        lower_bound_init<acc_t, is_max>());
                             });
}

template <bool is_max, bool with_values>
void arg_min_max_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, iter.input_dtype(),
                             with_values ? (is_max ? "max_cuda" : "min_cuda") : (is_max ? "argmax_cuda" : "argmin_cuda"),
                             [&] {
                               using acc_scalar_t = at::opmath_type<scalar_t>;
                               using Ops = ArgMinMaxOps<acc_scalar_t, scalar_t, is_max, with_values>;
                               gpu_reduce_kernel<acc_scalar_t>(
                                   iter, Ops{}, typename Ops::acc_t{lower_bound_init<acc_scalar_t, is_max>(), -1});
                             });
}

}  // namespace

REGISTER_CUDA_DISPATCH(max_values_stub, &min_max_values_kernel_cuda<true>);
REGISTER_CUDA_DISPATCH(min_values_stub, &min_max_values_kernel_cuda<false>);
REGISTER_CUDA_DISPATCH(argmax_stub, (&arg_min_max_kernel_cuda<true, false>));
REGISTER_CUDA_DISPATCH(argmin_stub, (&arg_min_max_kernel_cuda<false, false>));
REGISTER_CUDA_DISPATCH(max_stub, (&arg_min_max_kernel_cuda<true, true>));
REGISTER_CUDA_DISPATCH(min_stub, (&arg_min_max_kernel_cuda<false, true>));

}  // namespace at::native
