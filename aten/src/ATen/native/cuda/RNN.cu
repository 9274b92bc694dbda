// aten/src/ATen/native/cuda/RNN.cu - the fused LSTM cell on CUDA tensors: one thread per (row,
// hidden unit) computes the four gates, the new cell and hidden state, and the backward from
// the saved activations. Mirrors PyTorch's aten/src/ATen/native/cuda/RNN.cu (lstm_forward /
// lstm_backward); the formulas are those of this tree's RNN.cpp.
// Guide: docs/source/internals/performance.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/OpMathType.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/detail/KernelUtils.h>
#include <ATen/native/RNN.h>
#include <c10/cuda/CUDAGuard.h>

#include <cmath>

namespace at::native {
namespace {

template <typename acc_t>
__device__ __forceinline__ acc_t sigmoid(acc_t x) {
  return acc_t(1) / (acc_t(1) + std::exp(-x));
}

template <typename scalar_t, typename acc_t>
__global__ void lstm_cell_forward(const scalar_t* __restrict__ ig, const scalar_t* __restrict__ hg,
                                  const scalar_t* __restrict__ b1, const scalar_t* __restrict__ b2,
                                  const scalar_t* __restrict__ c0, scalar_t* __restrict__ ws, scalar_t* __restrict__ h1,
                                  scalar_t* __restrict__ c1, int64_t n, int64_t H) {
  CUDA_KERNEL_LOOP_TYPE(e, n * H, int64_t) {
    const int64_t row = e / H, j = e % H, g0 = row * 4 * H;
    acc_t v[4];
    for (int k = 0; k < 4; k++) {
      const int64_t idx = k * H + j;
      v[k] = static_cast<acc_t>(ig[g0 + idx]) + static_cast<acc_t>(hg[g0 + idx]);
      if (b1 != nullptr) v[k] += static_cast<acc_t>(b1[idx]);
      if (b2 != nullptr) v[k] += static_cast<acc_t>(b2[idx]);
    }
    const acc_t i = sigmoid(v[0]), f = sigmoid(v[1]), g = std::tanh(v[2]), o = sigmoid(v[3]);
    const acc_t c = f * static_cast<acc_t>(c0[e]) + i * g;
    ws[g0 + j] = static_cast<scalar_t>(i);
    ws[g0 + H + j] = static_cast<scalar_t>(f);
    ws[g0 + 2 * H + j] = static_cast<scalar_t>(g);
    ws[g0 + 3 * H + j] = static_cast<scalar_t>(o);
    c1[e] = static_cast<scalar_t>(c);
    h1[e] = static_cast<scalar_t>(o * std::tanh(c));
  }
}

template <typename scalar_t, typename acc_t>
__global__ void lstm_cell_backward(const scalar_t* __restrict__ dh, const scalar_t* __restrict__ dc,
                                   const scalar_t* __restrict__ c0, const scalar_t* __restrict__ c1,
                                   const scalar_t* __restrict__ ws, scalar_t* __restrict__ gg,
                                   scalar_t* __restrict__ gcx, int64_t n, int64_t H) {
  CUDA_KERNEL_LOOP_TYPE(e, n * H, int64_t) {
    const int64_t row = e / H, j = e % H, g0 = row * 4 * H;
    const acc_t i = ws[g0 + j], f = ws[g0 + H + j], g = ws[g0 + 2 * H + j], o = ws[g0 + 3 * H + j];
    const acc_t t = std::tanh(static_cast<acc_t>(c1[e]));
    const acc_t d_hy = dh != nullptr ? static_cast<acc_t>(dh[e]) : acc_t(0);
    acc_t d_cy = d_hy * o * (acc_t(1) - t * t);
    if (dc != nullptr) d_cy += static_cast<acc_t>(dc[e]);
    gg[g0 + j] = static_cast<scalar_t>(d_cy * g * i * (acc_t(1) - i));
    gg[g0 + H + j] = static_cast<scalar_t>(d_cy * static_cast<acc_t>(c0[e]) * f * (acc_t(1) - f));
    gg[g0 + 2 * H + j] = static_cast<scalar_t>(d_cy * i * (acc_t(1) - g * g));
    gg[g0 + 3 * H + j] = static_cast<scalar_t>(d_hy * t * o * (acc_t(1) - o));
    gcx[e] = static_cast<scalar_t>(d_cy * f);
  }
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> _thnn_fused_lstm_cell_cuda(const Tensor& input_gates_, const Tensor& hidden_gates_,
                                                              const Tensor& cx_,
                                                              const std::optional<Tensor>& input_bias_opt,
                                                              const std::optional<Tensor>& hidden_bias_opt) {
  const Tensor input_bias = input_bias_opt.has_value() ? *input_bias_opt : Tensor();
  const Tensor hidden_bias = hidden_bias_opt.has_value() ? *hidden_bias_opt : Tensor();
  check_lstm_cell_shapes(input_gates_, hidden_gates_, cx_, input_bias, hidden_bias);
  c10::cuda::CUDAGuard guard(input_gates_.device());
  const Tensor input_gates = input_gates_.contiguous(), hidden_gates = hidden_gates_.contiguous();
  const Tensor cx = cx_.contiguous();
  const Tensor b_in = input_bias.defined() ? input_bias.contiguous() : input_bias;
  const Tensor b_hid = hidden_bias.defined() ? hidden_bias.contiguous() : hidden_bias;
  const int64_t n = input_gates.size(0), H = input_gates.size(1) / 4;
  Tensor workspace = at::empty_like(input_gates);
  Tensor hy = at::empty_like(cx), cy = at::empty_like(cx);
  if (n * H == 0) {
    return std::make_tuple(hy, cy, workspace);
  }
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input_gates.scalar_type(), "_thnn_fused_lstm_cell_cuda", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    const int64_t blocks = at::cuda::detail::GET_BLOCKS(n * H, 256);
    lstm_cell_forward<scalar_t, acc_t><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
        input_gates.const_data_ptr<scalar_t>(), hidden_gates.const_data_ptr<scalar_t>(),
        b_in.defined() ? b_in.const_data_ptr<scalar_t>() : nullptr,
        b_hid.defined() ? b_hid.const_data_ptr<scalar_t>() : nullptr, cx.const_data_ptr<scalar_t>(),
        workspace.mutable_data_ptr<scalar_t>(), hy.mutable_data_ptr<scalar_t>(), cy.mutable_data_ptr<scalar_t>(), n, H);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
  return std::make_tuple(hy, cy, workspace);
}

std::tuple<Tensor, Tensor, Tensor> _thnn_fused_lstm_cell_backward_impl_cuda(
    const std::optional<Tensor>& grad_hy_opt, const std::optional<Tensor>& grad_cy_opt, const Tensor& cx_,
    const Tensor& cy_, const Tensor& workspace_, bool has_bias) {
  const Tensor grad_hy = grad_hy_opt.has_value() && grad_hy_opt->defined() ? grad_hy_opt->contiguous() : Tensor();
  const Tensor grad_cy = grad_cy_opt.has_value() && grad_cy_opt->defined() ? grad_cy_opt->contiguous() : Tensor();
  if (!grad_hy.defined() && !grad_cy.defined()) {
    return std::make_tuple(Tensor(), Tensor(), Tensor());
  }
  c10::cuda::CUDAGuard guard(cx_.device());
  const Tensor cx = cx_.contiguous(), cy = cy_.contiguous(), workspace = workspace_.contiguous();
  const int64_t n = cx.size(0), H = cx.size(1);
  TORCH_CHECK(workspace.dim() == 2 && workspace.size(0) == n && workspace.size(1) == 4 * H,
              "_thnn_fused_lstm_cell_backward: workspace of shape ", workspace.sizes(), " does not match cx of shape ",
              cx.sizes());
  Tensor grad_gates = at::empty_like(workspace);
  Tensor grad_cx = at::empty_like(cx);
  if (n * H > 0) {
    const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, workspace.scalar_type(), "_thnn_fused_lstm_cell_backward_cuda",
                                    [&] {
      using acc_t = at::opmath_type<scalar_t>;
      const int64_t blocks = at::cuda::detail::GET_BLOCKS(n * H, 256);
      lstm_cell_backward<scalar_t, acc_t><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
          grad_hy.defined() ? grad_hy.const_data_ptr<scalar_t>() : nullptr,
          grad_cy.defined() ? grad_cy.const_data_ptr<scalar_t>() : nullptr, cx.const_data_ptr<scalar_t>(),
          cy.const_data_ptr<scalar_t>(), workspace.const_data_ptr<scalar_t>(), grad_gates.mutable_data_ptr<scalar_t>(),
          grad_cx.mutable_data_ptr<scalar_t>(), n, H);
      C10_CUDA_KERNEL_LAUNCH_CHECK();
    });
  }
  Tensor grad_bias = has_bias ? grad_gates.sum(IntArrayRef{0}) : Tensor();
  return std::make_tuple(grad_gates, grad_cx, grad_bias);
}

}  // namespace at::native
