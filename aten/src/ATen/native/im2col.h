// aten/src/ATen/native/im2col.h - im2col and col2im of one image: every kernel-sized patch as
// one column of a (C*kH*kW, outH*outW) matrix, and back (summing where patches overlap).
// Mirrors PyTorch's aten/src/ATen/native/im2col.h; used by the im2col/col2im operators
// (Im2Col.cpp) and by the convolution (ConvolutionMM2d.cpp), which runs them one image at a
// time so the columns stay in cache for the matrix product. Guide: docs/source/internals/performance.rst.
#pragma once

#include <ATen/native/im2col_shape_check.h>

#include <algorithm>
#include <cstdint>

namespace at::native {

// The output columns ox whose input column x = ox * sw - pw + j * dw lies inside [0, width):
// one contiguous range [begin, end), so the bounds are checked once per row, not per element.
struct ValidRange {
  int64_t begin, end;
};
inline ValidRange valid_columns(int64_t offset, int64_t stride, int64_t width, int64_t out_w) {
  // x = ox * stride + offset: x >= 0 from ox = ceil(-offset / stride); x < width up to
  // ox = floor((width - 1 - offset) / stride).
  auto floor_div = [](int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
  const int64_t begin = std::max<int64_t>(0, -floor_div(offset, stride));
  const int64_t end = std::min<int64_t>(out_w, width - 1 - offset < 0 ? 0 : floor_div(width - 1 - offset, stride) + 1);
  return {begin, std::max(begin, end)};
}

// [marker: im2col_one]
// One (C, H, W) image -> its (C*kH*kW, outH*outW) columns; only channels [c_begin, c_end)
// when given (all by default), so threads can share one image.
template <typename scalar_t>
void im2col_one(const scalar_t* im, scalar_t* col, const Im2ColGeometry& g, int64_t c_begin = 0, int64_t c_end = -1) {
  const int64_t L = g.out_h * g.out_w;
  if (c_end < 0) c_end = g.channels;
  for (int64_t c = c_begin; c < c_end; c++) {
    for (int64_t i = 0; i < g.kh; i++) {
      for (int64_t j = 0; j < g.kw; j++) {
        scalar_t* row = col + ((c * g.kh + i) * g.kw + j) * L;
        const int64_t offset = j * g.dw - g.pw;
        const ValidRange xs = valid_columns(offset, g.sw, g.width, g.out_w);
        for (int64_t oy = 0; oy < g.out_h; oy++) {
          scalar_t* out = row + oy * g.out_w;
          const int64_t y = oy * g.sh - g.ph + i * g.dh;
          if (y < 0 || y >= g.height) {
            std::fill_n(out, g.out_w, scalar_t(0));  // the whole row is padding
            continue;
          }
          const scalar_t* in = im + (c * g.height + y) * g.width;
          std::fill_n(out, xs.begin, scalar_t(0));
          if (g.sw == 1) {
            std::copy(in + xs.begin + offset, in + xs.end + offset, out + xs.begin);
          } else {
            for (int64_t ox = xs.begin; ox < xs.end; ox++) out[ox] = in[ox * g.sw + offset];
          }
          std::fill(out + xs.end, out + g.out_w, scalar_t(0));
        }
      }
    }
  }
}
// [end marker: im2col_one]

// The adjoint: adds every column entry back into the image position it came from (image
// channel c only receives from rows of channel c, so channel ranges can run in parallel).
template <typename scalar_t>
void col2im_one(const scalar_t* col, scalar_t* im, const Im2ColGeometry& g, int64_t c_begin = 0, int64_t c_end = -1) {
  const int64_t L = g.out_h * g.out_w;
  if (c_end < 0) c_end = g.channels;
  for (int64_t c = c_begin; c < c_end; c++) {
    for (int64_t i = 0; i < g.kh; i++) {
      for (int64_t j = 0; j < g.kw; j++) {
        const scalar_t* row = col + ((c * g.kh + i) * g.kw + j) * L;
        const int64_t offset = j * g.dw - g.pw;
        const ValidRange xs = valid_columns(offset, g.sw, g.width, g.out_w);
        for (int64_t oy = 0; oy < g.out_h; oy++) {
          const int64_t y = oy * g.sh - g.ph + i * g.dh;
          if (y < 0 || y >= g.height) continue;
          const scalar_t* in = row + oy * g.out_w;
          scalar_t* out = im + (c * g.height + y) * g.width;
          for (int64_t ox = xs.begin; ox < xs.end; ox++) out[ox * g.sw + offset] += in[ox];
        }
      }
    }
  }
}

}  // namespace at::native
