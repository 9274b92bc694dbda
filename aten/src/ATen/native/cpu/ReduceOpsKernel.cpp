// aten/src/ATen/native/cpu/ReduceOpsKernel.cpp - the CPU loops of the reductions and scans.
// Mirrors PyTorch's aten/src/ATen/native/cpu/ReduceOpsKernel.cpp (+ SumKernel.cpp for the
// cascade sum, TensorCompareKernel.cpp for max/min with indices).
// Guide: docs/source/internals/tensor_iterator.rst ("Reductions").
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/OpMathType.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/native/SharedReduceOps.h>
#include <ATen/native/cpu/Reduce.h>
#include <ATen/native/cpu/SumKernel.h>

#include <cmath>
#include <limits>
#include <type_traits>

namespace at::native {
namespace {

// [marker: pairwise_sum]
// Floating-point sums: pairwise (cascade) summation, as numpy and PyTorch's SumKernel do. A
// naive running sum of n floats has error growing like n; halving the range recursively
// makes it grow like log n. The leaves (up to 256 elements) use 16 independent accumulators,
// which the compiler turns into vector registers when the row is contiguous.
template <typename acc_t, typename scalar_t>
acc_t pairwise_sum(const char* p, int64_t stride, int64_t n) {
  constexpr int64_t kBlock = 256;
  constexpr int kLanes = 16;
  if (n <= kBlock) {
    acc_t r[kLanes] = {};
    int64_t i = 0;
    if (stride == static_cast<int64_t>(sizeof(scalar_t))) {
      const scalar_t* x = reinterpret_cast<const scalar_t*>(p);
      for (; i + kLanes <= n; i += kLanes) {
        for (int j = 0; j < kLanes; j++) r[j] += static_cast<acc_t>(x[i + j]);
      }
      for (; i < n; i++) r[0] += static_cast<acc_t>(x[i]);
    } else {
      for (; i < n; i++) r[i % kLanes] += static_cast<acc_t>(*reinterpret_cast<const scalar_t*>(p + i * stride));
    }
    for (int w = kLanes / 2; w > 0; w /= 2) {
      for (int j = 0; j < w; j++) r[j] += r[j + w];
    }
    return r[0];
  }
  int64_t half = n / 2;
  half -= half % kLanes;
  return pairwise_sum<acc_t, scalar_t>(p, stride, half) +
         pairwise_sum<acc_t, scalar_t>(p + half * stride, stride, n - half);
}
// [end marker: pairwise_sum]

// [marker: sum_kernel]
void sum_kernel_impl(TensorIteratorBase& iter) {
  // float and double: PyTorch's own order of additions (cpu/SumKernel.cpp).
  if (cascade_sum_cpu(iter)) {
    return;
  }
  // Complex sums are pairwise too: the real and imaginary parts are two float sums.
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(0), "sum_cpu", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    reduce_rows<acc_t>(
        iter, acc_t(0),
        [](acc_t acc, char* p, int64_t s, int64_t n, int64_t) {
          if constexpr (std::is_floating_point_v<acc_t> || c10::is_complex<acc_t>::value) {
            return acc + pairwise_sum<acc_t, scalar_t>(p, s, n);
          } else {
            for (int64_t i = 0; i < n; i++) acc += *reinterpret_cast<const scalar_t*>(p + i * s);
            return acc;
          }
        },
        [](acc_t a, acc_t b) { return a + b; },
        [](acc_t acc, char* const* ptrs) { *reinterpret_cast<scalar_t*>(ptrs[0]) = static_cast<scalar_t>(acc); });
  });
}
// [end marker: sum_kernel]

template <typename scalar_t, typename acc_t = at::opmath_type<scalar_t>>
struct ProdOps {
  acc_t reduce(acc_t a, scalar_t b, int64_t) const { return a * static_cast<acc_t>(b); }
  acc_t combine(acc_t a, acc_t b) const { return a * b; }
  scalar_t project(acc_t a) const { return static_cast<scalar_t>(a); }
};

void prod_kernel_impl(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16, iter.dtype(0), "prod_out_cpu", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    binary_kernel_reduce<scalar_t>(iter, ProdOps<scalar_t>{}, acc_t(1));
  });
}

void and_kernel_impl(TensorIteratorBase& iter) {
  AT_DISPATCH_SWITCH(iter.dtype(1), "all_cpu", AT_DISPATCH_CASE(kBool, [&] {
    struct Ops {
      bool reduce(bool a, scalar_t b, int64_t) const { return a && static_cast<bool>(b); }
      bool combine(bool a, bool b) const { return a && b; }
      scalar_t project(bool a) const { return static_cast<scalar_t>(a); }
    };
    binary_kernel_reduce<scalar_t>(iter, Ops{}, true);
  }) AT_DISPATCH_CASE(kByte, [&] {
    struct Ops {
      bool reduce(bool a, scalar_t b, int64_t) const { return a && b != 0; }
      bool combine(bool a, bool b) const { return a && b; }
      scalar_t project(bool a) const { return static_cast<scalar_t>(a); }
    };
    binary_kernel_reduce<scalar_t>(iter, Ops{}, true);
  }));
}

void or_kernel_impl(TensorIteratorBase& iter) {
  AT_DISPATCH_SWITCH(iter.dtype(1), "any_cpu", AT_DISPATCH_CASE(kBool, [&] {
    struct Ops {
      bool reduce(bool a, scalar_t b, int64_t) const { return a || static_cast<bool>(b); }
      bool combine(bool a, bool b) const { return a || b; }
      scalar_t project(bool a) const { return static_cast<scalar_t>(a); }
    };
    binary_kernel_reduce<scalar_t>(iter, Ops{}, false);
  }) AT_DISPATCH_CASE(kByte, [&] {
    struct Ops {
      bool reduce(bool a, scalar_t b, int64_t) const { return a || b != 0; }
      bool combine(bool a, bool b) const { return a || b; }
      scalar_t project(bool a) const { return static_cast<scalar_t>(a); }
    };
    binary_kernel_reduce<scalar_t>(iter, Ops{}, false);
  }));
}

// [marker: max_ops]
// beats(a, b) and lower_bound_init: aten/src/ATen/native/SharedReduceOps.h, shared with CUDA.
// amax/amin: values only.
template <typename scalar_t, bool is_max>
struct MinMaxValuesOps {
  using acc_t = at::opmath_type<scalar_t>;
  static constexpr bool any_order = true;  // Reduce.h: fold with several accumulators
  acc_t reduce(acc_t a, scalar_t b, int64_t) const {
    const acc_t v = static_cast<acc_t>(b);
    return beats<is_max>(a, v) ? v : a;
  }
  acc_t combine(acc_t a, acc_t b) const { return beats<is_max>(a, b) ? b : a; }
  scalar_t project(acc_t a) const { return static_cast<scalar_t>(a); }
};

// max(dim)/argmax: the value and the index of its first occurrence (ties keep the earlier
// one; combine(a, b) always has a from the earlier part of the range).
template <typename scalar_t, bool is_max, bool with_values>
struct ArgMinMaxOps {
  using acc_t = std::pair<at::opmath_type<scalar_t>, int64_t>;
  acc_t reduce(acc_t a, scalar_t b, int64_t idx) const {
    const auto v = static_cast<at::opmath_type<scalar_t>>(b);
    return (a.second < 0 || beats<is_max>(a.first, v)) ? acc_t(v, idx) : a;
  }
  acc_t combine(acc_t a, acc_t b) const {
    if (b.second < 0) return a;
    if (a.second < 0) return b;
    return beats<is_max>(a.first, b.first) ? b : a;
  }
  auto project(acc_t a) const {
    if constexpr (with_values) {
      return std::pair<scalar_t, int64_t>(static_cast<scalar_t>(a.first), a.second);
    } else {
      return a.second;
    }
  }
};
// [end marker: max_ops]

template <bool is_max>
void min_max_values_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, iter.dtype(0), is_max ? "max_all" : "min_all", [&] {
    using Ops = MinMaxValuesOps<scalar_t, is_max>;
    binary_kernel_reduce<scalar_t>(iter, Ops{}, lower_bound_init<typename Ops::acc_t, is_max>());
  });
}

template <bool is_max, bool with_values>
void arg_min_max_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, iter.input_dtype(), is_max ? "argmax_cpu" : "argmin_cpu", [&] {
    using Ops = ArgMinMaxOps<scalar_t, is_max, with_values>;
    using acc_t = typename Ops::acc_t;
    binary_kernel_reduce<scalar_t>(iter, Ops{}, acc_t(lower_bound_init<typename acc_t::first_type, is_max>(), -1));
  });
}

// [marker: welford]
// Welford's running mean and sum of squared deviations (m2), merged across threads with
// Chan et al.'s formula: one pass, and no catastrophic cancellation of E[x^2] - E[x]^2.
struct WelfordData {
  double mean = 0;
  double m2 = 0;
  int64_t n = 0;
};

// Complex values: the mean is complex, m2 the sum of |x - mean|^2 (a real number).
struct ComplexWelfordData {
  c10::complex<double> mean = 0;
  double m2 = 0;
  int64_t n = 0;
};

void complex_std_var_kernel(TensorIteratorBase& iter, double correction, bool take_sqrt) {
  AT_DISPATCH_COMPLEX_TYPES(iter.input_dtype(), "std_cpu", [&] {
    using real_t = typename scalar_t::value_type;
    using acc_t = c10::complex<double>;
    const int nout = iter.noutputs();
    reduce_rows<ComplexWelfordData>(
        iter, ComplexWelfordData{},
        [](ComplexWelfordData acc, char* p, int64_t s, int64_t n, int64_t) {
          for (int64_t i = 0; i < n; i++) {
            const acc_t x = static_cast<acc_t>(*reinterpret_cast<const scalar_t*>(p + i * s));
            acc.n += 1;
            const acc_t delta = x - acc.mean;
            acc.mean += delta / static_cast<double>(acc.n);
            const acc_t after = x - acc.mean;
            acc.m2 += delta.real() * after.real() + delta.imag() * after.imag();
          }
          return acc;
        },
        [](ComplexWelfordData a, ComplexWelfordData b) {
          if (a.n == 0) return b;
          if (b.n == 0) return a;
          ComplexWelfordData r;
          r.n = a.n + b.n;
          const acc_t delta = b.mean - a.mean;
          const double nb_over_n = static_cast<double>(b.n) / static_cast<double>(r.n);
          r.mean = a.mean + delta * nb_over_n;
          r.m2 = a.m2 + b.m2 + std::norm(delta) * static_cast<double>(a.n) * nb_over_n;
          return r;
        },
        [=](ComplexWelfordData acc, char* const* ptrs) {
          const double nan = std::numeric_limits<double>::quiet_NaN();
          const double divisor = std::max(0.0, static_cast<double>(acc.n) - correction);
          const double var = acc.n == 0 ? nan : acc.m2 / divisor;
          *reinterpret_cast<real_t*>(ptrs[0]) = static_cast<real_t>(take_sqrt ? std::sqrt(var) : var);
          if (nout == 2) {
            *reinterpret_cast<scalar_t*>(ptrs[1]) = acc.n == 0 ? scalar_t(nan, nan) : static_cast<scalar_t>(acc.mean);
          }
        });
  });
}

void std_var_kernel_impl(TensorIteratorBase& iter, double correction, bool take_sqrt) {
  if (isComplexType(iter.input_dtype())) {
    complex_std_var_kernel(iter, correction, take_sqrt);
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.input_dtype(), "std_cpu", [&] {
    const int nout = iter.noutputs();
    reduce_rows<WelfordData>(
        iter, WelfordData{},
        [](WelfordData acc, char* p, int64_t s, int64_t n, int64_t) {
          for (int64_t i = 0; i < n; i++) {
            const double x = static_cast<double>(*reinterpret_cast<const scalar_t*>(p + i * s));
            acc.n += 1;
            const double delta = x - acc.mean;
            acc.mean += delta / static_cast<double>(acc.n);
            acc.m2 += delta * (x - acc.mean);
          }
          return acc;
        },
        [](WelfordData a, WelfordData b) {
          if (a.n == 0) return b;
          if (b.n == 0) return a;
          WelfordData r;
          r.n = a.n + b.n;
          const double delta = b.mean - a.mean;
          const double nb_over_n = static_cast<double>(b.n) / static_cast<double>(r.n);
          r.mean = a.mean + delta * nb_over_n;
          r.m2 = a.m2 + b.m2 + delta * delta * static_cast<double>(a.n) * nb_over_n;
          return r;
        },
        [=](WelfordData acc, char* const* ptrs) {
          const double divisor = std::max(0.0, static_cast<double>(acc.n) - correction);
          double var = acc.n == 0 ? std::numeric_limits<double>::quiet_NaN() : acc.m2 / divisor;
          const double result = take_sqrt ? std::sqrt(var) : var;
          *reinterpret_cast<scalar_t*>(ptrs[0]) = static_cast<scalar_t>(result);
          if (nout == 2) {
            *reinterpret_cast<scalar_t*>(ptrs[1]) =
                static_cast<scalar_t>(acc.n == 0 ? std::numeric_limits<double>::quiet_NaN() : acc.mean);
          }
        });
  });
}
// [end marker: welford]

// [marker: norm_kernel]
// Vector p-norms: (sum |x|^p)^(1/p), with 0 (count of non-zeros), 1, 2, inf and -inf special.
void norm_kernel_impl(TensorIteratorBase& iter, double p) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.input_dtype(), "linalg_vector_norm_cpu", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    auto write = [](acc_t acc, char* const* ptrs) { *reinterpret_cast<scalar_t*>(ptrs[0]) = static_cast<scalar_t>(acc); };
    auto fold = [&](auto init, auto elem, auto combine, auto finish) {
      reduce_rows<acc_t>(
          iter, init,
          [&](acc_t acc, char* q, int64_t s, int64_t n, int64_t) {
            for (int64_t i = 0; i < n; i++) {
              acc = elem(acc, static_cast<acc_t>(*reinterpret_cast<const scalar_t*>(q + i * s)));
            }
            return acc;
          },
          combine, [&](acc_t acc, char* const* ptrs) { write(finish(acc), ptrs); });
    };
    auto plus = [](acc_t a, acc_t b) { return a + b; };
    auto same = [](acc_t a) { return a; };
    if (p == 0) {
      fold(acc_t(0), [](acc_t a, acc_t x) { return a + (x != 0 ? acc_t(1) : acc_t(0)); }, plus, same);
    } else if (p == 1) {
      fold(acc_t(0), [](acc_t a, acc_t x) { return a + std::abs(x); }, plus, same);
    } else if (p == 2) {
      fold(acc_t(0), [](acc_t a, acc_t x) { return a + x * x; }, plus, [](acc_t a) { return std::sqrt(a); });
    } else if (std::isinf(p)) {
      const bool is_max = p > 0;
      auto pick = [is_max](acc_t a, acc_t b) {
        if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<acc_t>::quiet_NaN();
        return is_max ? std::max(a, b) : std::min(a, b);
      };
      fold(is_max ? acc_t(0) : std::numeric_limits<acc_t>::infinity(),
           [pick](acc_t a, acc_t x) { return pick(a, std::abs(x)); }, pick, same);
    } else {
      const acc_t pp = static_cast<acc_t>(p);
      fold(acc_t(0), [pp](acc_t a, acc_t x) { return a + std::pow(std::abs(x), pp); }, plus,
           [pp](acc_t a) { return std::pow(a, acc_t(1) / pp); });
    }
  });
}
// [end marker: norm_kernel]

// [marker: cum_kernel]
// Scans: each row along dim is independent; rows are spread over threads. The running value
// is kept in double (floats), complex<double> (complex) or int64 (integers), as PyTorch's acc_type.
template <bool is_sum>
void cum_kernel(const Tensor& result, const Tensor& self, int64_t dim) {
  if (self.numel() == 0) {
    return;
  }
  const int64_t n = self.dim() == 0 ? 1 : self.size(dim);
  // Work on contiguous rows: the scanned dim last.
  Tensor src = (self.dim() == 0 ? self.view({1}) : self.movedim(dim, -1)).contiguous();
  Tensor dst = at::empty(src.sizes(), src.scalar_type(), std::nullopt, src.device(), std::nullopt, std::nullopt);
  const int64_t rows = src.numel() / n;
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16, src.scalar_type(), is_sum ? "cumsum_out_cpu" : "cumprod_out_cpu", [&] {
    using acc_t = std::conditional_t<c10::is_complex<scalar_t>::value, c10::complex<double>,
                                     std::conditional_t<std::is_integral_v<scalar_t>, int64_t, double>>;
    const scalar_t* in = src.data_ptr<scalar_t>();
    scalar_t* out = dst.data_ptr<scalar_t>();
    at::parallel_for(0, rows, std::max<int64_t>(1, at::internal::GRAIN_SIZE / n), [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; r++) {
        acc_t acc = is_sum ? acc_t(0) : acc_t(1);
        for (int64_t i = 0; i < n; i++) {
          const acc_t x = static_cast<acc_t>(in[r * n + i]);
          acc = is_sum ? acc + x : acc * x;
          out[r * n + i] = static_cast<scalar_t>(acc);
        }
      }
    });
  });
  result.copy_(self.dim() == 0 ? dst.view(IntArrayRef{}) : dst.movedim(-1, dim));
}
// [end marker: cum_kernel]

}  // namespace

REGISTER_DISPATCH(sum_stub, &sum_kernel_impl);
REGISTER_DISPATCH(prod_stub, &prod_kernel_impl);
REGISTER_DISPATCH(and_stub, &and_kernel_impl);
REGISTER_DISPATCH(or_stub, &or_kernel_impl);
REGISTER_DISPATCH(max_values_stub, &min_max_values_kernel<true>);
REGISTER_DISPATCH(min_values_stub, &min_max_values_kernel<false>);
REGISTER_DISPATCH(argmax_stub, (&arg_min_max_kernel<true, false>));
REGISTER_DISPATCH(argmin_stub, (&arg_min_max_kernel<false, false>));
REGISTER_DISPATCH(max_stub, (&arg_min_max_kernel<true, true>));
REGISTER_DISPATCH(min_stub, (&arg_min_max_kernel<false, true>));
REGISTER_DISPATCH(std_var_stub, &std_var_kernel_impl);
REGISTER_DISPATCH(norm_stub, &norm_kernel_impl);
REGISTER_DISPATCH(cumsum_stub, &cum_kernel<true>);
REGISTER_DISPATCH(cumprod_stub, &cum_kernel<false>);

}  // namespace at::native
