// aten/src/ATen/native/cuda/Distributions.cu - normal_, uniform_, random_ and bernoulli_ on CUDA
// tensors. Thread i of the grid seeds Philox with (seed, subsequence i, the generator's offset) and draws four
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
#include <ATen/native/DistributionTemplates.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cuda/DistributionTemplates.h>
#include <ATen/native/cuda/Loops.cuh>

#include <algorithm>

namespace at::native {
namespace {

// [marker: distribution_kernel]
// out[i] = values the transform makes from the thread's Philox numbers, for the N elements of
// a contiguous tensor. transform(engine, v) fills v[0..kDistUnroll) and draws what it needs
// (four numbers for most, eight for 64-bit integers).
template <typename scalar_t, typename transform_t>
__global__ void distribution_kernel(int64_t N, uint64_t seed, uint64_t offset, scalar_t* out, transform_t transform) {
  const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  Philox4_32 engine(seed, idx, offset);
  const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x * kDistUnroll;
  for (int64_t base = idx * kDistUnroll; base < N; base += stride) {
    scalar_t v[kDistUnroll];
    transform(engine, v);
    for (int j = 0; j < kDistUnroll && base + j < N; j++) {
      out[base + j] = v[j];
    }
  }
}
// [end marker: distribution_kernel]

// self (any layout) filled by the transform: a non-contiguous self is filled through a
// contiguous buffer and copied back.
template <typename scalar_t, int draws_per_group = kDistUnroll, typename transform_t>
void distribution_fill(const TensorBase& self_base, std::optional<Generator> gen, const transform_t& transform) {
  const Tensor self(self_base);
  const int64_t N = self.numel();
  if (N == 0) {
    return;
  }
  c10::cuda::CUDAGuard guard(self.device());
  Tensor out = self.is_contiguous() ? self : at::empty(self.sizes(), self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  const DistributionLaunch launch = distribution_launch(N, draws_per_group, gen, self.device());
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  distribution_kernel<scalar_t, transform_t><<<launch.blocks, kDistThreads, 0, stream>>>(
      N, launch.seed, launch.offset, out.mutable_data_ptr<scalar_t>(), transform);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  if (!out.is_same(self)) {
    self.copy_(out);
  }
}

// [marker: random_from_to_kernel_cuda]
// base + bits % range: 32 bits per element while the range fits in 32 bits, else 64 bits
// from two numbers (PyTorch's random_from_to_kernel makes the same choice).
void random_from_to_kernel_cuda(TensorIteratorBase& iter, uint64_t range, int64_t base, std::optional<Generator> gen) {
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "random_from_to_kernel_cuda", [&] {
    if (range >= (uint64_t{1} << 32)) {
      distribution_fill<scalar_t, 2 * kDistUnroll>(iter.tensor(0), gen, [range, base] GPU_LAMBDA(Philox4_32& engine, scalar_t* v) {
        for (int j = 0; j < kDistUnroll; j++) {
          const uint64_t hi = engine();
          const uint64_t bits = (hi << 32) | engine();
          v[j] = static_cast<scalar_t>(static_cast<int64_t>(bits % range + static_cast<uint64_t>(base)));
        }
      });
    } else {
      distribution_fill<scalar_t>(iter.tensor(0), gen, [range, base] GPU_LAMBDA(Philox4_32& engine, scalar_t* v) {
        for (int j = 0; j < kDistUnroll; j++) {
          const uint32_t bits = engine();
          v[j] = static_cast<scalar_t>(static_cast<int64_t>(bits % range + static_cast<uint64_t>(base)));
        }
      });
    }
  });
}
// [end marker: random_from_to_kernel_cuda]

// A number p: 1 where a uniform in (0, 1] is below p. A tensor of p: a uniform per element
// first (a tensor of p's precision), then one gpu_kernel over (self, uniforms, p) that checks
// each p on the device, as PyTorch's bernoulli_tensor_cuda_kernel does.
void bernoulli_scalar_kernel_cuda(const TensorBase& self, double p, std::optional<Generator> gen) {
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "bernoulli_scalar_cuda_", [&] {
    const float p_f = static_cast<float>(p);
    distribution_fill<scalar_t>(self, gen, [p_f] GPU_LAMBDA(Philox4_32& engine, scalar_t* v) {
      for (int j = 0; j < kDistUnroll; j++) {
        v[j] = static_cast<scalar_t>(uniform_from_bits(engine()) < p_f);
      }
    });
  });
}

void bernoulli_tensor_kernel_cuda(const TensorBase& self, const TensorBase& p, std::optional<Generator> gen) {
  const ScalarType uniform_type = p.scalar_type() == kDouble ? kDouble : kFloat;
  Tensor uniforms = at::empty(self.sizes(), uniform_type, std::nullopt, self.device(), std::nullopt, std::nullopt);
  uniforms.uniform_(0, 1, gen);
  auto iter = TensorIteratorConfig()
                  .resize_outputs(false)
                  .check_all_same_dtype(false)
                  .add_output(Tensor(self))
                  .add_const_input(uniforms)
                  .add_const_input(Tensor(p))
                  .build();
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "bernoulli_tensor_cuda_self_", [&] {
    using self_t = scalar_t;
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, p.scalar_type(), "bernoulli_tensor_cuda_p_", [&] {
      using p_t = scalar_t;
      using uniform_t = std::conditional_t<std::is_same_v<p_t, double>, double, float>;
      gpu_kernel(iter, [] GPU_LAMBDA(uniform_t u, p_t p_value) -> self_t {
        const uniform_t p_in = static_cast<uniform_t>(p_value);
        CUDA_KERNEL_ASSERT(p_in >= 0 && p_in <= 1 && "bernoulli: p must be in [0, 1]");
        return static_cast<self_t>(u < p_in);
      });
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(random_from_to_stub, &random_from_to_kernel_cuda);
REGISTER_CUDA_DISPATCH(bernoulli_scalar_stub, &bernoulli_scalar_kernel_cuda);
REGISTER_CUDA_DISPATCH(bernoulli_tensor_stub, &bernoulli_tensor_kernel_cuda);

// [marker: normal_cuda_]
Tensor& normal_cuda_(Tensor& self, double mean, double std, std::optional<Generator> gen) {
  TORCH_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  if (templates::fill_complex_as_real(
          self, [&](Tensor& parts) { parts.normal_(mean, std / std::sqrt(2.0), gen); })) {
    return self;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "normal_kernel_cuda", [&] {
    const float m = static_cast<float>(mean);
    const float s = static_cast<float>(std);
    distribution_fill<scalar_t>(self, gen, [m, s] GPU_LAMBDA(Philox4_32& engine, scalar_t* v) {
      float u[kDistUnroll];
      for (int j = 0; j < kDistUnroll; j++) {
        u[j] = uniform_from_bits(engine());
      }
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
  if (templates::fill_complex_as_real(self, [&](Tensor& parts) { parts.uniform_(from, to, gen); })) {
    return self;
  }
  TORCH_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but found from=", from, " > to=", to);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "uniform_kernel_cuda", [&] {
    const float lo = static_cast<float>(from);
    const float range = static_cast<float>(to - from);
    const scalar_t from_s = static_cast<scalar_t>(from);
    const scalar_t to_s = static_cast<scalar_t>(to);
    distribution_fill<scalar_t>(self, gen, [lo, range, from_s, to_s] GPU_LAMBDA(Philox4_32& engine, scalar_t* v) {
      for (int j = 0; j < kDistUnroll; j++) {
        const float u = uniform_from_bits(engine());
        // u is in (0, 1]: a value that lands on `to` (u == 1, or a rounding up to it in Half)
        // becomes `from`, so the result stays in [from, to), as PyTorch's uniform_kernel does.
        const scalar_t value = static_cast<scalar_t>(u * range + lo);
        v[j] = static_cast<float>(value) == static_cast<float>(to_s) ? from_s : value;
      }
    });
  });
  return self;
}

}  // namespace at::native
