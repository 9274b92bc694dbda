// aten/src/ATen/native/im2col_shape_check.h - the checks and the geometry of im2col and col2im,
// shared by the CPU kernels (Im2Col.cpp) and the CUDA ones (cuda/Im2Col.cu), so both refuse bad
// arguments with PyTorch's words. Mirrors PyTorch's aten/src/ATen/native/im2col_shape_check.h.
// Guide: docs/source/internals/python_layer.rst.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>

namespace at::native {

// Rounded toward negative infinity (PyTorch's div_rtn): a kernel wider than the padded input
// gives 0 or fewer blocks, which the caller refuses, rather than C++'s truncation to 1.
inline int64_t im2col_output_size(int64_t in, int64_t k, int64_t d, int64_t p, int64_t s) {
  const int64_t span = in + 2 * p - d * (k - 1) - 1;
  const int64_t q = span / s;
  return (span % s != 0 && span < 0 ? q - 1 : q) + 1;
}

struct Im2ColGeometry {
  int64_t channels, height, width, kh, kw, dh, dw, ph, pw, sh, sw, out_h, out_w;
};

inline void im2col_check_2(IntArrayRef a, const char* name) {
  TORCH_CHECK(a.size() == 2, "It is expected ", name, " equals to 2, but got size ", a.size());
}

// PyTorch's im2col_shape_check (aten/src/ATen/native/im2col_shape_check.h): a kernel,
// dilation or stride below one, or a negative padding, would index outside the image.
inline void im2col_check_window(IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  im2col_check_2(kernel_size, "kernel_size");
  im2col_check_2(dilation, "dilation");
  im2col_check_2(padding, "padding");
  im2col_check_2(stride, "stride");
  TORCH_CHECK(kernel_size[0] > 0 && kernel_size[1] > 0, "kernel size should be greater than zero, but got kernel_height: ",
              kernel_size[0], " kernel_width: ", kernel_size[1]);
  TORCH_CHECK(dilation[0] > 0 && dilation[1] > 0, "dilation should be greater than zero, but got dilation_height: ",
              dilation[0], " dilation_width: ", dilation[1]);
  TORCH_CHECK(padding[0] >= 0 && padding[1] >= 0, "padding should be non-negative, but got pad_height: ", padding[0],
              " pad_width: ", padding[1]);
  TORCH_CHECK(stride[0] > 0 && stride[1] > 0, "stride should be greater than zero, but got stride_height: ", stride[0],
              " stride_width: ", stride[1]);
}

// The checks of im2col and its geometry, for an input (C, H, W) or (N, C, H, W).
inline Im2ColGeometry im2col_geometry(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation,
                                      IntArrayRef padding, IntArrayRef stride) {
  im2col_check_window(kernel_size, dilation, padding, stride);
  TORCH_CHECK(self.dim() == 3 || self.dim() == 4,
              "Expected 3D or 4D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: ",
              self.sizes());
  Im2ColGeometry g{self.size(-3), self.size(-2), self.size(-1), kernel_size[0], kernel_size[1], dilation[0], dilation[1],
             padding[0], padding[1], stride[0], stride[1], 0, 0};
  g.out_h = im2col_output_size(g.height, g.kh, g.dh, g.ph, g.sh);
  g.out_w = im2col_output_size(g.width, g.kw, g.dw, g.pw, g.sw);
  TORCH_CHECK(g.out_h >= 1 && g.out_w >= 1, "Given input with spatial size (", g.height, ", ", g.width,
              "), kernel_size=(", g.kh, ", ", g.kw, "), dilation=(", g.dh, ", ", g.dw, "), padding=(", g.ph, ", ", g.pw,
              "), calculated shape of the array of sliding blocks as (", g.out_h, ", ", g.out_w,
              "), but its components must be at least one.");
  return g;
}

// The checks of col2im and its geometry, for columns (C*kH*kW, L) or (N, C*kH*kW, L).
inline Im2ColGeometry col2im_geometry(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size,
                                      IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  im2col_check_2(output_size, "output_size");
  im2col_check_window(kernel_size, dilation, padding, stride);
  TORCH_CHECK(self.dim() == 2 || self.dim() == 3,
              "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: ",
              self.sizes());
  const int64_t kk = kernel_size[0] * kernel_size[1];
  TORCH_CHECK(self.size(-2) % kk == 0, "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=",
              self.size(-2), " and kernel_size=(", kernel_size[0], ", ", kernel_size[1], ")");
  Im2ColGeometry g{self.size(-2) / kk, output_size[0], output_size[1], kernel_size[0], kernel_size[1], dilation[0],
             dilation[1], padding[0], padding[1], stride[0], stride[1], 0, 0};
  g.out_h = im2col_output_size(g.height, g.kh, g.dh, g.ph, g.sh);
  g.out_w = im2col_output_size(g.width, g.kw, g.dw, g.pw, g.sw);
  TORCH_CHECK(g.out_h * g.out_w == self.size(-1), "Given output_size=(", g.height, ", ", g.width, "), kernel_size=(",
              g.kh, ", ", g.kw, "), dilation=(", g.dh, ", ", g.dw, "), padding=(", g.ph, ", ", g.pw, "), stride=(", g.sh,
              ", ", g.sw, "), expected size of input's dimension 2 to match the calculated number of sliding blocks ",
              g.out_h, " * ", g.out_w, " = ", g.out_h * g.out_w, ", but got input.size(2)=", self.size(-1), ".");
  return g;
}

}  // namespace at::native
