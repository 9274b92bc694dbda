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

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

namespace at::native {
namespace {

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

// Vectorized max/min. A GCC vector type applies the same operation to every lane with the same
// result on any instruction set. Its width is the target's register: 32 bytes in the AVX2
// build, 16 in the portable one (without AVX, GCC keeps a 32-byte vector in memory). The
// loops below return the same bits for any lane count (max is exact; where lanes could
// change a result - NaNs, zeros of two signs, ties - they recover the sequential answer),
// so the two builds still agree bit for bit. Used for float, double, int32 and int64; the
// other dtypes keep the scalar loops of binary_kernel_reduce.
#ifdef __AVX__
constexpr int64_t kVecBytes = 32;
#else
constexpr int64_t kVecBytes = 16;
#endif

template <typename scalar_t>
struct VecMinMax {
  static constexpr int64_t W = kVecBytes / sizeof(scalar_t);
  typedef scalar_t vec_t __attribute__((vector_size(kVecBytes)));
  // Integer lanes of scalar_t's width: a comparison's result (-1 true, 0 false), and the
  // type of an index per lane (int32 for float, int64 for double).
  using index_t = std::conditional_t<sizeof(scalar_t) == 4, int32_t, int64_t>;
  typedef index_t mask_t __attribute__((vector_size(kVecBytes)));

  static vec_t load(const char* p) {
    vec_t v;
    std::memcpy(&v, p, sizeof(v));
    return v;
  }
  static mask_t iota() {
    mask_t r;
    for (int64_t l = 0; l < W; l++) r[l] = static_cast<index_t>(l);
    return r;
  }
  // b beats a, lane by lane (beats in SharedReduceOps.h): b is larger (smaller for min), or b
  // is NaN and a is not. A NaN a is never beaten. With with_nan false, the comparison alone:
  // the same answer where no lane holds a NaN.
  template <bool is_max, bool with_nan = true>
  static mask_t beats(vec_t a, vec_t b) {
    mask_t better;
    if constexpr (is_max) {
      better = b > a;
    } else {
      better = b < a;
    }
    if constexpr (with_nan && std::is_floating_point_v<scalar_t>) {
      better |= (b != b) & (a == a);
    }
    return better;
  }
};

template <typename scalar_t>
constexpr bool has_vec_minmax = std::is_same_v<scalar_t, float> || std::is_same_v<scalar_t, double> ||
                                std::is_same_v<scalar_t, int32_t> || std::is_same_v<scalar_t, int64_t>;

// The first element of x[0, n) that equals m (NaN: the first NaN): the element a sequential
// max returns, since a later equal value never beats an earlier one (0.0 and -0.0 are equal).
template <typename scalar_t>
scalar_t first_equal(const scalar_t* x, int64_t n, scalar_t m) {
  for (int64_t i = 0; i < n; i++) {
    if (x[i] == m || (m != m && x[i] != x[i])) return x[i];
  }
  return m;
}

// amax/amin of a contiguous row (n >= 4 * W): four vector accumulators, so that no step waits
// for the previous compare. Lanes fold elements out of order, which max does not mind except
// for two cases: a NaN (the result is the row's first NaN, found again) and a zero (0.0 and
// -0.0 compare equal: the result is the first zero of the row, as the sequential loop gives).
template <typename scalar_t, bool is_max>
scalar_t vec_row_minmax(const scalar_t* x, int64_t n) {
  using V = VecMinMax<scalar_t>;
  using vec_t = typename V::vec_t;
  using mask_t = typename V::mask_t;
  constexpr int64_t W = V::W;
  constexpr int K = 4;
  vec_t a[K];
  mask_t nan = mask_t{};
  for (int k = 0; k < K; k++) {
    a[k] = V::load(reinterpret_cast<const char*>(x + k * W));
    nan |= a[k] != a[k];
  }
  int64_t i = K * W;
  for (; i + K * W <= n; i += K * W) {
    for (int k = 0; k < K; k++) {
      const vec_t v = V::load(reinterpret_cast<const char*>(x + i + k * W));
      if constexpr (is_max) {
        a[k] = v > a[k] ? v : a[k];
      } else {
        a[k] = v < a[k] ? v : a[k];
      }
      if constexpr (std::is_floating_point_v<scalar_t>) nan |= v != v;
    }
  }
  // Fold the accumulators lane by lane, then the lanes as a tree: a chain of K * W scalar
  // compares cost as much as a short row's loop.
  for (int k = 1; k < K; k++) {
    if constexpr (is_max) {
      a[0] = a[k] > a[0] ? a[k] : a[0];
    } else {
      a[0] = a[k] < a[0] ? a[k] : a[0];
    }
  }
  scalar_t lanes[W];
  bool any_nan = false;
  for (int64_t l = 0; l < W; l++) {
    lanes[l] = a[0][l];
    any_nan |= nan[l] != 0;
  }
  for (int64_t w = W / 2; w > 0; w /= 2) {
    for (int64_t l = 0; l < w; l++) {
      if (is_max ? lanes[l + w] > lanes[l] : lanes[l + w] < lanes[l]) lanes[l] = lanes[l + w];
    }
  }
  scalar_t m = lanes[0];
  for (; i < n; i++) {
    const scalar_t v = x[i];
    any_nan |= v != v;
    if (is_max ? v > m : v < m) m = v;
  }
  if constexpr (std::is_floating_point_v<scalar_t>) {
    if (any_nan) return first_equal(x, n, std::numeric_limits<scalar_t>::quiet_NaN());
    if (m == 0) return first_equal(x, n, m);
  }
  return m;
}

// [marker: vec_row_arg]
// max(dim)/argmax of a contiguous row (4 * W <= n < 2^31): each lane keeps the best value of
// its own elements and the index of its first occurrence (lane by lane the order is
// sequential, so ties keep the earlier index); two sets of lanes run side by side. The
// lanes are then merged: the best value, and among equal values (or NaNs) the smallest index.
template <typename scalar_t, bool is_max>
std::pair<scalar_t, int64_t> vec_row_arg(const scalar_t* x, int64_t n) {
  using V = VecMinMax<scalar_t>;
  using vec_t = typename V::vec_t;
  using mask_t = typename V::mask_t;
  constexpr int64_t W = V::W;
  constexpr int K = 2;
  vec_t a[K];
  mask_t index[K], cur[K];
  for (int k = 0; k < K; k++) {
    a[k] = V::load(reinterpret_cast<const char*>(x + k * W));
    index[k] = cur[k] = V::iota() + static_cast<typename V::index_t>(k * W);
  }
  int64_t i = K * W;
  for (; i + K * W <= n; i += K * W) {
    for (int k = 0; k < K; k++) {
      cur[k] += static_cast<typename V::index_t>(K * W);
      const vec_t v = V::load(reinterpret_cast<const char*>(x + i + k * W));
      const mask_t take = V::template beats<is_max>(a[k], v);
      a[k] = take ? v : a[k];
      index[k] = take ? cur[k] : index[k];
    }
  }
  scalar_t best = a[0][0];
  int64_t best_index = index[0][0];
  for (int k = 0; k < K; k++) {
    for (int64_t l = 0; l < W; l++) {
      const scalar_t v = a[k][l];
      const int64_t j = index[k][l];
      const bool same = v == best || (v != v && best != best);
      if (beats<is_max>(best, v) || (same && j < best_index)) {
        best = v;
        best_index = j;
      }
    }
  }
  // The tail comes after every lane's elements: a sequential fold keeps the earlier index.
  for (; i < n; i++) {
    if (beats<is_max>(best, x[i])) {
      best = x[i];
      best_index = i;
    }
  }
  return {best, best_index};
}
// [end marker: vec_row_arg]

// Vertical max/min: neighbouring outputs (columns), each the max of its nrows elements
// row_stride bytes apart. One lane per column, K vectors of columns per pass over the rows:
// each column's elements are folded in order, so the results (and indices: the first
// occurrence) are those of the sequential loop. with_index: index_t lanes, so at most 2^30
// rows per call.
//
// The pass first runs with a plain comparison (with_nan false) and notes whether it met a
// NaN; only then is the block folded again with NaN-aware beats. The NaN test is off the
// dependency chain from one row to the next, which the NaN-aware compare-and-blend
// lengthens; the chain, more than the memory, bounded this loop.
constexpr int64_t kColumnPrefetchRows = 16;

template <typename scalar_t, bool is_max, bool with_index, bool with_nan, int K>
bool vec_cols_fold(const char* in, int64_t row_stride, int64_t nrows, scalar_t* values, int64_t* indices) {
  using V = VecMinMax<scalar_t>;
  using vec_t = typename V::vec_t;
  using mask_t = typename V::mask_t;
  constexpr int64_t W = V::W;
  constexpr int64_t kRowBytes = K * kVecBytes;
  vec_t a[K];
  mask_t index[K];
  mask_t nan = mask_t{};
  for (int k = 0; k < K; k++) {
    a[k] = V::load(in + k * kVecBytes);
    index[k] = mask_t{};
    nan |= a[k] != a[k];
  }
  mask_t cur = mask_t{};
  for (int64_t r = 1; r < nrows; r++) {
    const char* row = in + r * row_stride;
    // Each row gives this block only kRowBytes, far from the last row's: the hardware
    // prefetcher does not follow, so the rows a few steps ahead are asked for.
    if (r + kColumnPrefetchRows < nrows) {
      for (int64_t b = 0; b < kRowBytes; b += 64) __builtin_prefetch(row + kColumnPrefetchRows * row_stride + b);
    }
    cur += 1;
    for (int k = 0; k < K; k++) {
      const vec_t v = V::load(row + k * kVecBytes);
      const mask_t take = V::template beats<is_max, with_nan>(a[k], v);
      a[k] = take ? v : a[k];
      if constexpr (with_index) index[k] = take ? cur : index[k];
      if constexpr (!with_nan && std::is_floating_point_v<scalar_t>) nan |= v != v;
    }
  }
  bool any_nan = false;
  for (int64_t l = 0; l < W; l++) any_nan |= nan[l] != 0;
  if (!with_nan && any_nan) return false;
  for (int k = 0; k < K; k++) {
    for (int64_t l = 0; l < W; l++) {
      values[k * W + l] = a[k][l];
      if constexpr (with_index) indices[k * W + l] = index[k][l];
    }
  }
  return true;
}

// The column function of reduce_rows for the ops `ops` (values only, or value and index).
template <typename scalar_t, bool is_max, bool with_index, typename ops_t, typename acc_t>
void vec_cols_minmax(const ops_t& ops, acc_t init, const char* in, int64_t row_stride, int64_t nrows,
                     int64_t ncols, acc_t* results) {
  using V = VecMinMax<scalar_t>;
  constexpr int64_t W = V::W;
  // Values alone take 8 vectors a pass; with indices, 4 (and 4 more for the indices) fit the
  // 16 registers.
  constexpr int kWide = with_index ? 4 : 8;
  constexpr int64_t kMaxRows = int64_t{1} << 30;  // the rows one call of vec_cols_fold may index
  scalar_t values[kWide * W];
  int64_t indices[kWide * W];
  auto fold = [&](auto k_tag, int64_t j) {
    constexpr int K = decltype(k_tag)::value;
    for (int64_t r0 = 0; r0 < nrows; r0 += kMaxRows) {
      const int64_t rows = std::min(kMaxRows, nrows - r0);
      const char* block = in + r0 * row_stride + j * sizeof(scalar_t);
      if (!vec_cols_fold<scalar_t, is_max, with_index, false, K>(block, row_stride, rows, values, indices)) {
        vec_cols_fold<scalar_t, is_max, with_index, true, K>(block, row_stride, rows, values, indices);
      }
      for (int64_t c = 0; c < K * W; c++) {
        acc_t part;
        if constexpr (with_index) {
          part = acc_t(values[c], r0 + indices[c]);
        } else {
          part = values[c];
        }
        results[j + c] = r0 == 0 ? part : ops.combine(results[j + c], part);
      }
    }
  };
  int64_t j = 0;
  for (; j + kWide * W <= ncols; j += kWide * W) fold(std::integral_constant<int, kWide>{}, j);
  // A narrower block (a thread's share of few columns) still takes several vectors a pass.
  for (; j + 4 * W <= ncols; j += 4 * W) fold(std::integral_constant<int, 4>{}, j);
  for (; j + W <= ncols; j += W) fold(std::integral_constant<int, 1>{}, j);
  for (; j < ncols; j++) {
    acc_t acc = init;
    const char* p = in + j * sizeof(scalar_t);
    for (int64_t r = 0; r < nrows; r++) acc = ops.reduce(acc, *reinterpret_cast<const scalar_t*>(p + r * row_stride), r);
    results[j] = acc;
  }
}

// The rows vec_row_arg may index (index_t lanes), and the shortest row worth vectorizing.
constexpr int64_t kMaxVecRow = int64_t{1} << 30;
template <typename scalar_t>
constexpr int64_t min_vec_row() {
  return 4 * VecMinMax<scalar_t>::W;
}

template <typename scalar_t, bool is_max>
void min_max_values_loop(TensorIteratorBase& iter) {
  using Ops = MinMaxValuesOps<scalar_t, is_max>;
  using acc_t = typename Ops::acc_t;
  const acc_t init = lower_bound_init<acc_t, is_max>();
  if constexpr (has_vec_minmax<scalar_t>) {
    const Ops ops{};
    reduce_rows<acc_t>(
        iter, init,
        [&ops](acc_t acc, char* p, int64_t s, int64_t n, int64_t) {
          if (s == sizeof(scalar_t) && n >= min_vec_row<scalar_t>()) {
            return ops.combine(acc, vec_row_minmax<scalar_t, is_max>(reinterpret_cast<const scalar_t*>(p), n));
          }
          for (int64_t i = 0; i < n; i++) acc = ops.reduce(acc, *reinterpret_cast<const scalar_t*>(p + i * s), i);
          return acc;
        },
        [&ops](acc_t a, acc_t b) { return ops.combine(a, b); },
        [&ops](acc_t acc, char* const* ptrs) { reduce_detail::set_results(ops.project(acc), ptrs); },
        sizeof(scalar_t),
        [&ops, init](const char* in, int64_t row_stride, int64_t nrows, int64_t ncols, acc_t* results) {
          vec_cols_minmax<scalar_t, is_max, false>(ops, init, in, row_stride, nrows, ncols, results);
        });
  } else {
    binary_kernel_reduce<scalar_t>(iter, Ops{}, init);
  }
}

template <typename scalar_t, bool is_max, bool with_values>
void arg_min_max_loop(TensorIteratorBase& iter) {
  using Ops = ArgMinMaxOps<scalar_t, is_max, with_values>;
  using acc_t = typename Ops::acc_t;
  const acc_t init(lower_bound_init<typename acc_t::first_type, is_max>(), -1);
  if constexpr (has_vec_minmax<scalar_t>) {
    const Ops ops{};
    reduce_rows<acc_t>(
        iter, init,
        [&ops](acc_t acc, char* p, int64_t s, int64_t n, int64_t idx) {
          const scalar_t* x = reinterpret_cast<const scalar_t*>(p);
          if (s == sizeof(scalar_t) && n >= min_vec_row<scalar_t>()) {
            // Pieces of at most kMaxVecRow elements, merged in order (combine keeps the earlier).
            for (int64_t i = 0; i < n; i += kMaxVecRow) {
              const int64_t len = std::min(kMaxVecRow, n - i);
              if (len < min_vec_row<scalar_t>()) {
                for (int64_t k = i; k < n; k++) acc = ops.reduce(acc, x[k], idx + k);
                break;
              }
              const auto best = vec_row_arg<scalar_t, is_max>(x + i, len);
              acc = ops.combine(acc, acc_t(best.first, idx + i + best.second));
            }
            return acc;
          }
          for (int64_t i = 0; i < n; i++) acc = ops.reduce(acc, *reinterpret_cast<const scalar_t*>(p + i * s), idx + i);
          return acc;
        },
        [&ops](acc_t a, acc_t b) { return ops.combine(a, b); },
        [&ops](acc_t acc, char* const* ptrs) { reduce_detail::set_results(ops.project(acc), ptrs); },
        sizeof(scalar_t),
        [&ops, init](const char* in, int64_t row_stride, int64_t nrows, int64_t ncols, acc_t* results) {
          vec_cols_minmax<scalar_t, is_max, true>(ops, init, in, row_stride, nrows, ncols, results);
        });
  } else {
    binary_kernel_reduce<scalar_t>(iter, Ops{}, init);
  }
}

template <bool is_max>
void min_max_values_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, iter.dtype(0), is_max ? "max_all" : "min_all",
                             [&] { min_max_values_loop<scalar_t, is_max>(iter); });
}

template <bool is_max, bool with_values>
void arg_min_max_kernel(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, iter.input_dtype(), is_max ? "argmax_cpu" : "argmin_cpu",
                             [&] { arg_min_max_loop<scalar_t, is_max, with_values>(iter); });
}

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
