// aten/src/ATen/native/cuda/DilatedMaxPool2d.cu - max_pool2d_with_indices of CUDA tensors and its
// backward. Mirrors PyTorch's aten/src/ATen/native/cuda/DilatedMaxPool2d.cu (max_pool_forward_nchw);
// its backward gathers, one thread per input pixel, and this one scatters with atomicAdd, one
// thread per output element. Guide: docs/source/internals/cuda_training.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/native/Pool.h>
#include <c10/cuda/CUDAGuard.h>

#include <limits>
#include <tuple>

namespace at::native {
namespace {

// One thread per output element: the maximum of its window and where it was (h * W + w within
// the plane). NaN wins, as on the CPU.
template <typename scalar_t>
__global__ void max_pool_forward_nchw(const scalar_t* __restrict__ in, scalar_t* __restrict__ out,
                                      int64_t* __restrict__ indices, int64_t planes, int64_t in_h, int64_t in_w,
                                      int64_t out_h, int64_t out_w, int64_t kh, int64_t kw, int64_t sh, int64_t sw,
                                      int64_t ph, int64_t pw, int64_t dh, int64_t dw) {
  CUDA_KERNEL_LOOP_TYPE(index, planes * out_h * out_w, int64_t) {
    const int64_t ow = index % out_w, oh = (index / out_w) % out_h, plane = index / (out_h * out_w);
    const scalar_t* x = in + plane * in_h * in_w;
    scalar_t best = -std::numeric_limits<scalar_t>::infinity();
    int64_t best_index = -1;
    for (int64_t i = 0; i < kh; i++) {
      const int64_t h = oh * sh - ph + i * dh;
      if (h < 0 || h >= in_h) continue;
      for (int64_t j = 0; j < kw; j++) {
        const int64_t w = ow * sw - pw + j * dw;
        if (w < 0 || w >= in_w) continue;
        const scalar_t v = x[h * in_w + w];
        if (v > best || v != v || best_index < 0) {
          best = v;
          best_index = h * in_w + w;
          if (v != v) {
            i = kh;  // a NaN ends the search
            break;
          }
        }
      }
    }
    out[index] = best;
    indices[index] = best_index;
  }
}

// [marker: max_pool_backward_nchw]
// One thread per output element adds its gradient to the input pixel its maximum came from.
// Overlapping windows (stride < kernel) can pick the same pixel, so the add is atomic.
template <typename scalar_t>
__global__ void max_pool_backward_nchw(const scalar_t* __restrict__ grad_output, const int64_t* __restrict__ indices,
                                       scalar_t* __restrict__ grad_input, int64_t planes, int64_t in_plane,
                                       int64_t out_plane) {
  CUDA_KERNEL_LOOP_TYPE(index, planes * out_plane, int64_t) {
    const int64_t i = indices[index];
    if (i >= 0) {
      atomicAdd(grad_input + (index / out_plane) * in_plane + i, grad_output[index]);
    }
  }
}
// [end marker: max_pool_backward_nchw]

}  // namespace

std::tuple<Tensor, Tensor> max_pool2d_with_indices_cuda(const Tensor& self, IntArrayRef kernel_size,
                                                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                                        bool ceil_mode) {
  const Pool2d p = pool2d_params("max_pool2d", self, kernel_size, stride, padding, dilation, ceil_mode);
  const Tensor input = self.contiguous();
  Tensor output = at::empty(pool_out_shape(self, p.out_h, p.out_w), self.scalar_type(), std::nullopt, self.device());
  Tensor indices = at::empty(pool_out_shape(self, p.out_h, p.out_w), kLong, std::nullopt, self.device());
  if (output.numel() == 0) {
    return std::make_tuple(output, indices);
  }
  c10::cuda::CUDAGuard guard(self.device());
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "max_pool2d_with_indices_cuda", [&] {
    const int64_t blocks = at::cuda::detail::GET_BLOCKS(output.numel(), 256);
    max_pool_forward_nchw<scalar_t><<<static_cast<unsigned>(blocks), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        input.const_data_ptr<scalar_t>(), output.mutable_data_ptr<scalar_t>(), indices.mutable_data_ptr<int64_t>(),
        p.batch * p.channels, p.in_h, p.in_w, p.out_h, p.out_w, p.kh, p.kw, p.sh, p.sw, p.ph, p.pw, p.dh, p.dw);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return std::make_tuple(output, indices);
}

Tensor max_pool2d_with_indices_backward_cuda(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                                             IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                             bool ceil_mode, const Tensor& indices) {
  const Pool2d p = pool2d_params("max_pool2d", self, kernel_size, stride, padding, dilation, ceil_mode);
  const Tensor go = grad_output.contiguous();
  const Tensor ind = indices.contiguous();
  Tensor grad_input = at::zeros(self.sizes(), self.scalar_type(), std::nullopt, self.device(), std::nullopt);
  if (go.numel() == 0) {
    return grad_input;
  }
  c10::cuda::CUDAGuard guard(self.device());
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "max_pool2d_with_indices_backward_cuda", [&] {
    const int64_t blocks = at::cuda::detail::GET_BLOCKS(go.numel(), 256);
    max_pool_backward_nchw<scalar_t><<<static_cast<unsigned>(blocks), 256, 0, at::cuda::getCurrentCUDAStream()>>>(
        go.const_data_ptr<scalar_t>(), ind.const_data_ptr<int64_t>(), grad_input.mutable_data_ptr<scalar_t>(),
        p.batch * p.channels, p.in_h * p.in_w, p.out_h * p.out_w);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return grad_input;
}

}  // namespace at::native
