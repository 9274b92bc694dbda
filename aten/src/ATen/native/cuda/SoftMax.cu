// aten/src/ATen/native/cuda/SoftMax.cu - softmax and log_softmax of CUDA tensors, in the two shapes
// PyTorch's aten/src/ATen/native/cuda/SoftMax.cu and PersistentSoftmax.cuh use: a row along the
// last dim (inner size 1) of at most 1024 elements goes to one warp, whose 32 lanes combine their
// maximum and sum with shuffles; any other layout gives each thread one (outer, inner) position
// to walk along the dim, the "spatial" softmax. Their backwards (_softmax_backward_data,
// _log_softmax_backward_data) walk the dim the spatial way, one thread a row, since each needs
// only one sum per row. Guide: docs/source/internals/cuda_training.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/OpMathType.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <c10/core/WrapDimMinimal.h>
#include <c10/cuda/CUDAGuard.h>

#include <cmath>
#include <limits>

namespace at::native {
namespace {

constexpr int kWarpSize = 32;
constexpr int kWarpsPerBlock = 4;
constexpr int64_t kMaxWarpRow = 1024;

// The larger of two values, NaN winning: a row holding NaN has NaN for its softmax.
template <typename acc_t>
__device__ __forceinline__ acc_t nan_max(acc_t a, acc_t b) {
  return (a != a || a > b) ? a : b;
}

// [marker: softmax_warp_forward]
// Lane l of the warp reads elements l, l + 32, ... of its row, three times: for the maximum,
// for the sum of exp(x - max), and to write the result. After each of the first two passes the
// lanes combine their partial values in five shuffle steps (a butterfly: every lane ends up with
// the whole row's value), so no shared memory and no __syncthreads are needed.
template <typename scalar_t, typename out_t, typename acc_t, bool is_log_softmax>
__global__ void softmax_warp_forward(const scalar_t* __restrict__ in, out_t* __restrict__ out, int64_t rows,
                                     int64_t n) {
  const int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.y + threadIdx.y;
  if (row >= rows) {
    return;  // the whole warp leaves together: its lanes share the row
  }
  const int lane = threadIdx.x;
  const scalar_t* x = in + row * n;
  out_t* y = out + row * n;

  acc_t max_value = -std::numeric_limits<acc_t>::infinity();
  for (int64_t i = lane; i < n; i += kWarpSize) {
    max_value = nan_max(static_cast<acc_t>(x[i]), max_value);
  }
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    max_value = nan_max(max_value, __shfl_xor_sync(0xffffffff, max_value, offset, kWarpSize));
  }
  if (max_value == -std::numeric_limits<acc_t>::infinity()) {
    max_value = 0;  // a row of -inf: exp(-inf - 0) = 0, not exp(-inf + inf) = NaN
  }

  acc_t sum = 0;
  for (int64_t i = lane; i < n; i += kWarpSize) {
    sum += std::exp(static_cast<acc_t>(x[i]) - max_value);
  }
  for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
    sum += __shfl_xor_sync(0xffffffff, sum, offset, kWarpSize);
  }

  if (is_log_softmax) {
    const acc_t log_sum = std::log(sum);
    for (int64_t i = lane; i < n; i += kWarpSize) {
      y[i] = static_cast<out_t>(static_cast<acc_t>(x[i]) - max_value - log_sum);
    }
  } else {
    for (int64_t i = lane; i < n; i += kWarpSize) {
      y[i] = static_cast<out_t>(std::exp(static_cast<acc_t>(x[i]) - max_value) / sum);
    }
  }
}
// [end marker: softmax_warp_forward]

// [marker: softmax_spatial_forward]
// Thread t takes position (o, s) of an input viewed as (outer, n, inner) and walks the n
// elements o * n * inner + s + i * inner. Neighbouring threads take neighbouring s, so each
// step of the walk reads consecutive addresses across the warp.
template <typename scalar_t, typename out_t, typename acc_t, bool is_log_softmax>
__global__ void softmax_spatial_forward(const scalar_t* __restrict__ in, out_t* __restrict__ out, int64_t outer,
                                        int64_t n, int64_t inner) {
  CUDA_KERNEL_LOOP_TYPE(index, outer * inner, int64_t) {
    const int64_t o = index / inner, s = index % inner;
    const scalar_t* x = in + o * n * inner + s;
    out_t* y = out + o * n * inner + s;
    acc_t max_value = -std::numeric_limits<acc_t>::infinity();
    for (int64_t i = 0; i < n; i++) {
      max_value = nan_max(static_cast<acc_t>(x[i * inner]), max_value);
    }
    if (max_value == -std::numeric_limits<acc_t>::infinity()) {
      max_value = 0;
    }
    acc_t sum = 0;
    for (int64_t i = 0; i < n; i++) {
      sum += std::exp(static_cast<acc_t>(x[i * inner]) - max_value);
    }
    const acc_t log_sum = std::log(sum);
    for (int64_t i = 0; i < n; i++) {
      const acc_t v = static_cast<acc_t>(x[i * inner]) - max_value;
      y[i * inner] = static_cast<out_t>(is_log_softmax ? v - log_sum : std::exp(v) / sum);
    }
  }
}
// [end marker: softmax_spatial_forward]

// softmax: gI = y (g - sum(g y)); log_softmax: gI = g - exp(y) sum(g). One pass for the sum,
// one to write.
template <typename scalar_t, typename acc_t, bool is_log_softmax>
__global__ void softmax_spatial_backward(const scalar_t* __restrict__ grad, const scalar_t* __restrict__ out,
                                         scalar_t* __restrict__ grad_input, int64_t outer, int64_t n,
                                         int64_t inner) {
  CUDA_KERNEL_LOOP_TYPE(index, outer * inner, int64_t) {
    const int64_t o = index / inner, s = index % inner;
    const int64_t base = o * n * inner + s;
    acc_t sum = 0;
    for (int64_t i = 0; i < n; i++) {
      const acc_t g = static_cast<acc_t>(grad[base + i * inner]);
      sum += is_log_softmax ? g : g * static_cast<acc_t>(out[base + i * inner]);
    }
    for (int64_t i = 0; i < n; i++) {
      const acc_t g = static_cast<acc_t>(grad[base + i * inner]);
      const acc_t y = static_cast<acc_t>(out[base + i * inner]);
      grad_input[base + i * inner] = static_cast<scalar_t>(is_log_softmax ? g - std::exp(y) * sum : y * (g - sum));
    }
  }
}

template <bool is_log_softmax>
Tensor host_softmax_backward_cuda(const Tensor& grad_, const Tensor& output_, int64_t dim_) {
  // PyTorch's checkSameSize and the dtype check of grad.data_ptr<scalar_t>() on output.
  TORCH_CHECK(grad_.sizes() == output_.sizes(), "Expected tensor for argument #1 'grad' to have same size as tensor ",
              "for argument #2 'output'; but ", grad_.sizes(), " does not equal ", output_.sizes(),
              " (while checking arguments for ", is_log_softmax ? "log_softmax_backward" : "softmax_backward", ")");
  TORCH_CHECK(grad_.scalar_type() == output_.scalar_type(), "expected scalar type ",
              c10::toString(grad_.scalar_type()), " but found ", c10::toString(output_.scalar_type()));
  const int64_t dim = c10::maybe_wrap_dim(dim_, output_.dim());
  const Tensor output = output_.contiguous();
  const Tensor grad = grad_.contiguous();
  Tensor grad_input = at::empty(output.sizes(), output.scalar_type(), std::nullopt, output.device());
  if (output.numel() == 0) {
    return grad_input;
  }
  c10::cuda::CUDAGuard guard(output.device());
  const int64_t n = output.dim() == 0 ? 1 : output.size(dim);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; d++) outer *= output.size(d);
  for (int64_t d = dim + 1; d < output.dim(); d++) inner *= output.size(d);
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, output.scalar_type(), "host_softmax_backward", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    const int64_t blocks = at::cuda::detail::GET_BLOCKS(outer * inner, 256);
    softmax_spatial_backward<scalar_t, acc_t, is_log_softmax><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
        grad.const_data_ptr<scalar_t>(), output.const_data_ptr<scalar_t>(), grad_input.mutable_data_ptr<scalar_t>(),
        outer, n, inner);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return grad_input;
}

template <bool is_log_softmax>
Tensor host_softmax_cuda(const Tensor& input_, int64_t dim_, bool half_to_float) {
  if (half_to_float) {
    TORCH_CHECK(input_.scalar_type() == ScalarType::Half,
                "conversion is supported for Half type only");
  }
  const int64_t dim = c10::maybe_wrap_dim(dim_, input_.dim());
  const ScalarType out_dtype = half_to_float ? ScalarType::Float : input_.scalar_type();
  const Tensor input = input_.contiguous();
  Tensor output = at::empty(input.sizes(), out_dtype, std::nullopt, input.device());
  if (input.numel() == 0) {
    return output;
  }
  c10::cuda::CUDAGuard guard(input.device());
  const int64_t n = input.dim() == 0 ? 1 : input.size(dim);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; d++) outer *= input.size(d);
  for (int64_t d = dim + 1; d < input.dim(); d++) inner *= input.size(d);
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "host_softmax", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    auto launch = [&](auto* out_ptr) {
      using out_t = std::remove_pointer_t<decltype(out_ptr)>;
      const scalar_t* in_ptr = input.const_data_ptr<scalar_t>();
      if (inner == 1 && n <= kMaxWarpRow) {
        const dim3 block(kWarpSize, kWarpsPerBlock);
        const int64_t blocks = (outer + kWarpsPerBlock - 1) / kWarpsPerBlock;
        softmax_warp_forward<scalar_t, out_t, acc_t, is_log_softmax>
            <<<static_cast<unsigned>(blocks), block, 0, stream>>>(in_ptr, out_ptr, outer, n);
      } else {
        const int64_t blocks = at::cuda::detail::GET_BLOCKS(outer * inner, 256);
        softmax_spatial_forward<scalar_t, out_t, acc_t, is_log_softmax>
            <<<static_cast<unsigned>(blocks), 256, 0, stream>>>(in_ptr, out_ptr, outer, n, inner);
      }
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    };
    if (half_to_float) {
      launch(output.mutable_data_ptr<float>());
    } else {
      launch(output.mutable_data_ptr<scalar_t>());
    }
  });
  return output;
}

}  // namespace

Tensor softmax_cuda(const Tensor& self, int64_t dim, bool half_to_float) {
  return host_softmax_cuda<false>(self, dim, half_to_float);
}

Tensor log_softmax_cuda(const Tensor& self, int64_t dim, bool half_to_float) {
  return host_softmax_cuda<true>(self, dim, half_to_float);
}

Tensor softmax_backward_cuda(const Tensor& grad_output, const Tensor& output, int64_t dim, ScalarType input_dtype) {
  return host_softmax_backward_cuda<false>(grad_output, output, dim);
}

Tensor log_softmax_backward_cuda(const Tensor& grad_output, const Tensor& output, int64_t dim,
                                 ScalarType input_dtype) {
  return host_softmax_backward_cuda<true>(grad_output, output, dim);
}

}  // namespace at::native
