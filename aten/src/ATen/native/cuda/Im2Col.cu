// aten/src/ATen/native/cuda/Im2Col.cu - im2col and col2im of CUDA tensors, the two halves of a
// convolution as a matrix product (ConvolutionMM2d.cpp composes them with mm, so convolution and
// its backward run on CUDA through these and the tiled GEMM). Mirrors PyTorch's
// aten/src/ATen/native/cuda/Im2Col.cu, Col2Im.cu and im2col.cuh. Guide: docs/source/internals/cuda_training.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/OpMathType.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/native/im2col_shape_check.h>
#include <c10/cuda/CUDAGuard.h>

namespace at::native {
namespace {

// One thread per (channel, output position): it copies the kH x kW patch under the kernel at
// that position into its column, one row per kernel offset. Positions in the padding read 0.
template <typename scalar_t>
__global__ void im2col_kernel(const scalar_t* __restrict__ im, scalar_t* __restrict__ col, int64_t channels,
                              int64_t height, int64_t width, int64_t kh, int64_t kw, int64_t ph, int64_t pw,
                              int64_t sh, int64_t sw, int64_t dh, int64_t dw, int64_t out_h, int64_t out_w) {
  const int64_t L = out_h * out_w;
  CUDA_KERNEL_LOOP_TYPE(index, channels * L, int64_t) {
    const int64_t ox = index % out_w, oy = (index / out_w) % out_h, c = index / L;
    scalar_t* dst = col + c * kh * kw * L + oy * out_w + ox;
    for (int64_t i = 0; i < kh; i++) {
      const int64_t y = oy * sh - ph + i * dh;
      for (int64_t j = 0; j < kw; j++) {
        const int64_t x = ox * sw - pw + j * dw;
        const bool inside = y >= 0 && y < height && x >= 0 && x < width;
        *dst = inside ? im[(c * height + y) * width + x] : scalar_t(0);
        dst += L;
      }
    }
  }
}

// [marker: col2im_kernel]
// One thread per input pixel: it sums the column entries im2col copied this pixel into, that
// is, every (kernel offset, output position) whose window covers it. Each pixel is written by
// exactly one thread, so no atomics are needed (the scatter form, one thread per column entry
// adding into the image, would need them where windows overlap).
template <typename scalar_t, typename acc_t>
__global__ void col2im_kernel(const scalar_t* __restrict__ col, scalar_t* __restrict__ im, int64_t channels,
                              int64_t height, int64_t width, int64_t kh, int64_t kw, int64_t ph, int64_t pw,
                              int64_t sh, int64_t sw, int64_t dh, int64_t dw, int64_t out_h, int64_t out_w) {
  const int64_t L = out_h * out_w;
  CUDA_KERNEL_LOOP_TYPE(index, channels * height * width, int64_t) {
    const int64_t x = index % width, y = (index / width) % height, c = index / (height * width);
    acc_t sum = 0;
    for (int64_t i = 0; i < kh; i++) {
      const int64_t ys = y + ph - i * dh;  // = oy * sh when output row oy covers y at offset i
      if (ys < 0 || ys % sh != 0 || ys / sh >= out_h) continue;
      const int64_t oy = ys / sh;
      for (int64_t j = 0; j < kw; j++) {
        const int64_t xs = x + pw - j * dw;
        if (xs < 0 || xs % sw != 0 || xs / sw >= out_w) continue;
        const int64_t ox = xs / sw;
        sum += static_cast<acc_t>(col[((c * kh + i) * kw + j) * L + oy * out_w + ox]);
      }
    }
    im[index] = static_cast<scalar_t>(sum);
  }
}
// [end marker: col2im_kernel]

}  // namespace

Tensor im2col_cuda(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
                   IntArrayRef stride) {
  const Im2ColGeometry g = im2col_geometry(self, kernel_size, dilation, padding, stride);
  const bool batched = self.dim() == 4;
  const Tensor input = (batched ? self : self.unsqueeze(0)).contiguous();
  const int64_t n = input.size(0), L = g.out_h * g.out_w;
  Tensor out = at::empty({n, g.channels * g.kh * g.kw, L}, input.scalar_type(), std::nullopt, input.device());
  if (out.numel() > 0) {
    c10::cuda::CUDAGuard guard(input.device());
    const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "im2col_cuda", [&] {
      for (int64_t b = 0; b < n; b++) {
        const int64_t blocks = at::cuda::detail::GET_BLOCKS(g.channels * L, 256);
        im2col_kernel<scalar_t><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
            input.const_data_ptr<scalar_t>() + b * g.channels * g.height * g.width,
            out.mutable_data_ptr<scalar_t>() + b * out.size(1) * L, g.channels, g.height, g.width, g.kh, g.kw, g.ph,
            g.pw, g.sh, g.sw, g.dh, g.dw, g.out_h, g.out_w);
        C10_CUDA_KERNEL_LAUNCH_CHECK();
      }
    });
  }
  return batched ? out : out.squeeze(0);
}

Tensor col2im_cuda(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size, IntArrayRef dilation,
                   IntArrayRef padding, IntArrayRef stride) {
  const Im2ColGeometry g = col2im_geometry(self, output_size, kernel_size, dilation, padding, stride);
  const bool batched = self.dim() == 3;
  const Tensor col = (batched ? self : self.unsqueeze(0)).contiguous();
  const int64_t n = col.size(0), plane = g.channels * g.height * g.width;
  Tensor out = at::empty({n, g.channels, g.height, g.width}, col.scalar_type(), std::nullopt, col.device());
  if (out.numel() > 0) {
    c10::cuda::CUDAGuard guard(col.device());
    const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, col.scalar_type(), "col2im_cuda", [&] {
      using acc_t = at::opmath_type<scalar_t>;
      for (int64_t b = 0; b < n; b++) {
        const int64_t blocks = at::cuda::detail::GET_BLOCKS(plane, 256);
        col2im_kernel<scalar_t, acc_t><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
            col.const_data_ptr<scalar_t>() + b * col.size(1) * col.size(2), out.mutable_data_ptr<scalar_t>() + b * plane,
            g.channels, g.height, g.width, g.kh, g.kw, g.ph, g.pw, g.sh, g.sw, g.dh, g.dw, g.out_h, g.out_w);
        C10_CUDA_KERNEL_LAUNCH_CHECK();
      }
    });
  }
  return batched ? out : out.squeeze(0);
}

}  // namespace at::native
