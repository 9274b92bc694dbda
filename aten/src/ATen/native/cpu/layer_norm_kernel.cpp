// aten/src/ATen/native/cpu/layer_norm_kernel.cpp - the CPU loops of layer_norm, forward and
// backward, for float and double. Mirrors PyTorch's aten/src/ATen/native/cpu/layer_norm_kernel.cpp
// (LayerNormKernelImpl, LayerNormBackwardKernelImpl). Guide: docs/source/internals/performance.rst.
//
// Each row of N values is read twice forward (its mean and variance, then the output) and
// twice backward (two sums, then the input's gradient), where the same formulas written as
// tensor operations make about seven passes and as many temporaries each way. Sums keep eight
// running partial sums side by side (the compiler may not reorder float additions itself), so
// the loops vectorize.
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/layer_norm.h>

#include <cmath>
#include <vector>

namespace at::native {
namespace {

constexpr int kLanes = 8;

// sum over i of f(i), in eight interleaved partial sums folded pairwise at the end.
template <typename acc_t, typename F>
inline acc_t lane_sum(int64_t n, const F& f) {
  acc_t s[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int k = 0; k < kLanes; k++) s[k] += f(i + k);
  }
  for (; i < n; i++) s[0] += f(i);
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

int64_t rows_per_task(int64_t N) {
  return std::max<int64_t>(1, at::internal::GRAIN_SIZE / std::max<int64_t>(1, 2 * N));
}

// mean = sum(x) / N, var = sum((x - mean)^2) / N (two passes: no cancellation), rstd =
// 1 / sqrt(var + eps), y = (x - mean) * rstd * gamma + beta.
void LayerNormKernelImpl(const Tensor& X, const Tensor& gamma, const Tensor& beta, int64_t M, int64_t N, double eps,
                         Tensor* Y, Tensor* mean, Tensor* rstd) {
  AT_DISPATCH_FLOATING_TYPES(X.scalar_type(), "LayerNormKernelImpl", [&] {
    const scalar_t* x = X.const_data_ptr<scalar_t>();
    const scalar_t* w = gamma.defined() ? gamma.const_data_ptr<scalar_t>() : nullptr;
    const scalar_t* b = beta.defined() ? beta.const_data_ptr<scalar_t>() : nullptr;
    scalar_t* y = Y->mutable_data_ptr<scalar_t>();
    scalar_t* mu = mean->mutable_data_ptr<scalar_t>();
    scalar_t* rs = rstd->mutable_data_ptr<scalar_t>();
    at::parallel_for(0, M, rows_per_task(N), [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; r++) {
        const scalar_t* xr = x + r * N;
        scalar_t* yr = y + r * N;
        const scalar_t m = lane_sum<scalar_t>(N, [&](int64_t i) { return xr[i]; }) / static_cast<scalar_t>(N);
        const scalar_t var = lane_sum<scalar_t>(N, [&](int64_t i) {
                               const scalar_t d = xr[i] - m;
                               return d * d;
                             }) /
                             static_cast<scalar_t>(N);
        const scalar_t s = scalar_t(1) / std::sqrt(var + static_cast<scalar_t>(eps));
        mu[r] = m;
        rs[r] = s;
        if (w != nullptr && b != nullptr) {
          for (int64_t i = 0; i < N; i++) yr[i] = (xr[i] - m) * s * w[i] + b[i];
        } else if (w != nullptr) {
          for (int64_t i = 0; i < N; i++) yr[i] = (xr[i] - m) * s * w[i];
        } else if (b != nullptr) {
          for (int64_t i = 0; i < N; i++) yr[i] = (xr[i] - m) * s + b[i];
        } else {
          for (int64_t i = 0; i < N; i++) yr[i] = (xr[i] - m) * s;
        }
      }
    });
  });
}

// With xhat = (x - mean) * rstd and g = dy * gamma, per row:
//   dx = (g - sum(g) / N - xhat * sum(g * xhat) / N) * rstd
// and over the rows: dgamma = sum(dy * xhat), dbeta = sum(dy).
void LayerNormBackwardKernelImpl(const Tensor& dY, const Tensor& X, const Tensor& mean, const Tensor& rstd,
                                 const Tensor& gamma, int64_t M, int64_t N, Tensor* dX, Tensor* dgamma, Tensor* dbeta) {
  AT_DISPATCH_FLOATING_TYPES(X.scalar_type(), "LayerNormBackwardKernelImpl", [&] {
    const scalar_t* dy = dY.const_data_ptr<scalar_t>();
    const scalar_t* x = X.const_data_ptr<scalar_t>();
    const scalar_t* mu = mean.const_data_ptr<scalar_t>();
    const scalar_t* rs = rstd.const_data_ptr<scalar_t>();
    const scalar_t* w = gamma.defined() ? gamma.const_data_ptr<scalar_t>() : nullptr;
    const scalar_t inv_n = scalar_t(1) / static_cast<scalar_t>(N);
    if (dX->defined()) {
      scalar_t* dx = dX->mutable_data_ptr<scalar_t>();
      at::parallel_for(0, M, rows_per_task(N), [&](int64_t begin, int64_t end) {
        std::vector<scalar_t> g_row(static_cast<size_t>(N));
        scalar_t* g = g_row.data();
        for (int64_t r = begin; r < end; r++) {
          const scalar_t* dyr = dy + r * N;
          const scalar_t* xr = x + r * N;
          const scalar_t m = mu[r], s = rs[r];
          if (w != nullptr) {
            for (int64_t i = 0; i < N; i++) g[i] = dyr[i] * w[i];
          } else {
            for (int64_t i = 0; i < N; i++) g[i] = dyr[i];
          }
          const scalar_t sum_g = lane_sum<scalar_t>(N, [&](int64_t i) { return g[i]; });
          const scalar_t sum_gx = lane_sum<scalar_t>(N, [&](int64_t i) { return g[i] * ((xr[i] - m) * s); });
          const scalar_t a = sum_g * inv_n, c = sum_gx * inv_n;
          scalar_t* dxr = dx + r * N;
          for (int64_t i = 0; i < N; i++) dxr[i] = (g[i] - a - ((xr[i] - m) * s) * c) * s;
        }
      });
    }
    if (dgamma->defined() || dbeta->defined()) {
      // Column sums, row after row: each column is summed in row order, a vector of N
      // accumulators wide.
      std::vector<scalar_t> sw(static_cast<size_t>(N), scalar_t(0)), sb(static_cast<size_t>(N), scalar_t(0));
      for (int64_t r = 0; r < M; r++) {
        const scalar_t* dyr = dy + r * N;
        const scalar_t* xr = x + r * N;
        const scalar_t m = mu[r], s = rs[r];
        for (int64_t i = 0; i < N; i++) {
          sw[i] += dyr[i] * ((xr[i] - m) * s);
          sb[i] += dyr[i];
        }
      }
      if (dgamma->defined()) std::copy(sw.begin(), sw.end(), dgamma->mutable_data_ptr<scalar_t>());
      if (dbeta->defined()) std::copy(sb.begin(), sb.end(), dbeta->mutable_data_ptr<scalar_t>());
    }
  });
}

}  // namespace

REGISTER_DISPATCH(LayerNormKernel, &LayerNormKernelImpl);
REGISTER_DISPATCH(LayerNormBackwardKernel, &LayerNormBackwardKernelImpl);

}  // namespace at::native
