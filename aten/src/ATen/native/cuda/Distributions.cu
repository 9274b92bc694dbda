// aten/src/ATen/native/cuda/Distributions.cu - normal_ and uniform_ on CUDA tensors. Thread i
// of the grid seeds Philox with (seed, subsequence i, the generator's offset) and draws four
// numbers per call; a grid-stride loop hands each thread every (grid size)-th group of four
// elements. Box-Muller turns two uniforms into two normals. Mirrors PyTorch's
// aten/src/ATen/native/cuda/DistributionTemplates.h (distribution_nullary_kernel) and
// Distributions.cu. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/OpMathType.h>
#include <ATen/core/PhiloxRNGEngine.h>
#include <ATen/cuda/CUDAGeneratorImpl.h>
#include <ATen/native/cuda/Loops.cuh>

#include <algorithm>

namespace at::native {
namespace {

constexpr int kDistThreads = 256;
constexpr int kDistUnroll = 4;  // numbers per Philox call

// [marker: distribution_kernel]
// out[i] = transform(uniforms) for the N elements of a contiguous tensor.
template <typename scalar_t, typename transform_t>
__global__ void distribution_kernel(int64_t N, uint64_t seed, uint64_t offset, scalar_t* out, transform_t transform) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  Philox4_32 engine(seed, idx, offset);
  const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x * kDistUnroll;
  for (int64_t base = idx * kDistUnroll; base < N; base += stride) {
    float u[kDistUnroll];
    for (int j = 0; j < kDistUnroll; j++) {
      u[j] = engine.randn_uniform();
    }
    scalar_t v[kDistUnroll];
    transform(u, v);
    for (int j = 0; j < kDistUnroll && base + j < N; j++) {
      out[base + j] = v[j];
    }
  }
}
// [end marker: distribution_kernel]

template <typename scalar_t, typename transform_t>
void distribution_fill(Tensor& self, std::optional<Generator> gen, const transform_t& transform) {
  const int64_t N = self.numel();
  if (N == 0) {
    return;
  }
  c10::cuda::CUDAGuard guard(self.device());
  Tensor out = self.is_contiguous() ? self : at::empty(self.sizes(), self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  auto* generator = get_generator_or_default<CUDAGeneratorImpl>(gen, cuda::detail::getDefaultCUDAGenerator(self.device().index()));
  const int64_t groups = (N + kDistUnroll - 1) / kDistUnroll;
  const int blocks = static_cast<int>(std::min<int64_t>((groups + kDistThreads - 1) / kDistThreads, 1024));
  // Each thread makes ceil(groups / threads) Philox calls of four numbers.
  const int64_t calls_per_thread = (groups + int64_t(blocks) * kDistThreads - 1) / (int64_t(blocks) * kDistThreads);
  uint64_t seed, offset;
  {
    std::lock_guard<std::mutex> lock(generator->mutex_);
    std::tie(seed, offset) = generator->philox_engine_inputs(calls_per_thread * kDistUnroll);
  }
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  distribution_kernel<scalar_t, transform_t><<<blocks, kDistThreads, 0, stream>>>(N, seed, offset, out.mutable_data_ptr<scalar_t>(), transform);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  if (!out.is_same(self)) {
    self.copy_(out);
  }
}

}  // namespace

// [marker: normal_cuda_]
Tensor& normal_cuda_(Tensor& self, double mean, double std, std::optional<Generator> gen) {
  TORCH_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "normal_kernel_cuda", [&] {
    const float m = static_cast<float>(mean);
    const float s = static_cast<float>(std);
    distribution_fill<scalar_t>(self, gen, [m, s] GPU_LAMBDA(const float* u, scalar_t* v) {
      // Box-Muller: two uniforms in (0, 1] make two independent standard normals.
      for (int j = 0; j < kDistUnroll; j += 2) {
        const float radius = sqrtf(-2.0f * logf(u[j]));
        const float angle = 6.2831853071795864f * u[j + 1];
        v[j] = static_cast<scalar_t>(radius * cosf(angle) * s + m);
        v[j + 1] = static_cast<scalar_t>(radius * sinf(angle) * s + m);
      }
    });
  });
  return self;
}
// [end marker: normal_cuda_]

Tensor& uniform_cuda_(Tensor& self, double from, double to, std::optional<Generator> gen) {
  TORCH_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but found from=", from, " > to=", to);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "uniform_kernel_cuda", [&] {
    const float lo = static_cast<float>(from);
    const float range = static_cast<float>(to - from);
    const scalar_t from_s = static_cast<scalar_t>(from);
    const scalar_t to_s = static_cast<scalar_t>(to);
    distribution_fill<scalar_t>(self, gen, [lo, range, from_s, to_s] GPU_LAMBDA(const float* u, scalar_t* v) {
      for (int j = 0; j < kDistUnroll; j++) {
        // u is in (0, 1]: a value that lands on `to` (u == 1, or a rounding up to it in Half)
        // becomes `from`, so the result stays in [from, to), as PyTorch's uniform_kernel does.
        const scalar_t value = static_cast<scalar_t>(u[j] * range + lo);
        v[j] = static_cast<float>(value) == static_cast<float>(to_s) ? from_s : value;
      }
    });
  });
  return self;
}

}  // namespace at::native
