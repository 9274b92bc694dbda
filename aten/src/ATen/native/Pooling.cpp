// aten/src/ATen/native/Pooling.cpp - max_pool2d, avg_pool2d, adaptive_avg_pool2d and their backwards.
// Mirrors PyTorch's aten/src/ATen/native/Pooling.cpp, DilatedMaxPool2d.cpp, AveragePool2d.cpp,
// AdaptiveAveragePooling.cpp and Pool.h (pooling_output_shape, pool2d_shape_check).
// Guide: docs/source/internals/python_layer.rst.
//
// Every kernel walks one (H, W) plane per (batch, channel) pair: each output position looks
// at the window of the input under it. max pooling remembers where each maximum was (the
// flat index h * W + w within the plane), and its backward sends the gradient there; average
// pooling spreads each gradient evenly over its window. A 3-d input (C, H, W) is a batch of one.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/Parallel.h>
#include <ATen/native/Pool.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace at::native {

std::tuple<Tensor, Tensor> max_pool2d_with_indices_cpu(const Tensor& self, IntArrayRef kernel_size,
                                                       IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                                       bool ceil_mode) {
  const Pool2d p = pool2d_params("max_pool2d", self, kernel_size, stride, padding, dilation, ceil_mode);
  const Tensor input = self.contiguous();
  Tensor output = at::empty(pool_out_shape(self, p.out_h, p.out_w), self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  Tensor indices = at::empty(pool_out_shape(self, p.out_h, p.out_w), kLong, std::nullopt, self.device(), std::nullopt, std::nullopt);
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "max_pool2d_with_indices", [&] {
    const scalar_t* in = input.data_ptr<scalar_t>();
    scalar_t* out = output.data_ptr<scalar_t>();
    int64_t* ind = indices.data_ptr<int64_t>();
    at::parallel_for(0, p.batch * p.channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t plane = begin; plane < end; plane++) {
        const scalar_t* x = in + plane * p.in_h * p.in_w;
        for (int64_t oh = 0; oh < p.out_h; oh++) {
          for (int64_t ow = 0; ow < p.out_w; ow++) {
            scalar_t best = -std::numeric_limits<scalar_t>::infinity();
            int64_t best_index = -1;
            for (int64_t i = 0; i < p.kh; i++) {
              const int64_t h = oh * p.sh - p.ph + i * p.dh;
              if (h < 0 || h >= p.in_h) continue;
              for (int64_t j = 0; j < p.kw; j++) {
                const int64_t w = ow * p.sw - p.pw + j * p.dw;
                if (w < 0 || w >= p.in_w) continue;
                const scalar_t v = x[h * p.in_w + w];
                if (v > best || std::isnan(v) || best_index < 0) {  // NaN wins, as in PyTorch
                  best = v;
                  best_index = h * p.in_w + w;
                  if (std::isnan(v)) break;
                }
              }
            }
            const int64_t o = (plane * p.out_h + oh) * p.out_w + ow;
            out[o] = best;
            ind[o] = best_index;
          }
        }
      }
    });
  });
  return std::make_tuple(output, indices);
}

Tensor max_pool2d_with_indices_backward_cpu(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                                            IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                                            bool ceil_mode, const Tensor& indices) {
  const Pool2d p = pool2d_params("max_pool2d", self, kernel_size, stride, padding, dilation, ceil_mode);
  const Tensor go = grad_output.contiguous();
  const Tensor ind = indices.contiguous();
  Tensor grad_input = at::zeros(self.sizes(), self.scalar_type(), std::nullopt, self.device(), std::nullopt);
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "max_pool2d_with_indices_backward", [&] {
    const scalar_t* g = go.data_ptr<scalar_t>();
    const int64_t* idx = ind.data_ptr<int64_t>();
    scalar_t* gi = grad_input.data_ptr<scalar_t>();
    const int64_t out_plane = p.out_h * p.out_w, in_plane = p.in_h * p.in_w;
    at::parallel_for(0, p.batch * p.channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t plane = begin; plane < end; plane++) {
        for (int64_t o = 0; o < out_plane; o++) {
          const int64_t i = idx[plane * out_plane + o];
          if (i >= 0) gi[plane * in_plane + i] += g[plane * out_plane + o];
        }
      }
    });
  });
  return grad_input;
}

Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(at::max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode));
}

Tensor avg_pool2d_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                      bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  const Pool2d p = avg_pool2d_params(self, kernel_size, stride, padding, ceil_mode, divisor_override);
  const Tensor input = self.contiguous();
  Tensor output = at::empty(pool_out_shape(self, p.out_h, p.out_w), self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "avg_pool2d", [&] {
    const scalar_t* in = input.data_ptr<scalar_t>();
    scalar_t* out = output.data_ptr<scalar_t>();
    at::parallel_for(0, p.batch * p.channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t plane = begin; plane < end; plane++) {
        const scalar_t* x = in + plane * p.in_h * p.in_w;
        for (int64_t oh = 0; oh < p.out_h; oh++) {
          for (int64_t ow = 0; ow < p.out_w; ow++) {
            const Window w = avg_window(p, oh, ow, count_include_pad, divisor_override);
            scalar_t sum = 0;
            for (int64_t h = w.h0; h < w.h1; h++) {
              for (int64_t c = w.w0; c < w.w1; c++) sum += x[h * p.in_w + c];
            }
            out[(plane * p.out_h + oh) * p.out_w + ow] = sum / static_cast<scalar_t>(w.divisor);
          }
        }
      }
    });
  });
  return output;
}

Tensor avg_pool2d_backward_cpu(const Tensor& grad_output, const Tensor& self, IntArrayRef kernel_size,
                               IntArrayRef stride, IntArrayRef padding, bool ceil_mode, bool count_include_pad,
                               std::optional<int64_t> divisor_override) {
  const Pool2d p = avg_pool2d_params(self, kernel_size, stride, padding, ceil_mode, divisor_override);
  const Tensor go = grad_output.contiguous();
  Tensor grad_input = at::zeros(self.sizes(), self.scalar_type(), std::nullopt, self.device(), std::nullopt);
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "avg_pool2d_backward", [&] {
    const scalar_t* g = go.data_ptr<scalar_t>();
    scalar_t* gi = grad_input.data_ptr<scalar_t>();
    at::parallel_for(0, p.batch * p.channels, 1, [&](int64_t begin, int64_t end) {
      for (int64_t plane = begin; plane < end; plane++) {
        scalar_t* dx = gi + plane * p.in_h * p.in_w;
        for (int64_t oh = 0; oh < p.out_h; oh++) {
          for (int64_t ow = 0; ow < p.out_w; ow++) {
            const Window w = avg_window(p, oh, ow, count_include_pad, divisor_override);
            const scalar_t share = g[(plane * p.out_h + oh) * p.out_w + ow] / static_cast<scalar_t>(w.divisor);
            for (int64_t h = w.h0; h < w.h1; h++) {
              for (int64_t c = w.w0; c < w.w1; c++) dx[h * p.in_w + c] += share;
            }
          }
        }
      }
    });
  });
  return grad_input;
}

// Output cell o covers input rows [adaptive_start_index(o), adaptive_end_index(o)) (Pool.h).
Tensor adaptive_avg_pool2d_symint(const Tensor& self, IntArrayRef output_size) {
  TORCH_CHECK(output_size.size() == 2, "adaptive_avg_pool2d: output_size must be 2");
  return at::_adaptive_avg_pool2d(self, output_size);
}

Tensor adaptive_avg_pool2d_cpu(const Tensor& self, IntArrayRef output_size) {
  check_adaptive_avg_pool2d(self, output_size);
  const Tensor input = self.contiguous();
  const int64_t in_h = self.size(-2), in_w = self.size(-1), out_h = output_size[0], out_w = output_size[1];
  const int64_t planes = self.numel() / (in_h * in_w);
  Tensor output = at::empty(pool_out_shape(self, out_h, out_w), self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "adaptive_avg_pool2d", [&] {
    const scalar_t* in = input.data_ptr<scalar_t>();
    scalar_t* out = output.data_ptr<scalar_t>();
    at::parallel_for(0, planes, 1, [&](int64_t begin, int64_t end) {
      for (int64_t plane = begin; plane < end; plane++) {
        const scalar_t* x = in + plane * in_h * in_w;
        for (int64_t oh = 0; oh < out_h; oh++) {
          const int64_t h0 = adaptive_start_index(oh, out_h, in_h), h1 = adaptive_end_index(oh, out_h, in_h);
          for (int64_t ow = 0; ow < out_w; ow++) {
            const int64_t w0 = adaptive_start_index(ow, out_w, in_w), w1 = adaptive_end_index(ow, out_w, in_w);
            scalar_t sum = 0;
            for (int64_t h = h0; h < h1; h++) {
              for (int64_t w = w0; w < w1; w++) sum += x[h * in_w + w];
            }
            out[(plane * out_h + oh) * out_w + ow] = sum / static_cast<scalar_t>((h1 - h0) * (w1 - w0));
          }
        }
      }
    });
  });
  return output;
}

Tensor adaptive_avg_pool2d_backward_cpu(const Tensor& grad_output, const Tensor& self) {
  const Tensor go = grad_output.contiguous();
  const int64_t in_h = self.size(-2), in_w = self.size(-1), out_h = go.size(-2), out_w = go.size(-1);
  const int64_t planes = self.numel() / (in_h * in_w);
  Tensor grad_input = at::zeros(self.sizes(), self.scalar_type(), std::nullopt, self.device(), std::nullopt);
  AT_DISPATCH_FLOATING_TYPES(self.scalar_type(), "adaptive_avg_pool2d_backward", [&] {
    const scalar_t* g = go.data_ptr<scalar_t>();
    scalar_t* gi = grad_input.data_ptr<scalar_t>();
    at::parallel_for(0, planes, 1, [&](int64_t begin, int64_t end) {
      for (int64_t plane = begin; plane < end; plane++) {
        scalar_t* dx = gi + plane * in_h * in_w;
        for (int64_t oh = 0; oh < out_h; oh++) {
          const int64_t h0 = adaptive_start_index(oh, out_h, in_h), h1 = adaptive_end_index(oh, out_h, in_h);
          for (int64_t ow = 0; ow < out_w; ow++) {
            const int64_t w0 = adaptive_start_index(ow, out_w, in_w), w1 = adaptive_end_index(ow, out_w, in_w);
            const scalar_t share =
                g[(plane * out_h + oh) * out_w + ow] / static_cast<scalar_t>((h1 - h0) * (w1 - w0));
            for (int64_t h = h0; h < h1; h++) {
              for (int64_t w = w0; w < w1; w++) dx[h * in_w + w] += share;
            }
          }
        }
      }
    });
  });
  return grad_input;
}

}  // namespace at::native
