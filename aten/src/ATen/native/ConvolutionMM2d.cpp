// aten/src/ATen/native/ConvolutionMM2d.cpp - convolution as im2col + one matrix product (GEMM).
// Mirrors PyTorch's aten/src/ATen/native/ConvolutionMM2d.cpp (slow_conv2d_forward / _backward).
// Guide: docs/source/internals/python_layer.rst.
//
// With columns = im2col(input), shape (N, C_in*kH*kW, L) where L = outH*outW, and the weight
// seen as a matrix (C_out, C_in*kH*kW), the convolution is
//     output[n] = weight @ columns[n] + bias          (N, C_out, L), then viewed (N, C_out, outH, outW)
// and its gradients are three more products:
//     grad_columns[n] = weight^T @ grad_output[n]     -> col2im -> grad_input
//     grad_weight     = sum_n grad_output[n] @ columns[n]^T
//     grad_bias       = grad_output summed over n and every position
// With groups > 1 the channels split into `groups` independent convolutions: the matrices
// gain a group dimension and the products are batched (matmul over (N, groups, ...)).
//
// On the CPU (float and double) the same products run one image at a time, as PyTorch's
// slow_conv2d_forward_out_cpu_frame does: the image's columns (C_in*kH*kW x L, about a
// megabyte for a 32-channel 32x32 image) are written to one buffer that stays in cache for
// the matrix product that reads them right after, the product writes straight into the
// output (bias first, then C += W @ columns), and the weight gradient accumulates image by
// image into one matrix, with no (N, ...) intermediate to sum afterwards.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/Parallel.h>
#include <ATen/native/CPUBlas.h>
#include <ATen/native/ConvUtils.h>
#include <ATen/native/im2col.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace at::native {

namespace {

bool use_cpu_frames(const Tensor& input, const Tensor& weight) {
  return input.is_cpu() && weight.is_cpu() && (input.scalar_type() == kFloat || input.scalar_type() == kDouble) &&
         weight.scalar_type() == input.scalar_type();
}

// Work items of at least GRAIN_SIZE elements, so a small image does not pay for a parallel region.
int64_t channel_grain(const Im2ColGeometry& g) {
  return std::max<int64_t>(1, at::internal::GRAIN_SIZE / std::max<int64_t>(1, g.kh * g.kw * g.out_h * g.out_w));
}

template <typename T>
cpublas::StridedMatrix<T> matrix(T* data, int64_t row_stride, int64_t col_stride) {
  return {data, row_stride, col_stride};
}

// [marker: slow_conv2d_forward_cpu_frame]
template <typename scalar_t>
void conv2d_forward_frames(const Tensor& input, const Tensor& weight, const Tensor& bias, Tensor& output,
                           const Im2ColGeometry& g, int64_t groups) {
  const int64_t n = input.size(0), c_out = weight.size(0), c_out_g = c_out / groups;
  const int64_t L = g.out_h * g.out_w, K = (g.channels / groups) * g.kh * g.kw;
  const scalar_t* in = input.const_data_ptr<scalar_t>();
  const scalar_t* w = weight.const_data_ptr<scalar_t>();
  const scalar_t* b = bias.defined() ? bias.const_data_ptr<scalar_t>() : nullptr;
  scalar_t* out = output.mutable_data_ptr<scalar_t>();
  // The columns' rows are `ld` apart, padded when L is a multiple of 4 KiB (columns_row_stride).
  const int64_t ld = columns_row_stride<scalar_t>(L);
  // One image: its columns into `columns`, the bias into its output, then the product.
  auto frame = [&](int64_t i, scalar_t* columns, bool parallel_im2col) {
    const scalar_t* image = in + i * g.channels * g.height * g.width;
    if (parallel_im2col) {
      at::parallel_for(0, g.channels, channel_grain(g), [&](int64_t begin, int64_t end) {
        im2col_one(image, columns, g, begin, end, ld);
      });
    } else {
      im2col_one(image, columns, g, 0, -1, ld);
    }
    scalar_t* out_i = out + i * c_out * L;
    if (b != nullptr) {
      for (int64_t c = 0; c < c_out; c++) std::fill_n(out_i + c * L, L, b[c]);
    }
    for (int64_t grp = 0; grp < groups; grp++) {
      cpublas::gemm<scalar_t>(c_out_g, L, K, 1, matrix(w + grp * c_out_g * K, K, 1),
                              matrix<const scalar_t>(columns + grp * K * ld, ld, 1), b != nullptr ? 1 : 0,
                              matrix(out_i + grp * c_out_g * L, L, 1));
    }
  };
  const size_t columns_size = static_cast<size_t>(groups * K * ld);
  if (n > 1 && at::get_num_threads() > 1 && cpublas::gemm_in_parallel_region_ok(c10::CppTypeToScalarType<scalar_t>::value)) {
    // Threads take whole images, each with its own columns, as PyTorch's slow_conv2d_forward_out_cpu
    // does: one thread's product of a small image is more efficient than half of it on each.
    at::parallel_for(0, n, 1, [&](int64_t begin, int64_t end) {
      std::unique_ptr<scalar_t[]> columns(new scalar_t[columns_size]);  // not zeroed: im2col writes it all
      for (int64_t i = begin; i < end; i++) frame(i, columns.get(), false);
    });
    return;
  }
  // Otherwise the images go one after another, threads sharing each image's im2col, and the
  // product is called outside any parallel region (where BLAS may run its own threads).
  std::unique_ptr<scalar_t[]> columns(new scalar_t[columns_size]);
  for (int64_t i = 0; i < n; i++) frame(i, columns.get(), true);
}
// [end marker: slow_conv2d_forward_cpu_frame]

template <typename scalar_t>
void conv2d_backward_frames(const Tensor& grad_output, const Tensor& input, const Tensor& weight, Tensor& grad_input,
                            Tensor& grad_weight, const Im2ColGeometry& g, int64_t groups) {
  const int64_t n = input.size(0), c_out = weight.size(0), c_out_g = c_out / groups;
  const int64_t L = g.out_h * g.out_w, K = (g.channels / groups) * g.kh * g.kw;
  const int64_t image_size = g.channels * g.height * g.width;
  const scalar_t* go = grad_output.const_data_ptr<scalar_t>();
  const scalar_t* w = weight.const_data_ptr<scalar_t>();
  const int64_t ld = columns_row_stride<scalar_t>(L);
  std::vector<scalar_t> columns(static_cast<size_t>(groups * K * ld));
  for (int64_t i = 0; i < n; i++) {
    const scalar_t* go_i = go + i * c_out * L;
    if (grad_input.defined()) {
      // columns = W^T @ grad_output[i] (W^T read in place: row stride 1, column stride K), then
      // col2im adds each column back to where its patch came from.
      for (int64_t grp = 0; grp < groups; grp++) {
        cpublas::gemm<scalar_t>(K, L, c_out_g, 1, matrix(w + grp * c_out_g * K, 1, K),
                                matrix(go_i + grp * c_out_g * L, L, 1), 0,
                                matrix(columns.data() + grp * K * ld, ld, 1));
      }
      scalar_t* gi_i = grad_input.mutable_data_ptr<scalar_t>() + i * image_size;
      at::parallel_for(0, g.channels, channel_grain(g), [&](int64_t begin, int64_t end) {
        col2im_one(columns.data(), gi_i, g, begin, end, ld);
      });
    }
    if (grad_weight.defined()) {
      // grad_W += grad_output[i] @ columns(input[i])^T (columns^T read in place).
      const scalar_t* image = input.const_data_ptr<scalar_t>() + i * image_size;
      at::parallel_for(0, g.channels, channel_grain(g), [&](int64_t begin, int64_t end) {
        im2col_one(image, columns.data(), g, begin, end, ld);
      });
      for (int64_t grp = 0; grp < groups; grp++) {
        cpublas::gemm<scalar_t>(c_out_g, K, L, 1, matrix(go_i + grp * c_out_g * L, L, 1),
                                matrix<const scalar_t>(columns.data() + grp * K * ld, 1, ld), i == 0 ? 0 : 1,
                                matrix(grad_weight.mutable_data_ptr<scalar_t>() + grp * c_out_g * K, K, 1));
      }
    }
  }
}

}  // namespace

// [marker: slow_conv2d_forward]
Tensor slow_conv2d_forward(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                           IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const int64_t n = input.size(0), c_out = weight.size(0);
  const int64_t kh = weight.size(2), kw = weight.size(3);
  if (use_cpu_frames(input, weight) && n > 0) {
    // (Checked here: a contiguous() call on a contiguous tensor would still be an operator call.)
    const Tensor in = input.is_contiguous() ? input : input.contiguous();
    const Tensor w = weight.is_contiguous() ? weight : weight.contiguous();
    const Tensor b = !bias.defined() || bias.is_contiguous() ? bias : bias.contiguous();
    const Im2ColGeometry g = im2col_geometry(in, {kh, kw}, dilation, padding, stride);
    Tensor output = at::empty({n, c_out, g.out_h, g.out_w}, in.options());
    AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "slow_conv2d_cpu", [&] {
      conv2d_forward_frames<scalar_t>(in, w, b, output, g, groups);
    });
    return output;
  }
  Tensor columns = at::im2col(input, {kh, kw}, dilation, padding, stride);  // (N, C_in*kH*kW, L)
  const int64_t out_h = (input.size(2) + 2 * padding[0] - dilation[0] * (kh - 1) - 1) / stride[0] + 1;
  const int64_t out_w = (input.size(3) + 2 * padding[1] - dilation[1] * (kw - 1) - 1) / stride[1] + 1;
  const int64_t L = columns.size(2);
  // (1, g, C_out/g, K) @ (N, g, K, L) -> (N, g, C_out/g, L), K = C_in/g * kH * kW
  Tensor w = weight.reshape({1, groups, c_out / groups, -1});
  Tensor cols = columns.view({n, groups, -1, L});
  Tensor output = at::matmul(w, cols).reshape({n, c_out, out_h, out_w});
  if (bias.defined()) {
    output.add_(bias.reshape({1, c_out, 1, 1}));
  }
  return output;
}
// [end marker: slow_conv2d_forward]

std::tuple<Tensor, Tensor, Tensor> slow_conv2d_backward(const Tensor& grad_output, const Tensor& input,
                                                        const Tensor& weight, IntArrayRef stride, IntArrayRef padding,
                                                        IntArrayRef dilation, int64_t groups,
                                                        std::array<bool, 3> output_mask) {
  const int64_t n = input.size(0), c_out = weight.size(0);
  const int64_t kh = weight.size(2), kw = weight.size(3);
  const int64_t L = grad_output.size(2) * grad_output.size(3);
  if (use_cpu_frames(input, weight) && grad_output.scalar_type() == input.scalar_type() && n > 0) {
    const Tensor in = input.contiguous(), w = weight.contiguous(), go = grad_output.contiguous();
    const Im2ColGeometry g = im2col_geometry(in, {kh, kw}, dilation, padding, stride);
    Tensor grad_input = output_mask[0] ? at::zeros(in.sizes(), in.options()) : Tensor();
    Tensor grad_weight = output_mask[1] ? at::empty(w.sizes(), w.options()) : Tensor();
    AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "slow_conv2d_backward_cpu", [&] {
      conv2d_backward_frames<scalar_t>(go, in, w, grad_input, grad_weight, g, groups);
    });
    Tensor grad_bias = output_mask[2] ? grad_output.sum(IntArrayRef{0, 2, 3}) : Tensor();
    return std::make_tuple(grad_input, grad_weight, grad_bias);
  }
  Tensor go = grad_output.reshape({n, groups, c_out / groups, L});  // (N, g, C_out/g, L)
  Tensor grad_input, grad_weight, grad_bias;
  if (output_mask[0]) {
    // (1, g, K, C_out/g) @ (N, g, C_out/g, L) -> (N, g, K, L) -> col2im
    Tensor wt = weight.reshape({1, groups, c_out / groups, -1}).transpose(-1, -2);
    Tensor grad_columns = at::matmul(wt, go).reshape({n, -1, L});
    grad_input = at::col2im(grad_columns, {input.size(2), input.size(3)}, {kh, kw}, dilation, padding, stride);
  }
  if (output_mask[1]) {
    // sum over n of (N, g, C_out/g, L) @ (N, g, L, K) -> (g, C_out/g, K)
    Tensor columns = at::im2col(input, {kh, kw}, dilation, padding, stride).view({n, groups, -1, L});
    grad_weight = at::matmul(go, columns.transpose(-1, -2)).sum(IntArrayRef{0}).reshape(weight.sizes());
  }
  if (output_mask[2]) {
    grad_bias = grad_output.sum(IntArrayRef{0, 2, 3});
  }
  return std::make_tuple(grad_input, grad_weight, grad_bias);
}

}  // namespace at::native
