// aten/src/ATen/native/cuda/Normalization.cu - native_batch_norm and its backward on CUDA tensors as
// PyTorch computes them: one block per channel gathers the channel's statistics with Welford's
// algorithm (each thread a running mean and sum of squared deviations, merged pairwise through
// shared memory), then one thread per element normalizes. The backward is the same two steps: a
// per-channel reduction of dy and dy * (x - mean), then one thread per element. Mirrors PyTorch's
// aten/src/ATen/native/cuda/Normalization.cu and Normalization.cuh (batch_norm_collect_statistics_kernel,
// batch_norm_transform_input_kernel, batch_norm_backward_reduce_kernel, batch_norm_backward_elemt_kernel).
// native_layer_norm has the same two steps per row instead of per channel: one block per row
// gathers its Welford statistics, then one thread per element normalizes; its backward reduces
// each row, then applies the formula per element. Mirrors PyTorch's
// aten/src/ATen/native/cuda/layer_norm_kernel.cu (RowwiseMomentsCUDAKernel, LayerNormForwardCUDAKernel).
// Guide: docs/source/internals/cuda_training.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/OpMathType.h>
#include <ATen/TensorOperators.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/native/layer_norm.h>
#include <c10/cuda/CUDAGuard.h>

#include <tuple>

namespace at::native {
namespace {

constexpr int kStatThreads = 256;

// [marker: welford]
// A running mean and M2 (the sum of squared deviations from it) over n values. Two of them
// merge exactly (Chan et al.): no pass over the data twice, and no catastrophic cancellation
// from sum(x^2) - n * mean^2.
template <typename acc_t>
struct WelfordData {
  acc_t mean;
  acc_t m2;
  acc_t n;
};

template <typename acc_t>
__host__ __device__ __forceinline__ WelfordData<acc_t> welford_add(WelfordData<acc_t> a, acc_t x) {
  a.n += 1;
  const acc_t delta = x - a.mean;
  a.mean += delta / a.n;
  a.m2 += delta * (x - a.mean);
  return a;
}

template <typename acc_t>
__host__ __device__ __forceinline__ WelfordData<acc_t> welford_combine(WelfordData<acc_t> a, WelfordData<acc_t> b) {
  if (a.n == 0) return b;
  if (b.n == 0) return a;
  const acc_t n = a.n + b.n;
  const acc_t delta = b.mean - a.mean;
  return {a.mean + delta * b.n / n, a.m2 + b.m2 + delta * delta * a.n * b.n / n, n};
}

// The block's combined WelfordData, returned to every thread: each thread's partial result goes
// to shared memory, and at each step the lower half of the threads merges in the upper half's,
// until the first slot holds the whole block's. Launched with kStatThreads threads a block.
template <typename acc_t>
__device__ WelfordData<acc_t> block_welford(WelfordData<acc_t> w) {
  __shared__ acc_t s_mean[kStatThreads];
  __shared__ acc_t s_m2[kStatThreads];
  __shared__ acc_t s_n[kStatThreads];
  const int tid = threadIdx.x;
  s_mean[tid] = w.mean;
  s_m2[tid] = w.m2;
  s_n[tid] = w.n;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (tid < half) {
      const WelfordData<acc_t> merged =
          welford_combine(WelfordData<acc_t>{s_mean[tid], s_m2[tid], s_n[tid]},
                          WelfordData<acc_t>{s_mean[tid + half], s_m2[tid + half], s_n[tid + half]});
      s_mean[tid] = merged.mean;
      s_m2[tid] = merged.m2;
      s_n[tid] = merged.n;
    }
    __syncthreads();
  }
  return {s_mean[0], s_m2[0], s_n[0]};
}

// The same halving for two plain sums: on return every thread holds the block's totals.
template <typename acc_t>
__device__ void block_sum2(acc_t& a, acc_t& b) {
  __shared__ acc_t s_a[kStatThreads];
  __shared__ acc_t s_b[kStatThreads];
  const int tid = threadIdx.x;
  s_a[tid] = a;
  s_b[tid] = b;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (tid < half) {
      s_a[tid] += s_a[tid + half];
      s_b[tid] += s_b[tid + half];
    }
    __syncthreads();
  }
  a = s_a[0];
  b = s_b[0];
}

// Block c handles channel c of an input viewed as (N, C, HW): its threads walk the channel's
// N * HW values, each keeping its own WelfordData, then merge them (block_welford). It writes the mean and
// the biased variance's inverse standard deviation, 1 / sqrt(var + eps).
template <typename scalar_t, typename acc_t>
__global__ void batch_norm_collect_statistics_kernel(const scalar_t* __restrict__ input, int64_t batch,
                                                     int64_t channels, int64_t hw, acc_t eps,
                                                     acc_t* __restrict__ save_mean, acc_t* __restrict__ save_invstd,
                                                     acc_t* __restrict__ batch_var) {
  const int64_t c = blockIdx.x;
  const int tid = threadIdx.x;
  WelfordData<acc_t> w{0, 0, 0};
  for (int64_t i = tid; i < batch * hw; i += blockDim.x) {
    const int64_t b = i / hw, s = i % hw;
    w = welford_add(w, static_cast<acc_t>(input[(b * channels + c) * hw + s]));
  }
  const WelfordData<acc_t> total = block_welford(w);
  if (tid == 0) {
    const acc_t var = total.n > 0 ? total.m2 / total.n : acc_t(0);
    save_mean[c] = total.mean;
    save_invstd[c] = acc_t(1) / std::sqrt(var + eps);
    batch_var[c] = var;
  }
}
// [end marker: welford]

// y = (x - mean[c]) * invstd[c] * weight[c] + bias[c], one thread per element.
template <typename scalar_t, typename acc_t>
__global__ void batch_norm_transform_input_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output,
                                                  const acc_t* __restrict__ mean, const acc_t* __restrict__ invstd,
                                                  const acc_t* __restrict__ weight, const acc_t* __restrict__ bias,
                                                  int64_t numel, int64_t channels, int64_t hw) {
  CUDA_KERNEL_LOOP_TYPE(i, numel, int64_t) {
    const int64_t c = (i / hw) % channels;
    const acc_t w = weight != nullptr ? weight[c] : acc_t(1);
    const acc_t b = bias != nullptr ? bias[c] : acc_t(0);
    output[i] = static_cast<scalar_t>((static_cast<acc_t>(input[i]) - mean[c]) * invstd[c] * w + b);
  }
}

// Per channel: sum(dy) and sum(dy * (x - mean)), combined across the block (block_sum2).
template <typename scalar_t, typename acc_t>
__global__ void batch_norm_backward_reduce_kernel(const scalar_t* __restrict__ grad_out,
                                                  const scalar_t* __restrict__ input, const acc_t* __restrict__ mean,
                                                  int64_t batch, int64_t channels, int64_t hw,
                                                  acc_t* __restrict__ sum_dy, acc_t* __restrict__ sum_dy_xmu) {
  const int64_t c = blockIdx.x;
  const int tid = threadIdx.x;
  acc_t dy_sum = 0, dy_xmu_sum = 0;
  for (int64_t i = tid; i < batch * hw; i += blockDim.x) {
    const int64_t offset = ((i / hw) * channels + c) * hw + i % hw;
    const acc_t dy = static_cast<acc_t>(grad_out[offset]);
    dy_sum += dy;
    dy_xmu_sum += dy * (static_cast<acc_t>(input[offset]) - mean[c]);
  }
  block_sum2(dy_sum, dy_xmu_sum);
  if (tid == 0) {
    sum_dy[c] = dy_sum;
    sum_dy_xmu[c] = dy_xmu_sum;
  }
}

// [marker: batch_norm_backward_elemt]
// With M values per channel, in training:
//   dx = (dy - sum(dy) / M - (x - mean) * invstd^2 * sum(dy * (x - mean)) / M) * invstd * weight
// (the mean and invstd depend on x too); in evaluation only dy * invstd * weight.
template <typename scalar_t, typename acc_t>
__global__ void batch_norm_backward_elemt_kernel(const scalar_t* __restrict__ grad_out,
                                                 const scalar_t* __restrict__ input, const acc_t* __restrict__ mean,
                                                 const acc_t* __restrict__ invstd, const acc_t* __restrict__ weight,
                                                 const acc_t* __restrict__ sum_dy, const acc_t* __restrict__ sum_dy_xmu,
                                                 scalar_t* __restrict__ grad_input, int64_t numel, int64_t channels,
                                                 int64_t hw, acc_t m, bool train) {
  CUDA_KERNEL_LOOP_TYPE(i, numel, int64_t) {
    const int64_t c = (i / hw) % channels;
    const acc_t scale = invstd[c] * (weight != nullptr ? weight[c] : acc_t(1));
    acc_t dy = static_cast<acc_t>(grad_out[i]);
    if (train) {
      const acc_t xmu = static_cast<acc_t>(input[i]) - mean[c];
      dy = dy - sum_dy[c] / m - xmu * invstd[c] * invstd[c] * sum_dy_xmu[c] / m;
    }
    grad_input[i] = static_cast<scalar_t>(dy * scale);
  }
}
// [end marker: batch_norm_backward_elemt]

// Row r of an input viewed as (M, N): its Welford statistics, merged across the block as batch
// norm's channels are, written as mean[r] and rstd[r] = 1 / sqrt(var + eps).
template <typename scalar_t, typename acc_t>
__global__ void layer_norm_row_moments_kernel(const scalar_t* __restrict__ input, int64_t n, acc_t eps,
                                              acc_t* __restrict__ mean, acc_t* __restrict__ rstd) {
  const int64_t r = blockIdx.x;
  const int tid = threadIdx.x;
  WelfordData<acc_t> w{0, 0, 0};
  for (int64_t j = tid; j < n; j += blockDim.x) {
    w = welford_add(w, static_cast<acc_t>(input[r * n + j]));
  }
  const WelfordData<acc_t> total = block_welford(w);
  if (tid == 0) {
    mean[r] = total.mean;
    rstd[r] = acc_t(1) / std::sqrt(total.m2 / total.n + eps);
  }
}

// y = (x - mean[r]) * rstd[r] * weight[j] + bias[j], one thread per element.
template <typename scalar_t, typename acc_t>
__global__ void layer_norm_forward_kernel(const scalar_t* __restrict__ input, scalar_t* __restrict__ output,
                                          const acc_t* __restrict__ mean, const acc_t* __restrict__ rstd,
                                          const acc_t* __restrict__ weight, const acc_t* __restrict__ bias,
                                          int64_t numel, int64_t n) {
  CUDA_KERNEL_LOOP_TYPE(i, numel, int64_t) {
    const int64_t r = i / n, j = i % n;
    const acc_t w = weight != nullptr ? weight[j] : acc_t(1);
    const acc_t b = bias != nullptr ? bias[j] : acc_t(0);
    output[i] = static_cast<scalar_t>((static_cast<acc_t>(input[i]) - mean[r]) * rstd[r] * w + b);
  }
}

// The backward of one row, with g = dy * weight and xhat = (x - mean) * rstd:
//   dx = rstd * (g - sum(g) / N - xhat * sum(g * xhat) / N)
// One block per row: the two sums (block_sum2), then each thread its elements.
template <typename scalar_t, typename acc_t>
__global__ void layer_norm_backward_input_kernel(const scalar_t* __restrict__ grad_out,
                                                 const scalar_t* __restrict__ input, const acc_t* __restrict__ mean,
                                                 const acc_t* __restrict__ rstd, const acc_t* __restrict__ weight,
                                                 scalar_t* __restrict__ grad_input, int64_t n) {
  const int64_t r = blockIdx.x;
  const int tid = threadIdx.x;
  acc_t g_sum = 0, g_xhat_sum = 0;
  for (int64_t j = tid; j < n; j += blockDim.x) {
    const acc_t g = static_cast<acc_t>(grad_out[r * n + j]) * (weight != nullptr ? weight[j] : acc_t(1));
    g_sum += g;
    g_xhat_sum += g * (static_cast<acc_t>(input[r * n + j]) - mean[r]) * rstd[r];
  }
  block_sum2(g_sum, g_xhat_sum);
  const acc_t mean_g = g_sum / static_cast<acc_t>(n), mean_g_xhat = g_xhat_sum / static_cast<acc_t>(n);
  for (int64_t j = tid; j < n; j += blockDim.x) {
    const acc_t g = static_cast<acc_t>(grad_out[r * n + j]) * (weight != nullptr ? weight[j] : acc_t(1));
    const acc_t xhat = (static_cast<acc_t>(input[r * n + j]) - mean[r]) * rstd[r];
    grad_input[r * n + j] = static_cast<scalar_t>(rstd[r] * (g - mean_g - xhat * mean_g_xhat));
  }
}

Tensor value_or_undefined(const std::optional<Tensor>& t) {
  return t.has_value() ? *t : Tensor();
}

// A parameter as a contiguous tensor of acc_t on the device (read as a flat vector), or undefined.
Tensor as_acc(const Tensor& t, ScalarType acc) {
  return t.defined() ? t.to(acc).contiguous() : Tensor();
}

// The dtype statistics are kept in: float for Half and BFloat16, else the input's.
ScalarType acc_type_of(ScalarType t) {
  return (t == kHalf || t == kBFloat16) ? kFloat : t;
}

template <typename acc_t>
const acc_t* ptr_or_null(const Tensor& t) {
  return t.defined() ? t.const_data_ptr<acc_t>() : nullptr;
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> batch_norm_cuda(const Tensor& input_, const std::optional<Tensor>& weight_opt,
                                                   const std::optional<Tensor>& bias_opt,
                                                   const std::optional<Tensor>& running_mean_opt,
                                                   const std::optional<Tensor>& running_var_opt, bool training,
                                                   double momentum, double eps) {
  c10::cuda::CUDAGuard guard(input_.device());
  const Tensor input = input_.contiguous();
  const int64_t batch = input.size(0), channels = input.size(1);
  const int64_t hw = channels > 0 && batch > 0 ? input.numel() / (batch * channels) : 0;
  Tensor running_mean = value_or_undefined(running_mean_opt), running_var = value_or_undefined(running_var_opt);
  const ScalarType acc = acc_type_of(input.scalar_type());
  Tensor output = at::empty_like(input);
  Tensor save_mean, save_invstd, mean, invstd;
  if (training) {
    save_mean = at::empty({channels}, acc, std::nullopt, input.device());
    save_invstd = at::empty({channels}, acc, std::nullopt, input.device());
    Tensor var = at::empty({channels}, acc, std::nullopt, input.device());
    if (channels > 0) {
      AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "batch_norm_collect_statistics_cuda", [&] {
        using acc_t = at::opmath_type<scalar_t>;
        batch_norm_collect_statistics_kernel<scalar_t, acc_t>
            <<<static_cast<unsigned>(channels), kStatThreads, 0, at::cuda::getCurrentCUDAStream()>>>(
                input.const_data_ptr<scalar_t>(), batch, channels, hw, static_cast<acc_t>(eps),
                save_mean.mutable_data_ptr<acc_t>(), save_invstd.mutable_data_ptr<acc_t>(), var.mutable_data_ptr<acc_t>());
        C10_CUDA_KERNEL_LAUNCH_CHECK();
      });
    }
    // The running statistics move toward the batch's, the variance entering them unbiased.
    const int64_t n = batch * hw;
    if (running_mean.defined()) {
      running_mean.mul_(1 - momentum).add_(save_mean.to(running_mean.scalar_type()), momentum);
    }
    if (running_var.defined()) {
      Tensor unbiased = n > 1 ? var * (static_cast<double>(n) / static_cast<double>(n - 1)) : var;
      running_var.mul_(1 - momentum).add_(unbiased.to(running_var.scalar_type()), momentum);
    }
    mean = save_mean;     // kept in the accumulate type (float for Half), as PyTorch's
    invstd = save_invstd;
  } else {
    mean = running_mean.to(acc).contiguous();
    invstd = (running_var.to(acc) + eps).rsqrt().contiguous();
    save_mean = at::empty({0}, input.scalar_type(), std::nullopt, input.device());
    save_invstd = at::empty({0}, input.scalar_type(), std::nullopt, input.device());
  }
  const Tensor weight = as_acc(value_or_undefined(weight_opt), acc), bias = as_acc(value_or_undefined(bias_opt), acc);
  if (input.numel() > 0) {
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "batch_norm_transform_input_cuda", [&] {
      using acc_t = at::opmath_type<scalar_t>;
      batch_norm_transform_input_kernel<scalar_t, acc_t>
          <<<static_cast<unsigned>(at::cuda::detail::GET_BLOCKS(input.numel(), 256)), 256, 0,
             at::cuda::getCurrentCUDAStream()>>>(input.const_data_ptr<scalar_t>(), output.mutable_data_ptr<scalar_t>(),
                                                 mean.const_data_ptr<acc_t>(), invstd.const_data_ptr<acc_t>(),
                                                 ptr_or_null<acc_t>(weight), ptr_or_null<acc_t>(bias), input.numel(),
                                                 channels, hw);
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    });
  }
  return std::make_tuple(output, save_mean, save_invstd);
}

std::tuple<Tensor, Tensor, Tensor> batch_norm_backward_cuda(
    const Tensor& grad_out_, const Tensor& input_, const std::optional<Tensor>& weight_opt,
    const std::optional<Tensor>& running_mean_opt, const std::optional<Tensor>& running_var_opt,
    const std::optional<Tensor>& save_mean_opt, const std::optional<Tensor>& save_invstd_opt, bool train, double eps,
    std::array<bool, 3> output_mask) {
  c10::cuda::CUDAGuard guard(input_.device());
  const Tensor input = input_.contiguous(), grad_out = grad_out_.contiguous();
  const int64_t batch = input.size(0), channels = input.size(1);
  const int64_t hw = channels > 0 && batch > 0 ? input.numel() / (batch * channels) : 0;
  const ScalarType acc = acc_type_of(input.scalar_type());
  Tensor mean, invstd;
  if (train) {
    mean = value_or_undefined(save_mean_opt).to(acc).contiguous();
    invstd = value_or_undefined(save_invstd_opt).to(acc).contiguous();
  } else {
    mean = value_or_undefined(running_mean_opt).to(acc).contiguous();
    invstd = (value_or_undefined(running_var_opt).to(acc) + eps).rsqrt().contiguous();
  }
  const Tensor weight = as_acc(value_or_undefined(weight_opt), acc);
  Tensor sum_dy = at::zeros({channels}, acc, std::nullopt, input.device(), std::nullopt);
  Tensor sum_dy_xmu = at::zeros({channels}, acc, std::nullopt, input.device(), std::nullopt);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "batch_norm_backward_cuda", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    if (channels > 0 && batch * hw > 0) {
      batch_norm_backward_reduce_kernel<scalar_t, acc_t><<<static_cast<unsigned>(channels), kStatThreads, 0, stream>>>(
          grad_out.const_data_ptr<scalar_t>(), input.const_data_ptr<scalar_t>(), mean.const_data_ptr<acc_t>(), batch,
          channels, hw, sum_dy.mutable_data_ptr<acc_t>(), sum_dy_xmu.mutable_data_ptr<acc_t>());
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    }
  });
  Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) {
    grad_input = at::empty_like(input);
    if (input.numel() > 0) {
      AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "batch_norm_backward_elemt_cuda", [&] {
        using acc_t = at::opmath_type<scalar_t>;
        batch_norm_backward_elemt_kernel<scalar_t, acc_t>
            <<<static_cast<unsigned>(at::cuda::detail::GET_BLOCKS(input.numel(), 256)), 256, 0,
               at::cuda::getCurrentCUDAStream()>>>(
                grad_out.const_data_ptr<scalar_t>(), input.const_data_ptr<scalar_t>(), mean.const_data_ptr<acc_t>(),
                invstd.const_data_ptr<acc_t>(), ptr_or_null<acc_t>(weight), sum_dy.const_data_ptr<acc_t>(),
                sum_dy_xmu.const_data_ptr<acc_t>(), grad_input.mutable_data_ptr<scalar_t>(), input.numel(), channels,
                hw, static_cast<acc_t>(batch * hw), train);
        C10_CUDA_KERNEL_LAUNCH_CHECK();
      });
    }
  }
  // grad_weight = sum(dy * xhat) = sum(dy * (x - mean)) * invstd, grad_bias = sum(dy).
  const ScalarType param_dtype = weight_opt.has_value() && weight_opt->defined() ? weight_opt->scalar_type()
                                                                                 : input.scalar_type();
  if (output_mask[1]) grad_weight = (sum_dy_xmu * invstd).to(param_dtype);
  if (output_mask[2]) grad_bias = sum_dy.to(param_dtype);
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}

std::tuple<Tensor, Tensor, Tensor> layer_norm_cuda(const Tensor& input_, IntArrayRef normalized_shape,
                                                   const std::optional<Tensor>& weight_opt,
                                                   const std::optional<Tensor>& bias_opt, double eps) {
  // (M, N) as plain variables: the kernels' launch lambdas capture them.
  const std::pair<int64_t, int64_t> mn = check_layer_norm_inputs(input_, normalized_shape,
                                                                 value_or_undefined(weight_opt),
                                                                 value_or_undefined(bias_opt));
  const int64_t m = mn.first, n = mn.second;
  c10::cuda::CUDAGuard guard(input_.device());
  const Tensor input = input_.contiguous();
  const ScalarType acc = acc_type_of(input.scalar_type());
  Tensor output = at::empty_like(input);
  Tensor mean = at::empty({m}, acc, std::nullopt, input.device());
  Tensor rstd = at::empty({m}, acc, std::nullopt, input.device());
  if (m > 0 && n > 0) {
    const Tensor weight = as_acc(value_or_undefined(weight_opt), acc);
    const Tensor bias = as_acc(value_or_undefined(bias_opt), acc);
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "layer_norm_cuda", [&] {
      using acc_t = at::opmath_type<scalar_t>;
      const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
      layer_norm_row_moments_kernel<scalar_t, acc_t><<<static_cast<unsigned>(m), kStatThreads, 0, stream>>>(
          input.const_data_ptr<scalar_t>(), n, static_cast<acc_t>(eps), mean.mutable_data_ptr<acc_t>(),
          rstd.mutable_data_ptr<acc_t>());
      C10_CUDA_KERNEL_LAUNCH_CHECK();
      layer_norm_forward_kernel<scalar_t, acc_t>
          <<<static_cast<unsigned>(at::cuda::detail::GET_BLOCKS(input.numel(), 256)), 256, 0, stream>>>(
              input.const_data_ptr<scalar_t>(), output.mutable_data_ptr<scalar_t>(), mean.const_data_ptr<acc_t>(),
              rstd.const_data_ptr<acc_t>(), ptr_or_null<acc_t>(weight), ptr_or_null<acc_t>(bias), input.numel(), n);
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    });
  }
  const auto shape = stat_shape(input, normalized_shape);
  return std::make_tuple(output, mean.view(shape), rstd.view(shape));
}

std::tuple<Tensor, Tensor, Tensor> layer_norm_backward_cuda(const Tensor& grad_out_, const Tensor& input_,
                                                            IntArrayRef normalized_shape, const Tensor& mean_,
                                                            const Tensor& rstd_, const std::optional<Tensor>& weight_opt,
                                                            const std::optional<Tensor>& bias_opt,
                                                            std::array<bool, 3> output_mask) {
  const Tensor weight_in = value_or_undefined(weight_opt), bias_in = value_or_undefined(bias_opt);
  const std::pair<int64_t, int64_t> mn = check_layer_norm_inputs(input_, normalized_shape, weight_in, bias_in);
  const int64_t m = mn.first, n = mn.second;
  c10::cuda::CUDAGuard guard(input_.device());
  const Tensor input = input_.contiguous(), grad_out = grad_out_.contiguous();
  const ScalarType acc = acc_type_of(input.scalar_type());
  const Tensor mean = mean_.to(acc).contiguous(), rstd = rstd_.to(acc).contiguous();
  Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) {
    grad_input = at::empty_like(input);
    if (m > 0 && n > 0) {
      const Tensor weight = as_acc(weight_in, acc);
      AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "layer_norm_backward_cuda", [&] {
        using acc_t = at::opmath_type<scalar_t>;
        layer_norm_backward_input_kernel<scalar_t, acc_t>
            <<<static_cast<unsigned>(m), kStatThreads, 0, at::cuda::getCurrentCUDAStream()>>>(
                grad_out.const_data_ptr<scalar_t>(), input.const_data_ptr<scalar_t>(), mean.const_data_ptr<acc_t>(),
                rstd.const_data_ptr<acc_t>(), ptr_or_null<acc_t>(weight), grad_input.mutable_data_ptr<scalar_t>(), n);
        C10_CUDA_KERNEL_LAUNCH_CHECK();
      });
    }
  }
  // The parameters' gradients sum over the rows: the reduction kernel, on (M, N) views.
  if ((output_mask[1] && weight_in.defined()) || (output_mask[2] && bias_in.defined())) {
    const Tensor go = grad_out.reshape({m, n}).to(acc);
    if (output_mask[1] && weight_in.defined()) {
      const Tensor xhat = (input.reshape({m, n}).to(acc) - mean.reshape({m, 1})) * rstd.reshape({m, 1});
      grad_weight = (go * xhat).sum(IntArrayRef{0}).reshape(weight_in.sizes()).to(weight_in.scalar_type());
    }
    if (output_mask[2] && bias_in.defined()) {
      grad_bias = go.sum(IntArrayRef{0}).reshape(bias_in.sizes()).to(bias_in.scalar_type());
    }
  }
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}

}  // namespace at::native
