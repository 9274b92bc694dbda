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
      v[k] = static_cast<acc_t>(ig[g0 + idx]) + static_cast<acc_t>(hg[g0 + idx]) + static_cast<acc_t>(b1[idx]) +
             static_cast<acc_t>(b2[idx]);
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
    const acc_t d_hy = dh[e];
    const acc_t d_cy = d_hy * o * (acc_t(1) - t * t) + static_cast<acc_t>(dc[e]);
    gg[g0 + j] = static_cast<scalar_t>(d_cy * g * i * (acc_t(1) - i));
    gg[g0 + H + j] = static_cast<scalar_t>(d_cy * static_cast<acc_t>(c0[e]) * f * (acc_t(1) - f));
    gg[g0 + 2 * H + j] = static_cast<scalar_t>(d_cy * i * (acc_t(1) - g * g));
    gg[g0 + 3 * H + j] = static_cast<scalar_t>(d_hy * t * o * (acc_t(1) - o));
    gcx[e] = static_cast<scalar_t>(d_cy * f);
  }
}

// The stubs' CUDA kernels: operands contiguous and non-empty, a missing bias or gradient
// passed as zeros (RNN.cpp's fused_lstm_cell and fused_lstm_cell_backward).
void fused_lstm_cell_kernel_cuda(const Tensor& input_gates, const Tensor& hidden_gates, const Tensor& cx,
                                 const Tensor& input_bias, const Tensor& hidden_bias, Tensor& hy, Tensor& cy,
                                 Tensor& workspace) {
  c10::cuda::CUDAGuard guard(input_gates.device());
  const int64_t n = cx.size(0), H = cx.size(1);
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input_gates.scalar_type(), "_thnn_fused_lstm_cell_cuda", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    const int64_t blocks = at::cuda::detail::GET_BLOCKS(n * H, 256);
    lstm_cell_forward<scalar_t, acc_t><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
        input_gates.const_data_ptr<scalar_t>(), hidden_gates.const_data_ptr<scalar_t>(),
        input_bias.const_data_ptr<scalar_t>(), hidden_bias.const_data_ptr<scalar_t>(), cx.const_data_ptr<scalar_t>(),
        workspace.mutable_data_ptr<scalar_t>(), hy.mutable_data_ptr<scalar_t>(), cy.mutable_data_ptr<scalar_t>(), n, H);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

void fused_lstm_cell_backward_kernel_cuda(const Tensor& grad_hy, const Tensor& grad_cy, const Tensor& cx,
                                          const Tensor& cy, const Tensor& workspace, Tensor& grad_gates,
                                          Tensor& grad_cx) {
  c10::cuda::CUDAGuard guard(cx.device());
  const int64_t n = cx.size(0), H = cx.size(1);
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, workspace.scalar_type(), "_thnn_fused_lstm_cell_backward_cuda", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    const int64_t blocks = at::cuda::detail::GET_BLOCKS(n * H, 256);
    lstm_cell_backward<scalar_t, acc_t><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(
        grad_hy.const_data_ptr<scalar_t>(), grad_cy.const_data_ptr<scalar_t>(), cx.const_data_ptr<scalar_t>(),
        cy.const_data_ptr<scalar_t>(), workspace.const_data_ptr<scalar_t>(), grad_gates.mutable_data_ptr<scalar_t>(),
        grad_cx.mutable_data_ptr<scalar_t>(), n, H);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(fused_lstm_cell_stub, &fused_lstm_cell_kernel_cuda);
REGISTER_CUDA_DISPATCH(fused_lstm_cell_backward_stub, &fused_lstm_cell_backward_kernel_cuda);

std::tuple<Tensor, Tensor, Tensor> _thnn_fused_lstm_cell_cuda(const Tensor& input_gates, const Tensor& hidden_gates,
                                                              const Tensor& cx,
                                                              const std::optional<Tensor>& input_bias,
                                                              const std::optional<Tensor>& hidden_bias) {
  return fused_lstm_cell(input_gates, hidden_gates, cx, input_bias.has_value() ? *input_bias : Tensor(),
                         hidden_bias.has_value() ? *hidden_bias : Tensor());
}

std::tuple<Tensor, Tensor, Tensor> _thnn_fused_lstm_cell_backward_impl_cuda(const std::optional<Tensor>& grad_hy,
                                                                            const std::optional<Tensor>& grad_cy,
                                                                            const Tensor& cx, const Tensor& cy,
                                                                            const Tensor& workspace, bool has_bias) {
  return fused_lstm_cell_backward(grad_hy.has_value() ? *grad_hy : Tensor(), grad_cy.has_value() ? *grad_cy : Tensor(),
                                  cx, cy, workspace, has_bias);
}

}  // namespace at::native
