// aten/src/ATen/native/cuda/Dropout.cu - native_dropout on CUDA: one fused kernel draws the
// mask and writes the scaled output in a single pass over the input, where the composite CPU
// route takes three (bernoulli_, mul, mul_). Mirrors PyTorch's
// aten/src/ATen/native/cuda/Dropout.cu (fused_dropout_kernel).
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/OpMathType.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/native/cuda/DistributionTemplates.h>
#include <c10/cuda/CUDAGuard.h>

namespace at::native {
namespace {

// [marker: fused_dropout_kernel]
// Thread i draws four uniforms per Philox call from subsequence i and handles four
// neighbouring elements with them: keep = u < 1 - p, out = in * keep * scale.
template <typename scalar_t>
__global__ void fused_dropout_kernel(const scalar_t* __restrict__ in, scalar_t* __restrict__ out, bool* __restrict__ mask,
                                     int64_t N, float p1m, at::opmath_type<scalar_t> scale, uint64_t seed, uint64_t offset) {
  using accscalar_t = at::opmath_type<scalar_t>;
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  Philox4_32 engine(seed, idx, offset);
  const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x * kDistUnroll;
  for (int64_t base = idx * kDistUnroll; base < N; base += stride) {
    float u[kDistUnroll];
    for (int j = 0; j < kDistUnroll; j++) {
      u[j] = uniform_from_bits(engine());
    }
    for (int j = 0; j < kDistUnroll && base + j < N; j++) {
      const bool keep = u[j] < p1m;
      mask[base + j] = keep;
      out[base + j] = static_cast<scalar_t>(static_cast<accscalar_t>(in[base + j]) * (keep ? scale : accscalar_t(0)));
    }
  }
}
// [end marker: fused_dropout_kernel]

}  // namespace

std::tuple<Tensor, Tensor> native_dropout_cuda(const Tensor& self, double p, std::optional<bool> train) {
  // Not training: the input (a copy) and a mask of all true, as on the CPU.
  if (train.has_value() && !train.value()) {
    return std::make_tuple(self.clone(), at::ones_like(self, kBool));
  }
  TORCH_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  const Tensor input = self.contiguous();
  Tensor output = at::empty_like(input, std::nullopt, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Contiguous);
  Tensor mask = at::empty_like(input, kBool, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Contiguous);
  const int64_t N = input.numel();
  if (N == 0) {
    return std::make_tuple(output, mask);
  }
  const double p1m = 1. - p;
  // p == 1 keeps nothing: the scale is 0 rather than 1 / 0.
  const double scale = p1m == 0 ? 0. : 1. / p1m;
  c10::cuda::CUDAGuard guard(input.device());
  const DistributionLaunch launch = distribution_launch(N, kDistUnroll, std::nullopt, input.device());
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "fused_dropout", [&] {
    using accscalar_t = at::opmath_type<scalar_t>;
    fused_dropout_kernel<scalar_t><<<launch.blocks, kDistThreads, 0, stream>>>(
        input.const_data_ptr<scalar_t>(), output.mutable_data_ptr<scalar_t>(), mask.mutable_data_ptr<bool>(), N,
        static_cast<float>(p1m), static_cast<accscalar_t>(scale), launch.seed, launch.offset);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return std::make_tuple(output, mask);
}

}  // namespace at::native
