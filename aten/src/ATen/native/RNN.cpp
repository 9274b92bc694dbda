// aten/src/ATen/native/RNN.cpp - the fused LSTM cell: one pass for the elementwise part of a
// step, and its backward. Mirrors PyTorch's aten/src/ATen/native/RNN.cpp (the differentiable
// backward) and cuda/RNN.cu (the fused kernels, there CUDA-only; cuda/RNN.cu here too).
// Guide: docs/source/internals/performance.rst ("The LSTM step").
//
// With gates = input_gates + hidden_gates (+ biases), in chunks i, f, g, o of width H:
//     i = sigmoid(i), f = sigmoid(f), g = tanh(g), o = sigmoid(o)
//     cy = f * cx + i * g,   hy = o * tanh(cy)
// Written as tensor operations that is eleven operators and as many autograd nodes per step,
// each reading and writing (N, H) tensors; fused it is one kernel forward and one backward.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/OpMathType.h>
#include <ATen/Parallel.h>
#include <ATen/TensorOperators.h>
#include <ATen/native/RNN.h>

#include <cmath>
#include <tuple>

namespace at::native {

DEFINE_DISPATCH(fused_lstm_cell_stub);
DEFINE_DISPATCH(fused_lstm_cell_backward_stub);

// The checks and the outputs here; the loop, one pass over the gates, in cpu/RNNKernel.cpp
// (cuda/RNN.cu for CUDA tensors).
std::tuple<Tensor, Tensor, Tensor> fused_lstm_cell(const Tensor& input_gates_, const Tensor& hidden_gates_,
                                                   const Tensor& cx_, const Tensor& input_bias,
                                                   const Tensor& hidden_bias) {
  check_lstm_cell_shapes(input_gates_, hidden_gates_, cx_, input_bias, hidden_bias);
  const Tensor input_gates = input_gates_.contiguous(), hidden_gates = hidden_gates_.contiguous();
  const Tensor cx = cx_.contiguous();
  const int64_t H = input_gates.size(1) / 4;
  Tensor workspace = at::empty_like(input_gates);  // the activated gates i, f, g, o
  Tensor hy = at::empty_like(cx), cy = at::empty_like(cx);
  if (cx.numel() == 0) {
    return std::make_tuple(hy, cy, workspace);
  }
  // An absent bias is a row of zeros, so the kernel's loop has no branch to keep it scalar.
  const Tensor zeros =
      input_bias.defined() && hidden_bias.defined() ? Tensor() : at::zeros({4 * H}, input_gates.options());
  fused_lstm_cell_stub(input_gates.device().type(), input_gates, hidden_gates, cx,
                       input_bias.defined() ? input_bias.contiguous() : zeros,
                       hidden_bias.defined() ? hidden_bias.contiguous() : zeros, hy, cy, workspace);
  return std::make_tuple(hy, cy, workspace);
}

std::tuple<Tensor, Tensor, Tensor> _thnn_fused_lstm_cell_cpu(const Tensor& input_gates, const Tensor& hidden_gates,
                                                             const Tensor& cx,
                                                             const std::optional<Tensor>& input_bias,
                                                             const std::optional<Tensor>& hidden_bias) {
  return fused_lstm_cell(input_gates, hidden_gates, cx, input_bias.has_value() ? *input_bias : Tensor(),
                         hidden_bias.has_value() ? *hidden_bias : Tensor());
}

// A missing gradient (the state's c was not used later, say) counts as zeros, passed to the
// kernel as such, which keeps its loop free of branches.
std::tuple<Tensor, Tensor, Tensor> fused_lstm_cell_backward(const Tensor& grad_hy_, const Tensor& grad_cy_,
                                                            const Tensor& cx_, const Tensor& cy_,
                                                            const Tensor& workspace_, bool has_bias) {
  if (!grad_hy_.defined() && !grad_cy_.defined()) {
    return std::make_tuple(Tensor(), Tensor(), Tensor());
  }
  const Tensor cx = cx_.contiguous(), cy = cy_.contiguous(), workspace = workspace_.contiguous();
  const int64_t n = cx.size(0), H = cx.size(1);
  TORCH_CHECK(workspace.dim() == 2 && workspace.size(0) == n && workspace.size(1) == 4 * H,
              "_thnn_fused_lstm_cell_backward: workspace of shape ", workspace.sizes(), " does not match cx of shape ",
              cx.sizes());
  for (const Tensor* g : {&grad_hy_, &grad_cy_}) {
    TORCH_CHECK(!g->defined() || g->sizes() == cx.sizes(), "_thnn_fused_lstm_cell_backward: a gradient of shape ",
                g->sizes(), " does not match cx of shape ", cx.sizes());
  }
  const Tensor grad_hy = grad_hy_.defined() ? grad_hy_.contiguous() : at::zeros_like(cx);
  const Tensor grad_cy = grad_cy_.defined() ? grad_cy_.contiguous() : at::zeros_like(cx);
  Tensor grad_gates = at::empty_like(workspace);
  Tensor grad_cx = at::empty_like(cx);
  if (cx.numel() > 0) {
    fused_lstm_cell_backward_stub(cx.device().type(), grad_hy, grad_cy, cx, cy, workspace, grad_gates, grad_cx);
  }
  Tensor grad_bias = has_bias ? grad_gates.sum(IntArrayRef{0}) : Tensor();
  return std::make_tuple(grad_gates, grad_cx, grad_bias);
}

std::tuple<Tensor, Tensor, Tensor> _thnn_fused_lstm_cell_backward_impl_cpu(const std::optional<Tensor>& grad_hy,
                                                                           const std::optional<Tensor>& grad_cy,
                                                                           const Tensor& cx, const Tensor& cy,
                                                                           const Tensor& workspace, bool has_bias) {
  return fused_lstm_cell_backward(grad_hy.has_value() ? *grad_hy : Tensor(), grad_cy.has_value() ? *grad_cy : Tensor(),
                                  cx, cy, workspace, has_bias);
}

// The gradients of input_gates, hidden_gates, cx, input_bias, hidden_bias: the two gate
// inputs were summed, so they share one gradient, and so do the biases.
std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> _thnn_fused_lstm_cell_backward(
    const std::optional<Tensor>& grad_hy, const std::optional<Tensor>& grad_cy, const Tensor& cx, const Tensor& cy,
    const Tensor& workspace, bool has_bias) {
  auto [grad_gates, grad_cx, grad_bias] =
      at::_thnn_fused_lstm_cell_backward_impl(grad_hy, grad_cy, cx, cy, workspace, has_bias);
  return std::make_tuple(grad_gates, grad_gates, grad_cx, grad_bias, grad_bias);
}

// The same backward in differentiable operators (recomputing the activations from the gates),
// used when the backward itself is recorded (create_graph=True).
std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor> _thnn_differentiable_lstm_cell_backward(
    const std::optional<Tensor>& grad_hy_opt, const std::optional<Tensor>& grad_cy_opt, const Tensor& input_gates,
    const Tensor& hidden_gates, const std::optional<Tensor>& input_bias_opt,
    const std::optional<Tensor>& hidden_bias_opt, const Tensor& cx, const Tensor& cy) {
  const Tensor grad_hy = grad_hy_opt.has_value() ? *grad_hy_opt : Tensor();
  const Tensor grad_cy = grad_cy_opt.has_value() ? *grad_cy_opt : Tensor();
  if (!grad_hy.defined() && !grad_cy.defined()) {
    return std::make_tuple(Tensor(), Tensor(), Tensor(), Tensor(), Tensor());
  }
  const Tensor input_bias = input_bias_opt.has_value() ? *input_bias_opt : Tensor();
  const Tensor hidden_bias = hidden_bias_opt.has_value() ? *hidden_bias_opt : Tensor();
  Tensor gates = input_gates + hidden_gates;
  if (input_bias.defined()) gates = gates + input_bias;
  if (hidden_bias.defined()) gates = gates + hidden_bias;
  const auto chunks = gates.chunk(4, 1);
  const Tensor i = chunks[0].sigmoid(), f = chunks[1].sigmoid(), g = chunks[2].tanh(), o = chunks[3].sigmoid();
  const Tensor t = cy.tanh();
  Tensor d_cy, d_o;
  if (grad_hy.defined()) {
    d_o = at::sigmoid_backward(grad_hy * t, o);
    d_cy = at::tanh_backward(grad_hy * o, t);
    if (grad_cy.defined()) d_cy = d_cy + grad_cy;
  } else {
    d_o = at::zeros_like(o);
    d_cy = grad_cy;
  }
  const Tensor d_i = at::sigmoid_backward(d_cy * g, i);
  const Tensor d_f = at::sigmoid_backward(d_cy * cx, f);
  const Tensor d_g = at::tanh_backward(d_cy * i, g);
  const Tensor grad_gates = at::cat({d_i, d_f, d_g, d_o}, 1);
  const Tensor grad_bias = input_bias.defined() ? grad_gates.sum(IntArrayRef{0}) : Tensor();
  return std::make_tuple(grad_gates, grad_gates, d_cy * f, grad_bias, grad_bias);
}

}  // namespace at::native
