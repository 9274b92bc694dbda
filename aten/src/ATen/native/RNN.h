// aten/src/ATen/native/RNN.h - the fused LSTM cell's stubs (the CPU loops are in
// cpu/RNNKernel.cpp) and its argument checks, shared with the CUDA kernel (cuda/RNN.cu).
// Mirrors PyTorch's aten/src/ATen/native/RNN.h.
// Guide: docs/source/internals/performance.rst.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/native/DispatchStub.h>
#include <c10/util/Exception.h>

#include <tuple>

namespace at::native {

// Contiguous operands: gates (N, 4H), biases (4H) (zeros when a bias is absent), cx, hy, cy
// (N, H), workspace (N, 4H) for the activated gates.
using fused_lstm_cell_fn = void (*)(const Tensor& input_gates, const Tensor& hidden_gates, const Tensor& cx,
                                    const Tensor& input_bias, const Tensor& hidden_bias, Tensor& hy, Tensor& cy,
                                    Tensor& workspace);
DECLARE_DISPATCH(fused_lstm_cell_fn, fused_lstm_cell_stub);
// grad_hy and grad_cy may be undefined (no gradient reached them), not both.
using fused_lstm_cell_backward_fn = void (*)(const Tensor& grad_hy, const Tensor& grad_cy, const Tensor& cx,
                                             const Tensor& cy, const Tensor& workspace, Tensor& grad_gates,
                                             Tensor& grad_cx);
DECLARE_DISPATCH(fused_lstm_cell_backward_fn, fused_lstm_cell_backward_stub);

// The operators' bodies for any device (RNN.cpp): the checks, contiguous operands, the outputs,
// then the device's kernel through the stubs above. _thnn_fused_lstm_cell_{cpu,cuda} and
// _thnn_fused_lstm_cell_backward_impl_{cpu,cuda} are these.
TORCH_API std::tuple<Tensor, Tensor, Tensor> fused_lstm_cell(const Tensor& input_gates, const Tensor& hidden_gates,
                                                             const Tensor& cx, const Tensor& input_bias,
                                                             const Tensor& hidden_bias);
TORCH_API std::tuple<Tensor, Tensor, Tensor> fused_lstm_cell_backward(const Tensor& grad_hy, const Tensor& grad_cy,
                                                                      const Tensor& cx, const Tensor& cy,
                                                                      const Tensor& workspace, bool has_bias);

inline void check_lstm_cell_shapes(const Tensor& input_gates, const Tensor& hidden_gates, const Tensor& cx,
                                   const Tensor& input_bias, const Tensor& hidden_bias) {
  TORCH_CHECK(input_gates.dim() == 2, "_thnn_fused_lstm_cell: expected 2-d input_gates, got ", input_gates.dim(),
              "-d");
  TORCH_CHECK(input_gates.sizes() == hidden_gates.sizes(), "_thnn_fused_lstm_cell: input_gates of shape ",
              input_gates.sizes(), " and hidden_gates of shape ", hidden_gates.sizes(), " differ");
  const int64_t n = input_gates.size(0), gates = input_gates.size(1);
  TORCH_CHECK(gates % 4 == 0, "_thnn_fused_lstm_cell: the gates' width ", gates, " is not a multiple of 4");
  TORCH_CHECK(cx.dim() == 2 && cx.size(0) == n && cx.size(1) == gates / 4, "_thnn_fused_lstm_cell: cx of shape ",
              cx.sizes(), " does not match gates of shape ", input_gates.sizes());
  for (const Tensor* b : {&input_bias, &hidden_bias}) {
    TORCH_CHECK(!b->defined() || (b->dim() == 1 && b->size(0) == gates), "_thnn_fused_lstm_cell: a bias of shape ",
                b->sizes(), " does not match ", gates, " gates");
  }
  for (const Tensor* t : {&hidden_gates, &cx, &input_bias, &hidden_bias}) {
    TORCH_CHECK(!t->defined() || t->scalar_type() == input_gates.scalar_type(),
                "_thnn_fused_lstm_cell: expected all tensors to have dtype ", input_gates.scalar_type(), ", got ",
                t->scalar_type());
  }
}

}  // namespace at::native
