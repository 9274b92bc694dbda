// aten/src/ATen/native/cuda/ScanKernels.cu - cumsum and cumprod on CUDA tensors. Mirrors
// PyTorch's aten/src/ATen/native/cuda/ScanKernels.cu in what it computes; PyTorch scans a row
// with a whole block (a parallel prefix sum in shared memory), this kernel gives each row to
// one thread and walks it in order, the simplest correct scan, and as fast as PyTorch's only
// when there are many rows. The running value is kept in double (floats), int64 (integers)
// or complex<double>, as the CPU kernel does. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <type_traits>

namespace at::native {
namespace {

template <typename scalar_t, typename acc_t, bool is_sum>
__global__ void scan_rows_kernel(const scalar_t* in, scalar_t* out, int64_t rows, int64_t n) {
  CUDA_KERNEL_LOOP_TYPE(row, rows, int64_t) {
    acc_t acc = is_sum ? acc_t(0) : acc_t(1);
    for (int64_t i = 0; i < n; i++) {
      const acc_t x = static_cast<acc_t>(in[row * n + i]);
      acc = is_sum ? acc + x : acc * x;
      out[row * n + i] = static_cast<scalar_t>(acc);
    }
  }
}

template <bool is_sum>
void cum_kernel_cuda(const Tensor& result, const Tensor& self, int64_t dim) {
  if (self.numel() == 0) {
    return;
  }
  const int64_t n = self.dim() == 0 ? 1 : self.size(dim);
  // Contiguous rows, the scanned dim last (copies on the device).
  Tensor src = (self.dim() == 0 ? self.view({1}) : self.movedim(dim, -1)).contiguous();
  Tensor dst = at::empty(src.sizes(), src.scalar_type(), std::nullopt, src.device(), std::nullopt, std::nullopt);
  const int64_t rows = src.numel() / n;
  c10::cuda::CUDAGuard guard(self.device());
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16, src.scalar_type(), is_sum ? "cumsum_cuda" : "cumprod_cuda", [&] {
    using acc_t = std::conditional_t<c10::is_complex<scalar_t>::value, c10::complex<double>,
                                     std::conditional_t<std::is_integral_v<scalar_t>, int64_t, double>>;
    const int64_t blocks = at::cuda::detail::GET_BLOCKS(rows);
    scan_rows_kernel<scalar_t, acc_t, is_sum><<<static_cast<unsigned>(blocks), at::cuda::detail::CUDA_NUM_THREADS, 0,
                                                at::cuda::getCurrentCUDAStream()>>>(
        src.const_data_ptr<scalar_t>(), dst.mutable_data_ptr<scalar_t>(), rows, n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  result.copy_(self.dim() == 0 ? dst.view(IntArrayRef{}) : dst.movedim(-1, dim));
}

}  // namespace

REGISTER_CUDA_DISPATCH(cumsum_stub, &cum_kernel_cuda<true>);
REGISTER_CUDA_DISPATCH(cumprod_stub, &cum_kernel_cuda<false>);

}  // namespace at::native
