// aten/src/ATen/native/cuda/AveragePool2d.cu - avg_pool2d and adaptive_avg_pool2d of CUDA tensors
// and their backwards. The forwards give each thread one output element; the backwards give each
// thread one input pixel, which gathers the shares of every window covering it, so no two threads
// write one element and no atomics are needed. Mirrors PyTorch's
// aten/src/ATen/native/cuda/AveragePool2d.cu and AdaptiveAveragePooling.cu.
// Guide: docs/source/internals/cuda_training.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/OpMathType.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/native/Pool.h>
#include <c10/cuda/CUDAGuard.h>

namespace at::native {
namespace {

struct AvgParams {
  int64_t kh, kw, sh, sw, ph, pw, in_h, in_w, out_h, out_w;
  bool count_include_pad;
  int64_t divisor_override;  // 0: none
};

AvgParams avg_params(const Pool2d& p, bool count_include_pad, std::optional<int64_t> divisor_override) {
  return {p.kh, p.kw, p.sh, p.sw, p.ph, p.pw, p.in_h, p.in_w, p.out_h, p.out_w, count_include_pad,
          divisor_override.value_or(0)};
}

__host__ __device__ __forceinline__ Window window_of(const AvgParams& a, int64_t oh, int64_t ow) {
  return avg_window(oh, ow, a.kh, a.kw, a.sh, a.sw, a.ph, a.pw, a.in_h, a.in_w, a.count_include_pad,
                    a.divisor_override);
}

template <typename scalar_t, typename acc_t>
__global__ void avg_pool2d_forward_kernel(const scalar_t* __restrict__ in, scalar_t* __restrict__ out, int64_t planes,
                                          AvgParams a) {
  CUDA_KERNEL_LOOP_TYPE(index, planes * a.out_h * a.out_w, int64_t) {
    const int64_t ow = index % a.out_w, oh = (index / a.out_w) % a.out_h, plane = index / (a.out_h * a.out_w);
    const scalar_t* x = in + plane * a.in_h * a.in_w;
    const Window w = window_of(a, oh, ow);
    acc_t sum = 0;
    for (int64_t h = w.h0; h < w.h1; h++) {
      for (int64_t c = w.w0; c < w.w1; c++) sum += static_cast<acc_t>(x[h * a.in_w + c]);
    }
    out[index] = static_cast<scalar_t>(sum / static_cast<acc_t>(w.divisor));
  }
}

// Pixel (h, w) lies in the windows of outputs oh with oh * sh - ph <= h < oh * sh - ph + kh, that
// is (h + ph - kh) / sh < oh <= (h + ph) / sh; each sends it its gradient over its divisor.
template <typename scalar_t, typename acc_t>
__global__ void avg_pool2d_backward_kernel(const scalar_t* __restrict__ grad_output, scalar_t* __restrict__ grad_input,
                                           int64_t planes, AvgParams a) {
  CUDA_KERNEL_LOOP_TYPE(index, planes * a.in_h * a.in_w, int64_t) {
    const int64_t w = index % a.in_w, h = (index / a.in_w) % a.in_h, plane = index / (a.in_h * a.in_w);
    const scalar_t* g = grad_output + plane * a.out_h * a.out_w;
    const int64_t oh0 = h + a.ph < a.kh ? 0 : (h + a.ph - a.kh) / a.sh + 1;
    const int64_t oh1 = (h + a.ph) / a.sh + 1 < a.out_h ? (h + a.ph) / a.sh + 1 : a.out_h;
    const int64_t ow0 = w + a.pw < a.kw ? 0 : (w + a.pw - a.kw) / a.sw + 1;
    const int64_t ow1 = (w + a.pw) / a.sw + 1 < a.out_w ? (w + a.pw) / a.sw + 1 : a.out_w;
    acc_t sum = 0;
    for (int64_t oh = oh0; oh < oh1; oh++) {
      for (int64_t ow = ow0; ow < ow1; ow++) {
        const Window win = window_of(a, oh, ow);
        if (h >= win.h0 && h < win.h1 && w >= win.w0 && w < win.w1) {
          sum += static_cast<acc_t>(g[oh * a.out_w + ow]) / static_cast<acc_t>(win.divisor);
        }
      }
    }
    grad_input[index] = static_cast<scalar_t>(sum);
  }
}

template <typename scalar_t, typename acc_t>
__global__ void adaptive_avg_pool2d_forward_kernel(const scalar_t* __restrict__ in, scalar_t* __restrict__ out,
                                                   int64_t planes, int64_t in_h, int64_t in_w, int64_t out_h,
                                                   int64_t out_w) {
  CUDA_KERNEL_LOOP_TYPE(index, planes * out_h * out_w, int64_t) {
    const int64_t ow = index % out_w, oh = (index / out_w) % out_h, plane = index / (out_h * out_w);
    const scalar_t* x = in + plane * in_h * in_w;
    const int64_t h0 = adaptive_start_index(oh, out_h, in_h), h1 = adaptive_end_index(oh, out_h, in_h);
    const int64_t w0 = adaptive_start_index(ow, out_w, in_w), w1 = adaptive_end_index(ow, out_w, in_w);
    acc_t sum = 0;
    for (int64_t h = h0; h < h1; h++) {
      for (int64_t w = w0; w < w1; w++) sum += static_cast<acc_t>(x[h * in_w + w]);
    }
    out[index] = static_cast<scalar_t>(sum / static_cast<acc_t>((h1 - h0) * (w1 - w0)));
  }
}

// Pixel (h, w): the output cells whose windows cover it are those from
// adaptive_start_index(h, in, out) to adaptive_end_index(h, in, out) (the same formulas with the
// sizes swapped), each checked, as windows overlap by at most one row.
template <typename scalar_t, typename acc_t>
__global__ void adaptive_avg_pool2d_backward_kernel(const scalar_t* __restrict__ grad_output,
                                                    scalar_t* __restrict__ grad_input, int64_t planes, int64_t in_h,
                                                    int64_t in_w, int64_t out_h, int64_t out_w) {
  CUDA_KERNEL_LOOP_TYPE(index, planes * in_h * in_w, int64_t) {
    const int64_t w = index % in_w, h = (index / in_w) % in_h, plane = index / (in_h * in_w);
    const scalar_t* g = grad_output + plane * out_h * out_w;
    acc_t sum = 0;
    for (int64_t oh = adaptive_start_index(h, in_h, out_h); oh < adaptive_end_index(h, in_h, out_h); oh++) {
      const int64_t h0 = adaptive_start_index(oh, out_h, in_h), h1 = adaptive_end_index(oh, out_h, in_h);
      if (h < h0 || h >= h1) continue;
      for (int64_t ow = adaptive_start_index(w, in_w, out_w); ow < adaptive_end_index(w, in_w, out_w); ow++) {
        const int64_t w0 = adaptive_start_index(ow, out_w, in_w), w1 = adaptive_end_index(ow, out_w, in_w);
        if (w < w0 || w >= w1) continue;
        sum += static_cast<acc_t>(g[oh * out_w + ow]) / static_cast<acc_t>((h1 - h0) * (w1 - w0));
      }
    }
    grad_input[index] = static_cast<scalar_t>(sum);
  }
}

unsigned blocks_for(int64_t n) {
  return static_cast<unsigned>(at::cuda::detail::GET_BLOCKS(n, 256));
}

}  // namespace

Tensor avg_pool2d_cuda(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                       bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  const Pool2d p = avg_pool2d_params(self, kernel_size, stride, padding, ceil_mode, divisor_override);
  const Tensor input = self.contiguous();
  Tensor output = at::empty(pool_out_shape(self, p.out_h, p.out_w), self.scalar_type(), std::nullopt, self.device());
  if (output.numel() == 0) {
    return output;
  }
  c10::cuda::CUDAGuard guard(self.device());
  const AvgParams a = avg_params(p, count_include_pad, divisor_override);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "avg_pool2d_cuda", [&] {
    avg_pool2d_forward_kernel<scalar_t, at::opmath_type<scalar_t>>
        <<<blocks_for(output.numel()), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
            input.const_data_ptr<scalar_t>(), output.mutable_data_ptr<scalar_t>(), p.batch * p.channels, a);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return output;
}

Tensor avg_pool2d_backward_cuda(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                                IntArrayRef stride, IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                                std::optional<int64_t> divisor_override) {
  const Pool2d p = avg_pool2d_params(self, kernel_size, stride, padding, ceil_mode, divisor_override);
  const Tensor go = grad_output.contiguous();
  Tensor grad_input = at::empty(self.sizes(), self.scalar_type(), std::nullopt, self.device());
  if (grad_input.numel() == 0) {
    return grad_input;
  }
  c10::cuda::CUDAGuard guard(self.device());
  const AvgParams a = avg_params(p, count_include_pad, divisor_override);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "avg_pool2d_backward_cuda", [&] {
    avg_pool2d_backward_kernel<scalar_t, at::opmath_type<scalar_t>>
        <<<blocks_for(grad_input.numel()), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
            go.const_data_ptr<scalar_t>(), grad_input.mutable_data_ptr<scalar_t>(), p.batch * p.channels, a);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return grad_input;
}

Tensor adaptive_avg_pool2d_cuda(const Tensor& self, IntArrayRef output_size) {
  check_adaptive_avg_pool2d(self, output_size);
  const Tensor input = self.contiguous();
  const int64_t in_h = self.size(-2), in_w = self.size(-1), out_h = output_size[0], out_w = output_size[1];
  const int64_t planes = self.numel() / (in_h * in_w);
  Tensor output = at::empty(pool_out_shape(self, out_h, out_w), self.scalar_type(), std::nullopt, self.device());
  if (output.numel() == 0) {
    return output;
  }
  c10::cuda::CUDAGuard guard(self.device());
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "adaptive_avg_pool2d_cuda", [&] {
    adaptive_avg_pool2d_forward_kernel<scalar_t, at::opmath_type<scalar_t>>
        <<<blocks_for(output.numel()), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
            input.const_data_ptr<scalar_t>(), output.mutable_data_ptr<scalar_t>(), planes, in_h, in_w, out_h, out_w);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return output;
}

Tensor adaptive_avg_pool2d_backward_cuda(const Tensor& grad_output, const Tensor& self) {
  const Tensor go = grad_output.contiguous();
  const int64_t in_h = self.size(-2), in_w = self.size(-1), out_h = go.size(-2), out_w = go.size(-1);
  const int64_t planes = self.numel() / (in_h * in_w);
  Tensor grad_input = at::empty(self.sizes(), self.scalar_type(), std::nullopt, self.device());
  if (grad_input.numel() == 0) {
    return grad_input;
  }
  c10::cuda::CUDAGuard guard(self.device());
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "adaptive_avg_pool2d_backward_cuda", [&] {
    adaptive_avg_pool2d_backward_kernel<scalar_t, at::opmath_type<scalar_t>>
        <<<blocks_for(grad_input.numel()), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
            go.const_data_ptr<scalar_t>(), grad_input.mutable_data_ptr<scalar_t>(), planes, in_h, in_w, out_h, out_w);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return grad_input;
}

}  // namespace at::native
