// aten/src/ATen/native/Pool.h - the output size of a pooling window and the checks of a 2-d pooling's
// arguments, shared by the CPU kernels (Pooling.cpp) and the CUDA ones (cuda/DilatedMaxPool2d.cu).
// Mirrors PyTorch's aten/src/ATen/native/Pool.h (pooling_output_shape, pool2d_shape_check).
// Guide: docs/source/internals/python_layer.rst.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>

#include <vector>

namespace at::native {

// [marker: pooling_output_shape]
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
// [end marker: pooling_output_shape]

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

}  // namespace at::native
