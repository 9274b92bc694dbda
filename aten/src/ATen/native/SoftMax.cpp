// aten/src/ATen/native/SoftMax.cpp - softmax and log_softmax along one dim, numerically stable.
// Mirrors PyTorch's aten/src/ATen/native/SoftMax.cpp (the loops: cpu/SoftMaxKernel.cpp, kept
// here beside their operator). Guide: docs/source/internals/tensor_iterator.rst.
//
// softmax(x)_i = exp(x_i - max) / sum_j exp(x_j - max): subtracting the row's max first
// keeps every exp in (0, 1], so large inputs never overflow to inf/inf = NaN.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/OpMathType.h>
#include <ATen/Parallel.h>
#include <c10/core/WrapDimMinimal.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace at::native {

namespace {

// [marker: softmax_kernel]
template <bool log_softmax>
Tensor host_softmax(const Tensor& input_, int64_t dim_, bool half_to_float) {
  TORCH_CHECK(!half_to_float, "softmax with half to float conversion is not supported on CPU");
  const int64_t dim = c10::maybe_wrap_dim(dim_, input_.dim());
  if (input_.numel() == 0) {
    return at::empty_like(input_);
  }
  // Rows along dim, contiguous.
  Tensor input = input_.dim() == 0 ? input_.view({1}) : input_.movedim(dim, -1).contiguous();
  Tensor output = at::empty(input.sizes(), input.scalar_type(), std::nullopt, input.device(), std::nullopt,
                            std::nullopt);
  const int64_t n = input.size(-1);
  const int64_t rows = input.numel() / n;
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "softmax_lastdim_kernel_impl", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    const scalar_t* in = input.data_ptr<scalar_t>();
    scalar_t* out = output.data_ptr<scalar_t>();
    at::parallel_for(0, rows, std::max<int64_t>(1, at::internal::GRAIN_SIZE / n), [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; r++) {
        const scalar_t* x = in + r * n;
        scalar_t* y = out + r * n;
        // The max without a branch per element, so the loop vectorizes: a NaN never wins a
        // comparison, but it still reaches the sum below (exp(NaN) is NaN) and makes the
        // whole row NaN, as PyTorch's does.
        // Eight running maxima side by side: one would make every comparison wait for the
        // previous one (a chain the compiler may not reorder, as it may not for floats).
        acc_t m8[8];
        std::fill_n(m8, 8, -std::numeric_limits<acc_t>::infinity());
        int64_t i8 = 0;
        for (; i8 + 8 <= n; i8 += 8) {
          for (int k = 0; k < 8; k++) {
            const acc_t v = static_cast<acc_t>(x[i8 + k]);
            m8[k] = v > m8[k] ? v : m8[k];
          }
        }
        for (; i8 < n; i8++) {
          const acc_t v = static_cast<acc_t>(x[i8]);
          m8[0] = v > m8[0] ? v : m8[0];
        }
        acc_t mx = m8[0];
        for (int k = 1; k < 8; k++) mx = m8[k] > mx ? m8[k] : mx;
        if (std::isinf(mx) && mx < 0) mx = 0;  // a row of -inf: exp(-inf - 0) = 0, no NaN from -inf - -inf
        acc_t sum = 0;
        if (log_softmax) {
          for (int64_t i = 0; i < n; i++) sum += std::exp(static_cast<acc_t>(x[i]) - mx);
          const acc_t lse = std::log(sum);
          for (int64_t i = 0; i < n; i++) y[i] = static_cast<scalar_t>(static_cast<acc_t>(x[i]) - mx - lse);
        } else if constexpr (std::is_same_v<scalar_t, acc_t>) {
          // One exp per element: exp(x - max) goes to the output, then the row is scaled by
          // 1 / sum (PyTorch's vectorized softmax does the same, multiplying by the reciprocal).
          for (int64_t i = 0; i < n; i++) {
            const acc_t e = std::exp(static_cast<acc_t>(x[i]) - mx);
            y[i] = e;
            sum += e;
          }
          const acc_t inv = acc_t(1) / sum;
          for (int64_t i = 0; i < n; i++) y[i] = y[i] * inv;
        } else {
          for (int64_t i = 0; i < n; i++) sum += std::exp(static_cast<acc_t>(x[i]) - mx);
          const acc_t inv = acc_t(1) / sum;
          for (int64_t i = 0; i < n; i++) y[i] = static_cast<scalar_t>(std::exp(static_cast<acc_t>(x[i]) - mx) * inv);
        }
      }
    });
  });
  if (input_.dim() == 0) {
    return output.view(IntArrayRef{});  // not view({}): that would pick view(ScalarType)
  }
  return output.movedim(-1, dim).contiguous();
}
// [end marker: softmax_kernel]

}  // namespace

Tensor softmax_cpu(const Tensor& self, int64_t dim, bool half_to_float) {
  return host_softmax<false>(self, dim, half_to_float);
}

Tensor log_softmax_cpu(const Tensor& self, int64_t dim, bool half_to_float) {
  return host_softmax<true>(self, dim, half_to_float);
}

// softmax(dtype=): the input is converted first, as in PyTorch.
Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  const Tensor input = dtype.has_value() ? self.to(*dtype) : self;
  return at::_softmax(input, dim, false);
}

Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  const Tensor input = dtype.has_value() ? self.to(*dtype) : self;
  return at::_log_softmax(input, dim, false);
}

}  // namespace at::native
