// aten/src/ATen/native/Im2Col.cpp - im2col and col2im: kernel-sized patches as columns, and back.
// Mirrors PyTorch's aten/src/ATen/native/Im2Col.cpp, Col2Im.cpp and im2col.h.
// Guide: docs/source/internals/python_layer.rst.
//
// For an input (N, C, H, W) and a kH x kW kernel, im2col returns (N, C*kH*kW, L): column l
// holds the patch under the kernel at output position l (L = outH * outW), row c*kH*kW +
// i*kW + j the element at channel c, kernel offset (i, j). Positions in the padding read 0.
// A convolution is then one matrix product: weight (C_out, C*kH*kW) @ columns.
// col2im is its adjoint: it adds every column entry back into the input position it came
// from (overlapping patches sum), which is how the convolution's input gradient is formed.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/Parallel.h>

#include <vector>

namespace at::native {

namespace {

// Rounded toward negative infinity (PyTorch's div_rtn): a kernel wider than the padded input
// gives 0 or fewer blocks, which the caller refuses, rather than C++'s truncation to 1.
int64_t pooled_output_size(int64_t in, int64_t k, int64_t d, int64_t p, int64_t s) {
  const int64_t span = in + 2 * p - d * (k - 1) - 1;
  const int64_t q = span / s;
  return (span % s != 0 && span < 0 ? q - 1 : q) + 1;
}

struct Geometry {
  int64_t channels, height, width, kh, kw, dh, dw, ph, pw, sh, sw, out_h, out_w;
};

// [marker: im2col]
// One (C, H, W) image -> its (C*kH*kW, outH*outW) columns.
template <typename scalar_t>
void im2col_one(const scalar_t* im, scalar_t* col, const Geometry& g) {
  const int64_t L = g.out_h * g.out_w;
  for (int64_t c = 0; c < g.channels; c++) {
    for (int64_t i = 0; i < g.kh; i++) {
      for (int64_t j = 0; j < g.kw; j++) {
        scalar_t* row = col + ((c * g.kh + i) * g.kw + j) * L;
        for (int64_t oy = 0; oy < g.out_h; oy++) {
          const int64_t y = oy * g.sh - g.ph + i * g.dh;
          for (int64_t ox = 0; ox < g.out_w; ox++) {
            const int64_t x = ox * g.sw - g.pw + j * g.dw;
            const bool inside = y >= 0 && y < g.height && x >= 0 && x < g.width;
            row[oy * g.out_w + ox] = inside ? im[(c * g.height + y) * g.width + x] : scalar_t(0);
          }
        }
      }
    }
  }
}
// [end marker: im2col]

// [marker: col2im]
// The adjoint: each column entry is added back where im2col read it from.
template <typename scalar_t>
void col2im_one(const scalar_t* col, scalar_t* im, const Geometry& g) {
  const int64_t L = g.out_h * g.out_w;
  for (int64_t c = 0; c < g.channels; c++) {
    for (int64_t i = 0; i < g.kh; i++) {
      for (int64_t j = 0; j < g.kw; j++) {
        const scalar_t* row = col + ((c * g.kh + i) * g.kw + j) * L;
        for (int64_t oy = 0; oy < g.out_h; oy++) {
          const int64_t y = oy * g.sh - g.ph + i * g.dh;
          if (y < 0 || y >= g.height) continue;
          for (int64_t ox = 0; ox < g.out_w; ox++) {
            const int64_t x = ox * g.sw - g.pw + j * g.dw;
            if (x < 0 || x >= g.width) continue;
            im[(c * g.height + y) * g.width + x] += row[oy * g.out_w + ox];
          }
        }
      }
    }
  }
}
// [end marker: col2im]

void check_2(IntArrayRef a, const char* name) {
  TORCH_CHECK(a.size() == 2, "It is expected ", name, " equals to 2, but got size ", a.size());
}

// PyTorch's im2col_shape_check (aten/src/ATen/native/im2col_shape_check.h): a kernel,
// dilation or stride below one, or a negative padding, would index outside the image.
void check_window(IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  check_2(kernel_size, "kernel_size");
  check_2(dilation, "dilation");
  check_2(padding, "padding");
  check_2(stride, "stride");
  TORCH_CHECK(kernel_size[0] > 0 && kernel_size[1] > 0, "kernel size should be greater than zero, but got kernel_height: ",
              kernel_size[0], " kernel_width: ", kernel_size[1]);
  TORCH_CHECK(dilation[0] > 0 && dilation[1] > 0, "dilation should be greater than zero, but got dilation_height: ",
              dilation[0], " dilation_width: ", dilation[1]);
  TORCH_CHECK(padding[0] >= 0 && padding[1] >= 0, "padding should be non-negative, but got pad_height: ", padding[0],
              " pad_width: ", padding[1]);
  TORCH_CHECK(stride[0] > 0 && stride[1] > 0, "stride should be greater than zero, but got stride_height: ", stride[0],
              " stride_width: ", stride[1]);
}

}  // namespace

Tensor im2col_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
                  IntArrayRef stride) {
  check_window(kernel_size, dilation, padding, stride);
  TORCH_CHECK(self.dim() == 3 || self.dim() == 4,
              "Expected 3D or 4D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: ",
              self.sizes());
  const bool batched = self.dim() == 4;
  const Tensor input = (batched ? self : self.unsqueeze(0)).contiguous();
  Geometry g{input.size(1), input.size(2), input.size(3), kernel_size[0], kernel_size[1], dilation[0], dilation[1],
             padding[0], padding[1], stride[0], stride[1], 0, 0};
  g.out_h = pooled_output_size(g.height, g.kh, g.dh, g.ph, g.sh);
  g.out_w = pooled_output_size(g.width, g.kw, g.dw, g.pw, g.sw);
  TORCH_CHECK(g.out_h >= 1 && g.out_w >= 1, "Given input with spatial size (", g.height, ", ", g.width,
              "), kernel_size=(", g.kh, ", ", g.kw, "), dilation=(", g.dh, ", ", g.dw, "), padding=(", g.ph, ", ", g.pw,
              "), calculated shape of the array of sliding blocks as (", g.out_h, ", ", g.out_w,
              "), but its components must be at least one.");
  const int64_t n = input.size(0);
  Tensor out = at::empty({n, g.channels * g.kh * g.kw, g.out_h * g.out_w}, input.scalar_type(), std::nullopt, input.device(), std::nullopt, std::nullopt);
  AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "im2col", [&] {
    const scalar_t* in = input.data_ptr<scalar_t>();
    scalar_t* col = out.data_ptr<scalar_t>();
    const int64_t in_step = g.channels * g.height * g.width, col_step = out.size(1) * out.size(2);
    at::parallel_for(0, n, 1, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; b++) im2col_one(in + b * in_step, col + b * col_step, g);
    });
  });
  return batched ? out : out.squeeze(0);
}

Tensor col2im_cpu(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size, IntArrayRef dilation,
                  IntArrayRef padding, IntArrayRef stride) {
  check_2(output_size, "output_size");
  check_window(kernel_size, dilation, padding, stride);
  TORCH_CHECK(self.dim() == 2 || self.dim() == 3,
              "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: ",
              self.sizes());
  const bool batched = self.dim() == 3;
  const Tensor col = (batched ? self : self.unsqueeze(0)).contiguous();
  const int64_t kk = kernel_size[0] * kernel_size[1];
  TORCH_CHECK(col.size(1) % kk == 0, "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=",
              col.size(1), " and kernel_size=(", kernel_size[0], ", ", kernel_size[1], ")");
  Geometry g{col.size(1) / kk, output_size[0], output_size[1], kernel_size[0], kernel_size[1], dilation[0],
             dilation[1], padding[0], padding[1], stride[0], stride[1], 0, 0};
  g.out_h = pooled_output_size(g.height, g.kh, g.dh, g.ph, g.sh);
  g.out_w = pooled_output_size(g.width, g.kw, g.dw, g.pw, g.sw);
  TORCH_CHECK(g.out_h * g.out_w == col.size(2), "Given output_size=(", g.height, ", ", g.width, "), kernel_size=(",
              g.kh, ", ", g.kw, "), dilation=(", g.dh, ", ", g.dw, "), padding=(", g.ph, ", ", g.pw, "), stride=(", g.sh,
              ", ", g.sw, "), expected size of input's dimension 2 to match the calculated number of sliding blocks ",
              g.out_h, " * ", g.out_w, " = ", g.out_h * g.out_w, ", but got input.size(2)=", col.size(2), ".");
  const int64_t n = col.size(0);
  Tensor out = at::zeros({n, g.channels, g.height, g.width}, col.scalar_type(), std::nullopt, col.device(), std::nullopt);
  AT_DISPATCH_FLOATING_TYPES(col.scalar_type(), "col2im", [&] {
    const scalar_t* c = col.data_ptr<scalar_t>();
    scalar_t* im = out.data_ptr<scalar_t>();
    const int64_t col_step = col.size(1) * col.size(2), im_step = g.channels * g.height * g.width;
    at::parallel_for(0, n, 1, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; b++) col2im_one(c + b * col_step, im + b * im_step, g);
    });
  });
  return batched ? out : out.squeeze(0);
}

}  // namespace at::native
