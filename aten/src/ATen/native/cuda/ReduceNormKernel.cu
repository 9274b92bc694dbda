// aten/src/ATen/native/cuda/ReduceNormKernel.cu - linalg.vector_norm (and norm) on CUDA
// tensors: sum |x|^p then the p-th root, with p = 0 (count of non-zeros), 1, 2, inf and -inf
// special. Mirrors PyTorch's aten/src/ATen/native/cuda/ReduceNormKernel.cu (its NormOps,
// NormZeroOps, NormOneOps, AbsMaxOps, AbsMinOps of SharedReduceOps.h, here one struct that
// switches on the kind of norm). Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/native/cuda/Reduce.cuh>

#include <cmath>
#include <limits>

namespace at::native {
namespace {

enum class NormKind { Zero, One, Two, Max, Min, P };

template <typename acc_t, typename out_t>
struct NormOps {
  NormKind kind;
  acc_t p;

  // max/min of |x| with NaN propagating, as the CPU kernel.
  __device__ acc_t pick(acc_t a, acc_t b) const {
    if (a != a || b != b) return std::numeric_limits<acc_t>::quiet_NaN();
    return kind == NormKind::Max ? (a > b ? a : b) : (a < b ? a : b);
  }
  __device__ acc_t reduce(acc_t acc, acc_t x, int64_t /*idx*/) const {
    switch (kind) {
      case NormKind::Zero: return acc + (x != acc_t(0) ? acc_t(1) : acc_t(0));
      case NormKind::One: return acc + std::abs(x);
      case NormKind::Two: return acc + x * x;
      case NormKind::Max:
      case NormKind::Min: return pick(acc, std::abs(x));
      default: return acc + std::pow(std::abs(x), p);
    }
  }
  __device__ acc_t combine(acc_t a, acc_t b) const {
    return (kind == NormKind::Max || kind == NormKind::Min) ? pick(a, b) : a + b;
  }
  __device__ acc_t warp_shfl_down(acc_t acc, int offset) const { return WARP_SHFL_DOWN(acc, offset); }
  __device__ out_t project(acc_t acc) const {
    switch (kind) {
      case NormKind::Two: return static_cast<out_t>(std::sqrt(acc));
      case NormKind::P: return static_cast<out_t>(std::pow(acc, acc_t(1) / p));
      default: return static_cast<out_t>(acc);
    }
  }
};

void norm_kernel_cuda(TensorIteratorBase& iter, double p) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.input_dtype(), "linalg_vector_norm_cuda", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    const NormKind kind = p == 0 ? NormKind::Zero
                          : p == 1 ? NormKind::One
                          : p == 2 ? NormKind::Two
                          : std::isinf(p) ? (p > 0 ? NormKind::Max : NormKind::Min)
                                          : NormKind::P;
    const acc_t ident = kind == NormKind::Min ? std::numeric_limits<acc_t>::infinity() : acc_t(0);
    gpu_reduce_kernel<acc_t>(iter, NormOps<acc_t, scalar_t>{kind, static_cast<acc_t>(p)}, ident);
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(norm_stub, &norm_kernel_cuda);

}  // namespace at::native
