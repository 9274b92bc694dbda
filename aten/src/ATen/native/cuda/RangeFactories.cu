// aten/src/ATen/native/cuda/RangeFactories.cu - arange on CUDA tensors: thread i of a
// grid-stride loop writes start + i * step. Mirrors PyTorch's aten/src/ATen/native/cuda/RangeFactories.cu.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/NativeFunctions.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/native/RangeUtils.h>
#include <ATen/native/cuda/Loops.cuh>

#include <type_traits>

namespace at::native {
namespace {

// [marker: arange_kernel]
template <typename scalar_t, typename accscalar_t>
__global__ void arange_kernel(int64_t n, accscalar_t start, accscalar_t step, scalar_t* out, int64_t stride) {
  CUDA_KERNEL_LOOP_TYPE(i, n, int64_t) {
    out[i * stride] = static_cast<scalar_t>(start + static_cast<accscalar_t>(i) * step);
  }
}
// [end marker: arange_kernel]

}  // namespace

Tensor& arange_cuda_out(const Scalar& start, const Scalar& end, const Scalar& step, Tensor& result) {
  const int64_t size = compute_arange_size(start, end, step, result.scalar_type());
  if (result.numel() != size) {
    result.resize_({size});
  }
  if (size == 0) {
    return result;
  }
  c10::cuda::CUDAGuard guard(result.device());
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, result.scalar_type(), "arange_cuda", [&] {
    // The same accumulation types as the CPU kernel, so both give the same values.
    using accscalar_t = std::conditional_t<std::is_integral_v<scalar_t>, int64_t, double>;
    const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    constexpr int threads = 256;
    const int blocks = at::cuda::detail::GET_BLOCKS(size, threads);
    arange_kernel<scalar_t, accscalar_t><<<blocks, threads, 0, stream>>>(
        size, start.to<accscalar_t>(), step.to<accscalar_t>(), result.mutable_data_ptr<scalar_t>(), result.stride(0));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return result;
}

}  // namespace at::native
