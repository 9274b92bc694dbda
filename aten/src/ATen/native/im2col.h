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

// [marker: columns_row_stride]
// The row stride for a columns buffer of rows L elements long. When a row is a multiple of
// 4 KiB (L = 1024 floats: a 32x32 output), the matrix product's reads of successive rows
// fall on the same L1 cache sets and evict each other (4K aliasing); padding each row by one
// cache line breaks that. Measured on the 64x288 @ 288x1024 product of a 3x3 convolution:
// 178 GFLOP/s with rows 1024 floats apart, 199 GFLOP/s with rows 1040 apart.
template <typename scalar_t>
int64_t columns_row_stride(int64_t L) {
  constexpr int64_t kPage = 4096, kLine = 64;
  const int64_t bytes = L * static_cast<int64_t>(sizeof(scalar_t));
  return bytes >= kPage && bytes % kPage == 0 ? L + kLine / static_cast<int64_t>(sizeof(scalar_t)) : L;
}
// [end marker: columns_row_stride]

// [marker: im2col_row_same_width]
// One row of the columns (one channel and kernel offset: y = oy + y_shift, x = ox + offset)
// when the output is as wide as the input and both strides are 1 (a "same" convolution, the
// commonest there is). Then the row is the channel's plane shifted by y_shift rows and
// `offset` columns: one copy of the whole valid block, after which the columns that fell
// outside the image (|offset| of them per row, whatever the copy put there from the
// neighbouring row) are zeroed. Row by row it was a copy of out_w elements and two fills per
// output row: for a 32-wide image, three calls per 128 bytes.
template <typename scalar_t>
void im2col_row_same_width(const scalar_t* plane, scalar_t* row, const Im2ColGeometry& g, int64_t y_shift,
                           int64_t offset, ValidRange xs) {
  const int64_t W = g.width;
  // Output rows oy whose input row oy + y_shift lies inside [0, height).
  const int64_t oy0 = std::clamp<int64_t>(-y_shift, 0, g.out_h);
  const int64_t oy1 = std::clamp<int64_t>(g.height - y_shift, oy0, g.out_h);
  std::fill(row, row + oy0 * W, scalar_t(0));
  std::fill(row + oy1 * W, row + g.out_h * W, scalar_t(0));
  if (oy1 == oy0) {
    return;
  }
  if (xs.begin >= xs.end) {
    std::fill(row + oy0 * W, row + oy1 * W, scalar_t(0));
    return;
  }
  // Output positions [first, last) counted from row oy0 read input (oy0 + y_shift) * W + offset
  // + k: the first and last are inside the plane, and so is everything between them.
  const int64_t first = oy0 * W + xs.begin, last = (oy1 - 1) * W + xs.end;
  const scalar_t* src = plane + ((oy0 + y_shift) * W + xs.begin + offset);
  std::copy(src, src + (last - first), row + first);
  for (int64_t oy = oy0; oy < oy1; oy++) {
    std::fill(row + oy * W, row + oy * W + xs.begin, scalar_t(0));
    std::fill(row + oy * W + xs.end, row + (oy + 1) * W, scalar_t(0));
  }
}
// [end marker: im2col_row_same_width]

// [marker: im2col_one]
// One (C, H, W) image -> its (C*kH*kW, outH*outW) columns, rows `ld` elements apart (L, the
// row length, by default); only channels [c_begin, c_end) when given (all by default), so
// threads can share one image.
template <typename scalar_t>
void im2col_one(const scalar_t* im, scalar_t* col, const Im2ColGeometry& g, int64_t c_begin = 0, int64_t c_end = -1,
                int64_t ld = 0) {
  const int64_t row_stride = ld > 0 ? ld : g.out_h * g.out_w;
  if (c_end < 0) c_end = g.channels;
  for (int64_t c = c_begin; c < c_end; c++) {
    for (int64_t i = 0; i < g.kh; i++) {
      for (int64_t j = 0; j < g.kw; j++) {
        scalar_t* row = col + ((c * g.kh + i) * g.kw + j) * row_stride;
        const int64_t offset = j * g.dw - g.pw;
        const ValidRange xs = valid_columns(offset, g.sw, g.width, g.out_w);
        if (g.sw == 1 && g.sh == 1 && g.out_w == g.width) {
          im2col_row_same_width(im + c * g.height * g.width, row, g, i * g.dh - g.ph, offset, xs);
          continue;
        }
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
void col2im_one(const scalar_t* col, scalar_t* im, const Im2ColGeometry& g, int64_t c_begin = 0, int64_t c_end = -1,
                int64_t ld = 0) {
  const int64_t row_stride = ld > 0 ? ld : g.out_h * g.out_w;
  if (c_end < 0) c_end = g.channels;
  for (int64_t c = c_begin; c < c_end; c++) {
    for (int64_t i = 0; i < g.kh; i++) {
      for (int64_t j = 0; j < g.kw; j++) {
        const scalar_t* row = col + ((c * g.kh + i) * g.kw + j) * row_stride;
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
