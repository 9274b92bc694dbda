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
#include <ATen/native/im2col.h>
#include <ATen/native/im2col_shape_check.h>

#include <algorithm>
#include <vector>

namespace at::native {

// The loops over one image, im2col_one and col2im_one, are in im2col.h.

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
