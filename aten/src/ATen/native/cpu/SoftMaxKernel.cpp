// aten/src/ATen/native/cpu/SoftMaxKernel.cpp - the loops of softmax and log_softmax, forward and
// backward, along the last dim or any other, with exp evaluated 8 lanes at a time.
// Mirrors PyTorch's aten/src/ATen/native/cpu/SoftMaxKernel.cpp (_vec_softmax_lastdim,
// _vec_log_softmax_lastdim, _vec_softmax, _vec_host_softmax_backward_lastdim, ...).
// Guide: docs/source/internals/performance.rst.
//
// softmax(x)_i = exp(x_i - max) / sum_j exp(x_j - max): subtracting the row's max first keeps
// every exp in (0, 1], so large inputs never overflow to inf/inf = NaN. A row takes four passes
// over memory that stays in the L1 cache: the max, exp(x - max) written out, their sum, and one
// scaling pass (log_softmax: x - max - log(sum)). Each pass vectorizes: exp is at::vec::exp_u20
// (cpu/vec/vec_math.h), plain float arithmetic the compiler evaluates in vector registers, where
// std::exp was one libm call per element; the max and the sum keep 32 running values side by
// side (four registers), because the compiler may not reorder float additions itself, and one
// accumulator would make each addition wait for the previous one.
//
// Both builds of this file (DEFAULT and AVX2, DispatchStub.h) give the same bits: the running
// values are 32-byte GCC vector types (two SSE registers in the portable build, one AVX register
// in the other), so every lane adds the same elements in the same order, and they are folded in
// a fixed order at the end.
#include <ATen/native/cpu/SoftmaxKernel.h>

#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/cpu/vec/vec_math.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>

#if defined(_OPENMP)
#define SOFTMAX_PRAGMA_SIMD _Pragma("omp simd")
#else
#define SOFTMAX_PRAGMA_SIMD
#endif

namespace at::native {
namespace {

// Four 32-byte vectors of acc_t (32 floats or 16 doubles) in flight, as named members: GCC's
// vector types stay in registers (an array of running values would live in memory), and their
// ?: and + act lane by lane, one IEEE operation per lane. Vectors are passed by reference only:
// the portable build has no 32-byte registers to pass them in.
template <typename acc_t>
struct Lanes4 {
  typedef acc_t vec_t __attribute__((vector_size(32)));
  static constexpr int64_t W = 32 / sizeof(acc_t);
  static constexpr int64_t N = 4 * W;
  vec_t v0, v1, v2, v3;

  explicit Lanes4(acc_t a) {
    v0 = vec_t{} + a;
    v1 = v0;
    v2 = v0;
    v3 = v0;
  }
  static void load(vec_t& v, const acc_t* p) {
    std::memcpy(&v, p, sizeof(v));
  }
  // x > m ? x : m: a NaN never wins (it reaches the sum through exp(NaN) instead).
  static void max_into(vec_t& m, const acc_t* p) {
    vec_t x;
    load(x, p);
    m = x > m ? x : m;
  }
  static void add_into(vec_t& s, const acc_t* p) {
    vec_t x;
    load(x, p);
    s += x;
  }
  static void add_product_into(vec_t& s, const acc_t* p, const acc_t* q) {
    vec_t x, y;
    load(x, p);
    load(y, q);
    s += x * y;
  }
  // The lanes of v0 after folding v1..v3 into it, pairwise, in a fixed order.
  void fold_max(acc_t* lanes) {
    v0 = v1 > v0 ? v1 : v0;
    v2 = v3 > v2 ? v3 : v2;
    v0 = v2 > v0 ? v2 : v0;
    std::memcpy(lanes, &v0, sizeof(v0));
  }
  void fold_sum(acc_t* lanes) {
    v0 = (v0 + v1) + (v2 + v3);
    std::memcpy(lanes, &v0, sizeof(v0));
  }
};

// max_i x_i of a row, NaNs skipped (see max_into).
template <typename acc_t>
acc_t row_max(const acc_t* x, int64_t n) {
  using L = Lanes4<acc_t>;
  const acc_t neg_inf = -std::numeric_limits<acc_t>::infinity();
  L m(neg_inf);
  int64_t i = 0;
  for (; i + L::N <= n; i += L::N) {
    L::max_into(m.v0, x + i);
    L::max_into(m.v1, x + i + L::W);
    L::max_into(m.v2, x + i + 2 * L::W);
    L::max_into(m.v3, x + i + 3 * L::W);
  }
  acc_t lanes[L::W];
  m.fold_max(lanes);
  acc_t mx = neg_inf;
  for (int64_t k = 0; k < L::W; k++) mx = lanes[k] > mx ? lanes[k] : mx;
  for (; i < n; i++) mx = x[i] > mx ? x[i] : mx;
  return mx;
}

// sum_i x_i (or sum_i x_i y_i) of a row, in a fixed order: lane k of vector v adds the elements
// i = 32 j + 8 v + k in turn (floats; 16 j + 4 v + k for doubles), then the vectors and the
// lanes are added pairwise, then the tail.
template <typename acc_t, bool dot>
acc_t row_sum(const acc_t* x, const acc_t* y, int64_t n) {
  using L = Lanes4<acc_t>;
  L s(acc_t(0));
  int64_t i = 0;
  for (; i + L::N <= n; i += L::N) {
    if constexpr (dot) {
      L::add_product_into(s.v0, x + i, y + i);
      L::add_product_into(s.v1, x + i + L::W, y + i + L::W);
      L::add_product_into(s.v2, x + i + 2 * L::W, y + i + 2 * L::W);
      L::add_product_into(s.v3, x + i + 3 * L::W, y + i + 3 * L::W);
    } else {
      L::add_into(s.v0, x + i);
      L::add_into(s.v1, x + i + L::W);
      L::add_into(s.v2, x + i + 2 * L::W);
      L::add_into(s.v3, x + i + 3 * L::W);
    }
  }
  acc_t lanes[L::W];
  s.fold_sum(lanes);
  for (int64_t w = L::W / 2; w >= 1; w /= 2) {
    for (int64_t k = 0; k < w; k++) lanes[k] += lanes[k + w];
  }
  acc_t sum = lanes[0];
  for (; i < n; i++) sum += dot ? x[i] * y[i] : x[i];
  return sum;
}

// Half and BFloat16 rows are converted to float once, into a buffer, and computed there.
template <typename scalar_t, typename acc_t>
const acc_t* as_acc(const scalar_t* x, int64_t n, acc_t* buf) {
  if constexpr (std::is_same_v<scalar_t, acc_t>) {
    return x;
  } else {
    for (int64_t i = 0; i < n; i++) buf[i] = static_cast<acc_t>(x[i]);
    return buf;
  }
}

// acc_t -> the output's dtype. c10::BFloat16(float) branches on NaN, which keeps a loop scalar;
// this is the same rounding (to nearest even on the 16 dropped bits, NaN to 0x7fc0) with the
// NaN case folded in through a mask, so the loops that write BFloat16 vectorize too.
template <typename scalar_t, typename acc_t>
C10_ALWAYS_INLINE scalar_t to_scalar(acc_t v) {
  if constexpr (std::is_same_v<scalar_t, c10::BFloat16>) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    const uint32_t rounded = (bits + (((bits >> 16) & 1u) + 0x7fffu)) >> 16;
    const uint32_t nan_mask = 0u - static_cast<uint32_t>(v != v);
    return c10::BFloat16(static_cast<uint16_t>((rounded & ~nan_mask) | (0x7fc0u & nan_mask)),
                         c10::BFloat16::from_bits());
  } else {
    return static_cast<scalar_t>(v);
  }
}

// A row of -inf (every element masked out) has max -inf; with max 0 instead, exp(-inf - 0) = 0
// and not exp(-inf - -inf) = NaN. The row's sum is then 0, and the result NaN, as in PyTorch.
template <typename acc_t>
acc_t finite_max(acc_t m) {
  return m == -std::numeric_limits<acc_t>::infinity() ? acc_t(0) : m;
}

template <typename scalar_t, bool log_softmax>
void vec_softmax_lastdim(const scalar_t* input, scalar_t* output, int64_t rows, int64_t n) {
  using acc_t = at::opmath_type<scalar_t>;
  constexpr bool same = std::is_same_v<scalar_t, acc_t>;
  at::parallel_for(0, rows, std::max<int64_t>(1, at::internal::GRAIN_SIZE / n), [&](int64_t begin, int64_t end) {
    // exp(x - max) needs a row of acc_t: the output row itself for float and double, a buffer
    // for Half and BFloat16 (which also holds the converted input).
    std::unique_ptr<acc_t[]> buf(same ? nullptr : new acc_t[2 * n]);
    for (int64_t r = begin; r < end; r++) {
      const acc_t* x = as_acc(input + r * n, n, buf.get());
      acc_t* e = same ? reinterpret_cast<acc_t*>(output + r * n) : buf.get() + n;
      const acc_t mx = finite_max(row_max(x, n));
      SOFTMAX_PRAGMA_SIMD
      for (int64_t i = 0; i < n; i++) e[i] = at::vec::exp_u20(x[i] - mx);
      const acc_t sum = row_sum<acc_t, false>(e, nullptr, n);
      scalar_t* y = output + r * n;
      if constexpr (log_softmax) {
        // x - max - log(sum), in PyTorch's order.
        const acc_t lse = std::log(sum);
        SOFTMAX_PRAGMA_SIMD
        for (int64_t i = 0; i < n; i++) y[i] = to_scalar<scalar_t>(x[i] - mx - lse);
      } else {
        // One division per row, then a product per element, as PyTorch's kernel does.
        const acc_t inv = acc_t(1) / sum;
        SOFTMAX_PRAGMA_SIMD
        for (int64_t i = 0; i < n; i++) y[i] = to_scalar<scalar_t>(e[i] * inv);
      }
    }
  });
}

// Along a dim that is not the last: the tensor is [outer, dim_size, inner] and each of the
// outer * inner columns is a softmax. Instead of moving dim last (two transposing copies),
// a block of up to kBlock neighbouring columns is done at once: for each step along dim, one
// contiguous run of the block's elements, with its own max and sum per column, so the inner
// loops run along memory and vectorize, as PyTorch's _vec_softmax does with Vectorized lanes.
constexpr int64_t kBlock = 64;

template <typename scalar_t, bool log_softmax>
void vec_softmax_dim(const scalar_t* input, scalar_t* output, int64_t outer, int64_t dim_size, int64_t inner) {
  using acc_t = at::opmath_type<scalar_t>;
  constexpr bool same = std::is_same_v<scalar_t, acc_t>;
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  const int64_t grain = std::max<int64_t>(1, at::internal::GRAIN_SIZE / (dim_size * kBlock));
  at::parallel_for(0, outer * blocks, grain, [&](int64_t begin, int64_t end) {
    acc_t mx[kBlock], sum[kBlock];
    for (int64_t task = begin; task < end; task++) {
      const int64_t o = task / blocks;
      const int64_t j0 = (task % blocks) * kBlock;
      const int64_t len = std::min(kBlock, inner - j0);
      const scalar_t* x = input + o * dim_size * inner + j0;
      scalar_t* y = output + o * dim_size * inner + j0;
      std::fill_n(mx, len, -std::numeric_limits<acc_t>::infinity());
      std::fill_n(sum, len, acc_t(0));
      for (int64_t d = 0; d < dim_size; d++) {
        const scalar_t* xd = x + d * inner;
        SOFTMAX_PRAGMA_SIMD
        for (int64_t j = 0; j < len; j++) {
          const acc_t v = static_cast<acc_t>(xd[j]);
          mx[j] = v > mx[j] ? v : mx[j];
        }
      }
      for (int64_t j = 0; j < len; j++) mx[j] = finite_max(mx[j]);
      // The sum along dim, column by column: each column adds its elements in order.
      for (int64_t d = 0; d < dim_size; d++) {
        const scalar_t* xd = x + d * inner;
        scalar_t* yd = y + d * inner;
        SOFTMAX_PRAGMA_SIMD
        for (int64_t j = 0; j < len; j++) {
          const acc_t e = at::vec::exp_u20(static_cast<acc_t>(xd[j]) - mx[j]);
          if constexpr (!log_softmax && same) {
            yd[j] = e;
          }
          sum[j] += e;
        }
      }
      if constexpr (log_softmax) {
        for (int64_t j = 0; j < len; j++) sum[j] = std::log(sum[j]);  // now log(sum)
        for (int64_t d = 0; d < dim_size; d++) {
          const scalar_t* xd = x + d * inner;
          scalar_t* yd = y + d * inner;
          SOFTMAX_PRAGMA_SIMD
          for (int64_t j = 0; j < len; j++) yd[j] = to_scalar<scalar_t>(static_cast<acc_t>(xd[j]) - mx[j] - sum[j]);
        }
      } else {
        for (int64_t j = 0; j < len; j++) sum[j] = acc_t(1) / sum[j];  // now 1 / sum
        for (int64_t d = 0; d < dim_size; d++) {
          const scalar_t* xd = x + d * inner;
          scalar_t* yd = y + d * inner;
          SOFTMAX_PRAGMA_SIMD
          for (int64_t j = 0; j < len; j++) {
            // Half and BFloat16 recompute exp rather than round it to the output's dtype twice.
            const acc_t e = same ? static_cast<acc_t>(yd[j]) : at::vec::exp_u20(static_cast<acc_t>(xd[j]) - mx[j]);
            yd[j] = to_scalar<scalar_t>(e * sum[j]);
          }
        }
      }
    }
  });
}

// softmax: gI = y (g - sum(g y)); log_softmax: gI = g - exp(y) sum(g). Each row needs one sum,
// then one pass to write. y is log_softmax's output, <= 0, where exp_u20 is exact to 1 ulp (its
// flush below 2^-125 drops terms under 2^-125 sum(g)).
template <typename scalar_t, bool log_softmax>
void vec_softmax_backward_lastdim(scalar_t* grad_input, const scalar_t* grad, const scalar_t* output, int64_t rows,
                                  int64_t n) {
  using acc_t = at::opmath_type<scalar_t>;
  constexpr bool same = std::is_same_v<scalar_t, acc_t>;
  at::parallel_for(0, rows, std::max<int64_t>(1, at::internal::GRAIN_SIZE / n), [&](int64_t begin, int64_t end) {
    std::unique_ptr<acc_t[]> buf(same ? nullptr : new acc_t[2 * n]);
    for (int64_t r = begin; r < end; r++) {
      const acc_t* g = as_acc(grad + r * n, n, buf.get());
      const acc_t* y = as_acc(output + r * n, n, same ? nullptr : buf.get() + n);
      scalar_t* gi = grad_input + r * n;
      const acc_t sum = log_softmax ? row_sum<acc_t, false>(g, nullptr, n) : row_sum<acc_t, true>(g, y, n);
      SOFTMAX_PRAGMA_SIMD
      for (int64_t i = 0; i < n; i++) {
        gi[i] = to_scalar<scalar_t>(log_softmax ? g[i] - at::vec::exp_u20(y[i]) * sum : y[i] * (g[i] - sum));
      }
    }
  });
}

template <typename scalar_t, bool log_softmax>
void vec_softmax_backward_dim(scalar_t* grad_input, const scalar_t* grad, const scalar_t* output, int64_t outer,
                              int64_t dim_size, int64_t inner) {
  using acc_t = at::opmath_type<scalar_t>;
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  const int64_t grain = std::max<int64_t>(1, at::internal::GRAIN_SIZE / (dim_size * kBlock));
  at::parallel_for(0, outer * blocks, grain, [&](int64_t begin, int64_t end) {
    acc_t sum[kBlock];
    for (int64_t task = begin; task < end; task++) {
      const int64_t o = task / blocks;
      const int64_t j0 = (task % blocks) * kBlock;
      const int64_t len = std::min(kBlock, inner - j0);
      const int64_t offset = o * dim_size * inner + j0;
      std::fill_n(sum, len, acc_t(0));
      for (int64_t d = 0; d < dim_size; d++) {
        const scalar_t* gd = grad + offset + d * inner;
        const scalar_t* yd = output + offset + d * inner;
        SOFTMAX_PRAGMA_SIMD
        for (int64_t j = 0; j < len; j++) {
          const acc_t gj = static_cast<acc_t>(gd[j]);
          sum[j] += log_softmax ? gj : gj * static_cast<acc_t>(yd[j]);
        }
      }
      for (int64_t d = 0; d < dim_size; d++) {
        const scalar_t* gd = grad + offset + d * inner;
        const scalar_t* yd = output + offset + d * inner;
        scalar_t* gid = grad_input + offset + d * inner;
        SOFTMAX_PRAGMA_SIMD
        for (int64_t j = 0; j < len; j++) {
          const acc_t gj = static_cast<acc_t>(gd[j]);
          const acc_t yj = static_cast<acc_t>(yd[j]);
          gid[j] = to_scalar<scalar_t>(log_softmax ? gj - at::vec::exp_u20(yj) * sum[j] : yj * (gj - sum[j]));
        }
      }
    }
  });
}

// The stubs' kernels. Tensors are contiguous and of one shape; result and grad_input are
// allocated by the operator (SoftMax.cpp). A 0-d tensor arrives as a one-element row. The
// dispatch names are PyTorch's, which its dtype errors print; the backward dispatches on grad's
// dtype, as PyTorch's does, and output of another dtype fails in const_data_ptr's check.
template <bool log_softmax>
void softmax_lastdim_kernel_impl(const Tensor& result, const Tensor& self) {
  const int64_t n = self.dim() == 0 ? 1 : self.size(-1);
  const int64_t rows = self.numel() / n;
  constexpr const char* name = log_softmax ? "log_softmax_lastdim_kernel_impl" : "softmax_lastdim_kernel_impl";
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), name, [&] {
    vec_softmax_lastdim<scalar_t, log_softmax>(self.const_data_ptr<scalar_t>(), result.mutable_data_ptr<scalar_t>(),
                                               rows, n);
  });
}

template <bool log_softmax>
void softmax_kernel_impl(const Tensor& result, const Tensor& self, const int64_t dim) {
  const int64_t dim_size = self.size(dim);
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < self.dim(); d++) inner *= self.size(d);
  const int64_t outer = self.numel() / (dim_size * inner);
  constexpr const char* name = log_softmax ? "log_softmax_kernel_impl" : "softmax_kernel_impl";
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), name, [&] {
    vec_softmax_dim<scalar_t, log_softmax>(self.const_data_ptr<scalar_t>(), result.mutable_data_ptr<scalar_t>(), outer,
                                           dim_size, inner);
  });
}

template <bool log_softmax>
void softmax_backward_lastdim_kernel_impl(const Tensor& grad_input, const Tensor& grad, const Tensor& output) {
  const int64_t n = grad.dim() == 0 ? 1 : grad.size(-1);
  const int64_t rows = grad.numel() / n;
  constexpr const char* name =
      log_softmax ? "log_softmax_backward_lastdim_kernel_impl" : "softmax_backward_lastdim_kernel_impl";
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, grad.scalar_type(), name, [&] {
    vec_softmax_backward_lastdim<scalar_t, log_softmax>(grad_input.mutable_data_ptr<scalar_t>(),
                                                        grad.const_data_ptr<scalar_t>(),
                                                        output.const_data_ptr<scalar_t>(), rows, n);
  });
}

template <bool log_softmax>
void softmax_backward_kernel_impl(const Tensor& grad_input, const Tensor& grad, const Tensor& output,
                                  const int64_t dim) {
  const int64_t dim_size = grad.size(dim);
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < grad.dim(); d++) inner *= grad.size(d);
  const int64_t outer = grad.numel() / (dim_size * inner);
  constexpr const char* name = log_softmax ? "log_softmax_backward_kernel_impl" : "softmax_backward_kernel_impl";
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, grad.scalar_type(), name, [&] {
    vec_softmax_backward_dim<scalar_t, log_softmax>(grad_input.mutable_data_ptr<scalar_t>(),
                                                    grad.const_data_ptr<scalar_t>(),
                                                    output.const_data_ptr<scalar_t>(), outer, dim_size, inner);
  });
}

}  // namespace

REGISTER_DISPATCH(softmax_lastdim_kernel, &softmax_lastdim_kernel_impl<false>);
REGISTER_DISPATCH(log_softmax_lastdim_kernel, &softmax_lastdim_kernel_impl<true>);
REGISTER_DISPATCH(softmax_backward_lastdim_kernel, &softmax_backward_lastdim_kernel_impl<false>);
REGISTER_DISPATCH(log_softmax_backward_lastdim_kernel, &softmax_backward_lastdim_kernel_impl<true>);
REGISTER_DISPATCH(softmax_kernel, &softmax_kernel_impl<false>);
REGISTER_DISPATCH(log_softmax_kernel, &softmax_kernel_impl<true>);
REGISTER_DISPATCH(softmax_backward_kernel, &softmax_backward_kernel_impl<false>);
REGISTER_DISPATCH(log_softmax_backward_kernel, &softmax_backward_kernel_impl<true>);

}  // namespace at::native
