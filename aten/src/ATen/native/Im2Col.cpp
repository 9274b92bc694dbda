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
#include <ATen/native/im2col_shape_check.h>

#include <vector>

namespace at::native {

namespace {

// [marker: im2col]
// One (C, H, W) image -> its (C*kH*kW, outH*outW) columns.
template <typename scalar_t>
void im2col_one(const scalar_t* im, scalar_t* col, const Im2ColGeometry& g) {
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
void col2im_one(const scalar_t* col, scalar_t* im, const Im2ColGeometry& g) {
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

}  // namespace

Tensor im2col_cpu(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
                  IntArrayRef stride) {
  const Im2ColGeometry g = im2col_geometry(self, kernel_size, dilation, padding, stride);
  const bool batched = self.dim() == 4;
  const Tensor input = (batched ? self : self.unsqueeze(0)).contiguous();
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
  const Im2ColGeometry g = col2im_geometry(self, output_size, kernel_size, dilation, padding, stride);
  const bool batched = self.dim() == 3;
  const Tensor col = (batched ? self : self.unsqueeze(0)).contiguous();
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
