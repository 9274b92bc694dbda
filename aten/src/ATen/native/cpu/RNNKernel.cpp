// aten/src/ATen/native/cpu/RNNKernel.cpp - the CPU loops of the fused LSTM cell, forward and
// backward (the operators, their checks and outputs, are in RNN.cpp). PyTorch fuses the cell on
// CUDA only (aten/src/ATen/native/cuda/RNN.cu); this is the same computation for the CPU.
// Guide: docs/source/internals/performance.rst ("The LSTM step").
//
// Each row of H hidden units is one branch-free loop: the activations are at::vec::sigmoid and
// at::vec::tanh (cpu/vec/vec_math.h), so the compiler evaluates 8 units at a time in the AVX2
// build, where libm's tanhf and expf would be one call per unit.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/Parallel.h>
#include <ATen/cpu/vec/vec_math.h>
#include <ATen/native/RNN.h>

namespace at::native {
namespace {

int64_t rows_per_task(int64_t H) {
  return std::max<int64_t>(1, at::internal::GRAIN_SIZE / std::max<int64_t>(1, 8 * H));
}

// [marker: fused_lstm_cell_kernel]
// gates = input_gates + hidden_gates + biases, in chunks i, f, g, o of width H:
//     i, f, o = sigmoid(.), g = tanh(.), cy = f cx + i g, hy = o tanh(cy).
void fused_lstm_cell_kernel(const Tensor& input_gates, const Tensor& hidden_gates, const Tensor& cx,
                            const Tensor& input_bias, const Tensor& hidden_bias, Tensor& hy, Tensor& cy,
                            Tensor& workspace) {
  const int64_t n = cx.size(0), H = cx.size(1);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input_gates.scalar_type(), "_thnn_fused_lstm_cell_cpu", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    const scalar_t* ig = input_gates.const_data_ptr<scalar_t>();
    const scalar_t* hg = hidden_gates.const_data_ptr<scalar_t>();
    const scalar_t* b1 = input_bias.const_data_ptr<scalar_t>();
    const scalar_t* b2 = hidden_bias.const_data_ptr<scalar_t>();
    const scalar_t* c0 = cx.const_data_ptr<scalar_t>();
    scalar_t* ws = workspace.mutable_data_ptr<scalar_t>();
    scalar_t* h1 = hy.mutable_data_ptr<scalar_t>();
    scalar_t* c1 = cy.mutable_data_ptr<scalar_t>();
    at::parallel_for(0, n, rows_per_task(H), [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; row++) {
        const scalar_t* a = ig + row * 4 * H;
        const scalar_t* b = hg + row * 4 * H;
        scalar_t* w = ws + row * 4 * H;
        // The outputs never overlap the inputs: `omp simd` says so (as _Pragma, since a #pragma
        // cannot sit inside the dispatch macro), where the compiler would otherwise need a
        // run-time overlap check for each of the 24 pairs of pointers, more than it is willing
        // to emit, and keep the loop scalar.
        _Pragma("omp simd")
        for (int64_t j = 0; j < H; j++) {
          auto gate = [&](int64_t k) {
            return static_cast<acc_t>(a[k]) + static_cast<acc_t>(b[k]) + static_cast<acc_t>(b1[k]) +
                   static_cast<acc_t>(b2[k]);
          };
          const acc_t i = at::vec::sigmoid(gate(j));
          const acc_t f = at::vec::sigmoid(gate(H + j));
          const acc_t g = at::vec::tanh(gate(2 * H + j));
          const acc_t o = at::vec::sigmoid(gate(3 * H + j));
          const acc_t c = f * static_cast<acc_t>(c0[row * H + j]) + i * g;
          w[j] = static_cast<scalar_t>(i);
          w[H + j] = static_cast<scalar_t>(f);
          w[2 * H + j] = static_cast<scalar_t>(g);
          w[3 * H + j] = static_cast<scalar_t>(o);
          c1[row * H + j] = static_cast<scalar_t>(c);
          h1[row * H + j] = static_cast<scalar_t>(o * at::vec::tanh(c));
        }
      }
    });
  });
}
// [end marker: fused_lstm_cell_kernel]

// From the saved activations, with t = tanh(cy):
//     dcy = dhy o (1 - t^2) + dcy_in        dcx = dcy f
//     di = dcy g i (1 - i)    df = dcy cx f (1 - f)
//     dg = dcy i (1 - g^2)    do = dhy t o (1 - o)
void fused_lstm_cell_backward_kernel(const Tensor& grad_hy, const Tensor& grad_cy, const Tensor& cx, const Tensor& cy,
                                     const Tensor& workspace, Tensor& grad_gates, Tensor& grad_cx) {
  const int64_t n = cx.size(0), H = cx.size(1);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, workspace.scalar_type(), "_thnn_fused_lstm_cell_backward_cpu", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    const scalar_t* dh = grad_hy.const_data_ptr<scalar_t>();
    const scalar_t* dc = grad_cy.const_data_ptr<scalar_t>();
    const scalar_t* c0 = cx.const_data_ptr<scalar_t>();
    const scalar_t* c1 = cy.const_data_ptr<scalar_t>();
    const scalar_t* ws = workspace.const_data_ptr<scalar_t>();
    scalar_t* gg = grad_gates.mutable_data_ptr<scalar_t>();
    scalar_t* gcx = grad_cx.mutable_data_ptr<scalar_t>();
    at::parallel_for(0, n, rows_per_task(H), [&](int64_t begin, int64_t end) {
      for (int64_t row = begin; row < end; row++) {
        const scalar_t* w = ws + row * 4 * H;
        scalar_t* d = gg + row * 4 * H;
        _Pragma("omp simd")
        for (int64_t j = 0; j < H; j++) {
          const int64_t e = row * H + j;
          const acc_t i = w[j], f = w[H + j], g = w[2 * H + j], o = w[3 * H + j];
          const acc_t t = at::vec::tanh(static_cast<acc_t>(c1[e]));
          const acc_t d_hy = dh[e];
          const acc_t d_cy = d_hy * o * (acc_t(1) - t * t) + static_cast<acc_t>(dc[e]);
          d[j] = static_cast<scalar_t>(d_cy * g * i * (acc_t(1) - i));
          d[H + j] = static_cast<scalar_t>(d_cy * static_cast<acc_t>(c0[e]) * f * (acc_t(1) - f));
          d[2 * H + j] = static_cast<scalar_t>(d_cy * i * (acc_t(1) - g * g));
          d[3 * H + j] = static_cast<scalar_t>(d_hy * t * o * (acc_t(1) - o));
          gcx[e] = static_cast<scalar_t>(d_cy * f);
        }
      }
    });
  });
}

}  // namespace

REGISTER_DISPATCH(fused_lstm_cell_stub, &fused_lstm_cell_kernel);
REGISTER_DISPATCH(fused_lstm_cell_backward_stub, &fused_lstm_cell_backward_kernel);

}  // namespace at::native
