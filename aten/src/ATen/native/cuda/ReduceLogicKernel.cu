// aten/src/ATen/native/cuda/ReduceLogicKernel.cu - all and any on CUDA tensors: a bool
// accumulator, written back as bool (or uint8 for uint8 input, PyTorch's legacy rule).
// Mirrors PyTorch's aten/src/ATen/native/cuda/ReduceLogicKernel.cu.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/native/cuda/Reduce.cuh>

namespace at::native {
namespace {

template <typename out_t, bool is_and>
struct LogicOps {
  __device__ bool reduce(bool acc, bool x, int64_t /*idx*/) const { return is_and ? (acc && x) : (acc || x); }
  __device__ bool combine(bool a, bool b) const { return is_and ? (a && b) : (a || b); }
  __device__ bool warp_shfl_down(bool acc, int offset) const { return WARP_SHFL_DOWN(acc, offset); }
  __device__ out_t project(bool acc) const { return static_cast<out_t>(acc); }
};

template <bool is_and>
void logic_kernel_cuda(TensorIteratorBase& iter) {
  // Each element is read as bool (fetch_and_cast): a uint8 of 2 is true.
  AT_DISPATCH_SWITCH(iter.dtype(0), is_and ? "all_cuda" : "any_cuda",
                     AT_DISPATCH_CASE(kBool, [&] { gpu_reduce_kernel<bool>(iter, LogicOps<scalar_t, is_and>{}, is_and); })
                     AT_DISPATCH_CASE(kByte, [&] { gpu_reduce_kernel<bool>(iter, LogicOps<scalar_t, is_and>{}, is_and); }));
}

}  // namespace

REGISTER_CUDA_DISPATCH(and_stub, &logic_kernel_cuda<true>);
REGISTER_CUDA_DISPATCH(or_stub, &logic_kernel_cuda<false>);

}  // namespace at::native
