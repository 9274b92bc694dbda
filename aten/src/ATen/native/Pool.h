// aten/src/ATen/native/Pool.h - the output size of a pooling window, the checks of a 2-d pooling's
// arguments and the windows of average pooling, shared by the CPU kernels (Pooling.cpp) and the
// CUDA ones (cuda/DilatedMaxPool2d.cu, cuda/AveragePool2d.cu).
// Mirrors PyTorch's aten/src/ATen/native/Pool.h (pooling_output_shape, pool2d_shape_check).
// Guide: docs/source/internals/python_layer.rst.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/macros/Macros.h>
#include <c10/util/Exception.h>

#include <optional>
#include <vector>

namespace at::native {

// Output length of a window `k` (dilation d) sliding with stride s over in + 2p. ceil_mode
// keeps a last, partial window, unless it would start entirely in the right padding.
inline int64_t pooling_output_shape(int64_t in, int64_t k, int64_t p, int64_t s, int64_t d, bool ceil_mode) {
  const int64_t numer = in + 2 * p - d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0);
  int64_t out = (numer >= 0 ? numer / s : -((-numer + s - 1) / s)) + 1;  // floor division
  if (ceil_mode && (out - 1) * s >= in + p) {
    --out;
  }
  return out;
}

struct Pool2d {
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
  int64_t batch, channels, in_h, in_w, out_h, out_w;
};

inline Pool2d pool2d_params(const char* name, const Tensor& input, IntArrayRef kernel_size, IntArrayRef stride,
                     IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  TORCH_CHECK(kernel_size.size() == 1 || kernel_size.size() == 2, name,
              ": kernel_size must either be a single int, or a tuple of two ints");
  TORCH_CHECK(stride.empty() || stride.size() == 1 || stride.size() == 2, name,
              ": stride must either be omitted, a single int, or a tuple of two ints");
  TORCH_CHECK(padding.size() == 1 || padding.size() == 2, name,
              ": padding must either be a single int, or a tuple of two ints");
  TORCH_CHECK(dilation.size() == 1 || dilation.size() == 2, name,
              ": dilation must be either a single int, or a tuple of two ints");
  TORCH_CHECK(input.dim() == 3 || input.dim() == 4,
              "non-empty 3D or 4D (batch mode) tensor expected for input");
  Pool2d p;
  p.kh = kernel_size[0];
  p.kw = kernel_size.size() == 1 ? p.kh : kernel_size[1];
  p.sh = stride.empty() ? p.kh : stride[0];
  p.sw = stride.empty() ? p.kw : (stride.size() == 1 ? p.sh : stride[1]);
  p.ph = padding[0];
  p.pw = padding.size() == 1 ? p.ph : padding[1];
  p.dh = dilation[0];
  p.dw = dilation.size() == 1 ? p.dh : dilation[1];
  TORCH_CHECK(p.kh > 0 && p.kw > 0, "kernel size should be greater than zero, but got kH: ", p.kh, " kW: ", p.kw);
  TORCH_CHECK(p.sh > 0 && p.sw > 0, "stride should be greater than zero, but got dH: ", p.sh, " dW: ", p.sw);
  TORCH_CHECK(p.dh > 0 && p.dw > 0, "dilation should be greater than zero, but got dilationH: ", p.dh,
              " dilationW: ", p.dw);
  TORCH_CHECK(p.ph <= ((p.kh - 1) * p.dh + 1) / 2 && p.pw <= ((p.kw - 1) * p.dw + 1) / 2,
              "pad should be at most half of effective kernel size, but got pad=", p.ph, ", kernel_size=", p.kh,
              " and dilation=", p.dh);
  const bool batched = input.dim() == 4;
  p.batch = batched ? input.size(0) : 1;
  p.channels = input.size(-3);
  p.in_h = input.size(-2);
  p.in_w = input.size(-1);
  p.out_h = pooling_output_shape(p.in_h, p.kh, p.ph, p.sh, p.dh, ceil_mode);
  p.out_w = pooling_output_shape(p.in_w, p.kw, p.pw, p.sw, p.dw, ceil_mode);
  TORCH_CHECK(p.out_h >= 1 && p.out_w >= 1, "Given input size: (", p.channels, "x", p.in_h, "x", p.in_w,
              "). Calculated output size: (", p.channels, "x", p.out_h, "x", p.out_w, "). Output size is too small");
  return p;
}

inline std::vector<int64_t> pool_out_shape(const Tensor& input, int64_t out_h, int64_t out_w) {
  std::vector<int64_t> shape = input.sizes().vec();
  shape[shape.size() - 2] = out_h;
  shape[shape.size() - 1] = out_w;
  return shape;
}

// The window of output (oh, ow), clipped to the input, and what its sum is divided by:
// divisor_override if given (non-zero), else the window's size counting the padding it covers
// (count_include_pad) or only the input it covers. Host and device: the CUDA kernels
// (cuda/AveragePool2d.cu) call it per thread.
struct Window {
  int64_t h0, h1, w0, w1, divisor;
};

C10_HOST_DEVICE inline Window avg_window(int64_t oh, int64_t ow, int64_t kh, int64_t kw, int64_t sh, int64_t sw,
                                         int64_t ph, int64_t pw, int64_t in_h, int64_t in_w, bool count_include_pad,
                                         int64_t divisor_override) {
  int64_t h0 = oh * sh - ph, w0 = ow * sw - pw;
  int64_t h1 = h0 + kh < in_h + ph ? h0 + kh : in_h + ph;
  int64_t w1 = w0 + kw < in_w + pw ? w0 + kw : in_w + pw;
  const int64_t padded_size = (h1 - h0) * (w1 - w0);
  h0 = h0 > 0 ? h0 : 0;
  w0 = w0 > 0 ? w0 : 0;
  h1 = h1 < in_h ? h1 : in_h;
  w1 = w1 < in_w ? w1 : in_w;
  const int64_t divisor = divisor_override != 0 ? divisor_override
                          : count_include_pad   ? padded_size
                                                : (h1 - h0) * (w1 - w0);
  return {h0, h1, w0, w1, divisor};
}

inline Window avg_window(const Pool2d& p, int64_t oh, int64_t ow, bool count_include_pad,
                         std::optional<int64_t> divisor_override) {
  return avg_window(oh, ow, p.kh, p.kw, p.sh, p.sw, p.ph, p.pw, p.in_h, p.in_w, count_include_pad,
                    divisor_override.value_or(0));
}

inline Pool2d avg_pool2d_params(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                                bool ceil_mode, std::optional<int64_t> divisor_override) {
  TORCH_CHECK(!divisor_override.has_value() || *divisor_override != 0, "divisor must be not zero");
  return pool2d_params("avg_pool2d", self, kernel_size, stride, padding, {1}, ceil_mode);
}

// Output cell o of `out` covers input rows [floor(o * in / out), ceil((o + 1) * in / out)):
// windows that tile the input, overlapping by at most one row when out does not divide in.
C10_HOST_DEVICE inline int64_t adaptive_start_index(int64_t o, int64_t out, int64_t in) { return (o * in) / out; }
C10_HOST_DEVICE inline int64_t adaptive_end_index(int64_t o, int64_t out, int64_t in) {
  return ((o + 1) * in + out - 1) / out;
}

// adaptive_avg_pool2d's checks, shared by both devices.
inline void check_adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  TORCH_CHECK(output_size.size() == 2, "adaptive_avg_pool2d: output_size must be 2");
  TORCH_CHECK(self.dim() == 3 || self.dim() == 4, "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got ",
              self.sizes());
  for (int64_t i = 1; i < self.dim(); i++) {
    TORCH_CHECK(self.size(i) > 0, "adaptive_avg_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes ",
                self.sizes(), " with dimension ", i, " being empty");
  }
}

}  // namespace at::native
