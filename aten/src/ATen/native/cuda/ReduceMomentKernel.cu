// aten/src/ATen/native/cuda/ReduceMomentKernel.cu - var and std (and var_mean, std_mean) on
// CUDA tensors: Welford's algorithm in each thread, Chan et al.'s merge across threads and
// lanes. Mirrors PyTorch's aten/src/ATen/native/cuda/ReduceMomentKernel.cu and WelfordOps
// (aten/src/ATen/native/SharedReduceOps.h), which accumulate in float for float, Half and
// BFloat16 and in double for double. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/native/cuda/Reduce.cuh>

#include <limits>
#include <type_traits>

namespace at::native {
namespace {

// [marker: WelfordOps]
// Running mean and m2 (the sum of squared deviations from it) of n elements. No default
// member initializers: a __shared__ array of it must need no constructor.
template <typename acc_t>
struct WelfordData {
  acc_t mean;
  acc_t m2;
  int64_t n;
};

template <typename acc_scalar_t, typename out_t, bool with_mean>
struct WelfordOps {
  using acc_t = WelfordData<acc_scalar_t>;
  acc_scalar_t correction;
  bool take_sqrt;

  __device__ acc_t reduce(acc_t acc, acc_scalar_t x, int64_t /*idx*/) const {
    acc.n += 1;
    const acc_scalar_t delta = x - acc.mean;
    acc.mean += delta / static_cast<acc_scalar_t>(acc.n);
    acc.m2 += delta * (x - acc.mean);
    return acc;
  }
  __device__ acc_t combine(acc_t a, acc_t b) const {
    if (a.n == 0) return b;
    if (b.n == 0) return a;
    const int64_t n = a.n + b.n;
    const acc_scalar_t delta = b.mean - a.mean;
    const acc_scalar_t nb_over_n = static_cast<acc_scalar_t>(b.n) / static_cast<acc_scalar_t>(n);
    return acc_t{a.mean + delta * nb_over_n, a.m2 + b.m2 + delta * delta * static_cast<acc_scalar_t>(a.n) * nb_over_n,
                 n};
  }
  __device__ acc_t warp_shfl_down(acc_t acc, int offset) const {
    return acc_t{WARP_SHFL_DOWN(acc.mean, offset), WARP_SHFL_DOWN(acc.m2, offset), WARP_SHFL_DOWN(acc.n, offset)};
  }
  __device__ auto project(acc_t acc) const {
    // n - correction degrees of freedom, never below 0: var of one element with correction 1 is inf/nan.
    const acc_scalar_t divisor = acc.n > correction ? static_cast<acc_scalar_t>(acc.n) - correction : acc_scalar_t(0);
    const acc_scalar_t var = acc.m2 / divisor;
    const out_t result = static_cast<out_t>(take_sqrt ? std::sqrt(var) : var);
    if constexpr (with_mean) {
      return pair<out_t, out_t>{result, static_cast<out_t>(acc.mean)};
    } else {
      return result;
    }
  }
};
// [end marker: WelfordOps]

void std_var_kernel_cuda(TensorIteratorBase& iter, double correction, bool take_sqrt) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.dtype(0), "std_cuda", [&] {
    using acc_scalar_t = std::conditional_t<std::is_same_v<scalar_t, double>, double, float>;
    const WelfordData<acc_scalar_t> ident{0, 0, 0};
    const auto c = static_cast<acc_scalar_t>(correction);
    if (iter.noutputs() == 2) {
      gpu_reduce_kernel<acc_scalar_t>(iter, WelfordOps<acc_scalar_t, scalar_t, true>{c, take_sqrt}, ident);
    } else {
      gpu_reduce_kernel<acc_scalar_t>(iter, WelfordOps<acc_scalar_t, scalar_t, false>{c, take_sqrt}, ident);
    }
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(std_var_stub, &std_var_kernel_cuda);

}  // namespace at::native
