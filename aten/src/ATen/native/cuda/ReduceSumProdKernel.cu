// aten/src/ATen/native/cuda/ReduceSumProdKernel.cu - sum and prod on CUDA tensors:
// gpu_reduce_kernel with "add" or "multiply" as the reduction, accumulating in acc_type (float
// for Half/BFloat16, int64 for integers). Mirrors PyTorch's
// aten/src/ATen/native/cuda/ReduceSumProdKernel.cu. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/native/cuda/Reduce.cuh>

namespace at::native {
namespace {

// [marker: SumOps]
// The four things gpu_reduce_kernel asks of a reduction: fold one element (with its index,
// unused here) into a thread's accumulator, combine two accumulators, move one across warp
// lanes, and turn the final accumulator into the output.
template <typename acc_t, typename out_t>
struct SumOps {
  __device__ acc_t reduce(acc_t acc, acc_t x, int64_t /*idx*/) const { return acc + x; }
  __device__ acc_t combine(acc_t a, acc_t b) const { return a + b; }
  __device__ acc_t warp_shfl_down(acc_t acc, int offset) const { return WARP_SHFL_DOWN(acc, offset); }
  __device__ out_t project(acc_t acc) const { return static_cast<out_t>(acc); }
};
// [end marker: SumOps]

template <typename acc_t, typename out_t>
struct ProdOps {
  __device__ acc_t reduce(acc_t acc, acc_t x, int64_t /*idx*/) const { return acc * x; }
  __device__ acc_t combine(acc_t a, acc_t b) const { return a * b; }
  __device__ acc_t warp_shfl_down(acc_t acc, int offset) const { return WARP_SHFL_DOWN(acc, offset); }
  __device__ out_t project(acc_t acc) const { return static_cast<out_t>(acc); }
};

template <typename scalar_t>
using sum_acc_t = std::conditional_t<std::is_integral_v<scalar_t> && !std::is_same_v<scalar_t, bool>, int64_t,
                                     at::opmath_type<scalar_t>>;

void sum_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(0), "sum_cuda", [&] {
    using acc_t = sum_acc_t<scalar_t>;
    gpu_reduce_kernel<acc_t>(iter, SumOps<acc_t, scalar_t>{}, acc_t(0));
  });
}

void prod_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16, iter.dtype(0), "prod_cuda", [&] {
    using acc_t = sum_acc_t<scalar_t>;
    gpu_reduce_kernel<acc_t>(iter, ProdOps<acc_t, scalar_t>{}, acc_t(1));
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(sum_stub, &sum_kernel_cuda);
REGISTER_CUDA_DISPATCH(prod_stub, &prod_kernel_cuda);

}  // namespace at::native
