// aten/src/ATen/native/cpu/Reduce.h - binary_kernel_reduce: fold a reduction's TensorIterator.
// Mirrors PyTorch's aten/src/ATen/native/cpu/Reduce.h. Guide: docs/source/internals/tensor_iterator.rst
// ("Reductions").
//
// A reduction iterator (TensorIterator::reduce_op) has the output's stride 0 in the reduced
// dimensions, and reorder_dimensions put those dimensions first (innermost). ReduceLayout
// splits the iteration space into the kept dims (one output element each) and the reduced
// dims (the elements folded into it). The kernel supplies ops, as in PyTorch:
//
//   acc_t reduce(acc_t acc, scalar_t value, int64_t index)   fold in one element
//   acc_t combine(acc_t a, acc_t b)                           merge two partial results
//   project(acc_t acc)                                         the value(s) written out
//
// Threads: with many output elements each thread takes a range of them; with few (a full
// reduction) the reduced range is split, each thread folds its part, and the partial results
// are combined in order (so argmax still returns the first maximum).
//
// Columns: when the reduced dimension is an outer one (x.max(dim=0) of a contiguous matrix),
// folding one output at a time walks the input with a large stride, one element per cache
// line. A kernel may pass a column function instead, which folds a block of neighbouring
// outputs together, a contiguous run of each input row at a time ("vertical" reduction,
// reduce_rows below).
#pragma once

#include <ATen/Parallel.h>
#include <ATen/TensorIterator.h>

#include <algorithm>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace at::native {

struct ReduceLayout {
  explicit ReduceLayout(const TensorIteratorBase& iter) : ntensors(iter.ntensors()) {
    for (int d = 0; d < iter.ndim(); d++) {
      const int64_t size = iter.shape()[d];
      if (size == 1) {
        continue;
      }
      auto& shape = iter.is_dim_reduced(d) ? rshape : kshape;
      auto& strides = iter.is_dim_reduced(d) ? rstrides : kstrides;
      shape.push_back(size);
      for (int t = 0; t < ntensors; t++) {
        strides.push_back(iter.strides(t)[d]);
      }
    }
    for (int64_t s : kshape) num_outputs *= s;
    for (int64_t s : rshape) reduce_size *= s;
    base = iter.get_base_ptrs();
  }

  // Whether a block of neighbouring outputs reads a contiguous run of each input row: a single
  // reduced dimension, and the innermost kept dimension steps through the input element by
  // element (while the reduced one does not: then a row is contiguous and row_fn is better).
  bool columns_are_contiguous(int arg, int64_t elem_size) const {
    return rshape.size() == 1 && !kshape.empty() && kstrides[arg] == elem_size && rstrides[arg] != elem_size;
  }

  // Pointers of every operand at kept (output) element `linear`.
  void output_ptrs(int64_t linear, char** ptrs) const {
    for (int t = 0; t < ntensors; t++) ptrs[t] = base[t];
    for (size_t d = 0; d < kshape.size(); d++) {
      const int64_t i = linear % kshape[d];
      linear /= kshape[d];
      for (int t = 0; t < ntensors; t++) ptrs[t] += i * kstrides[d * ntensors + t];
    }
  }

  // Walk reduced elements [begin, end) from the operand pointers `ptrs`, one row (reduced
  // dim 0) at a time: f(char* input_row, int64_t byte_stride, int64_t n, int64_t first_index).
  template <typename F>
  void for_each_row(const char* const* ptrs, int arg, int64_t begin, int64_t end, const F& f) const {
    if (rshape.empty()) {
      if (begin < end) f(const_cast<char*>(ptrs[arg]), 0, 1, 0);
      return;
    }
    const int64_t row = rshape[0];
    const int64_t stride0 = rstrides[arg];
    int64_t pos = begin;
    while (pos < end) {
      int64_t rest = pos / row;
      const int64_t i0 = pos % row;
      char* p = const_cast<char*>(ptrs[arg]) + i0 * stride0;
      for (size_t d = 1; d < rshape.size(); d++) {
        p += (rest % rshape[d]) * rstrides[d * ntensors + arg];
        rest /= rshape[d];
      }
      const int64_t n = std::min(row - i0, end - pos);
      f(p, stride0, n, pos);
      pos += n;
    }
  }

  int ntensors;
  std::vector<int64_t> kshape, rshape, kstrides, rstrides;
  int64_t num_outputs = 1;
  int64_t reduce_size = 1;
  std::vector<char*> base;
};

namespace reduce_detail {

template <typename T>
struct is_tuple : std::false_type {};
template <typename... Ts>
struct is_tuple<std::tuple<Ts...>> : std::true_type {};
template <typename A, typename B>
struct is_tuple<std::pair<A, B>> : std::true_type {};

template <typename res_t>
inline void set_results(const res_t& result, char* const* out_ptrs) {
  if constexpr (is_tuple<res_t>::value) {
    using T0 = std::tuple_element_t<0, res_t>;
    using T1 = std::tuple_element_t<1, res_t>;
    *reinterpret_cast<T0*>(out_ptrs[0]) = std::get<0>(result);
    *reinterpret_cast<T1*>(out_ptrs[1]) = std::get<1>(result);
  } else {
    *reinterpret_cast<res_t*>(out_ptrs[0]) = result;
  }
}

}  // namespace reduce_detail

// Fold the reduced range [begin, end) of one output element into acc, with a row function
// row_fn(acc, char* row, byte_stride, n, first_index) -> acc.
template <typename acc_t, typename row_fn_t>
acc_t reduce_range(const ReduceLayout& L, const char* const* ptrs, int in_arg, int64_t begin, int64_t end, acc_t acc,
                   const row_fn_t& row_fn) {
  L.for_each_row(ptrs, in_arg, begin, end, [&](char* p, int64_t s, int64_t n, int64_t idx) {
    acc = row_fn(acc, p, s, n, idx);
  });
  return acc;
}

// [marker: reduce_columns]
// The outputs in blocks of neighbouring columns, each block folded by cols_fn (see reduce_rows)
// and then written one by one. A block never runs past the end of the innermost kept
// dimension: the output after it starts elsewhere in the input.
constexpr int64_t kReduceColumnBlock = 64;

template <typename acc_t, typename write_t, typename cols_fn_t>
void reduce_columns(const ReduceLayout& L, int in_arg, int64_t out_grain, const write_t& write,
                    const cols_fn_t& cols_fn) {
  const int64_t ncols = L.kshape[0];
  at::parallel_for(0, L.num_outputs, out_grain, [&](int64_t begin, int64_t end) {
    std::vector<char*> ptrs(L.ntensors), col(L.ntensors);
    acc_t results[kReduceColumnBlock];
    for (int64_t o = begin; o < end;) {
      L.output_ptrs(o, ptrs.data());
      const int64_t nc = std::min({kReduceColumnBlock, ncols - o % ncols, end - o});
      cols_fn(ptrs[in_arg], L.rstrides[in_arg], L.reduce_size, nc, results);
      for (int64_t j = 0; j < nc; j++) {
        for (int t = 0; t < L.ntensors; t++) col[t] = ptrs[t] + j * L.kstrides[t];
        write(results[j], col.data());
      }
      o += nc;
    }
  });
}
// [end marker: reduce_columns]

// The engine: row_fn folds one row, combine merges partial results, project_write stores one
// output element. Everything else (which output, which thread) is decided here.
//
// cols_fn (optional; nullptr when the kernel has none) folds kReduceColumnBlock or fewer
// neighbouring outputs at once: cols_fn(const char* in, int64_t row_stride, int64_t nrows,
// int64_t ncols, acc_t* results), with column j of row r at in + r * row_stride + j * elem_size.
// It is used when ReduceLayout::columns_are_contiguous.
template <typename acc_t, typename row_fn_t, typename combine_t, typename write_t, typename cols_fn_t = std::nullptr_t>
void reduce_rows(TensorIteratorBase& iter, acc_t init, const row_fn_t& row_fn, const combine_t& combine,
                 const write_t& write, int64_t elem_size = 0, const cols_fn_t& cols_fn = nullptr) {
  ReduceLayout L(iter);
  const int nout = iter.noutputs();
  const int in_arg = nout;
  if (L.num_outputs == 0) {
    return;
  }
  const int64_t grain = at::internal::GRAIN_SIZE;
  const int64_t out_grain = std::max<int64_t>(1, grain / std::max<int64_t>(1, L.reduce_size));
  if constexpr (!std::is_same_v<cols_fn_t, std::nullptr_t>) {
    if (L.columns_are_contiguous(in_arg, elem_size)) {
      reduce_columns<acc_t>(L, in_arg, out_grain, write, cols_fn);
      return;
    }
  }
  if (L.num_outputs > 1 || L.reduce_size < 2 * grain || at::get_num_threads() == 1) {
    // Parallel over output elements, each reduced serially.
    at::parallel_for(0, L.num_outputs, out_grain, [&](int64_t begin, int64_t end) {
      std::vector<char*> ptrs(L.ntensors);
      for (int64_t o = begin; o < end; o++) {
        L.output_ptrs(o, ptrs.data());
        acc_t acc = reduce_range(L, ptrs.data(), in_arg, 0, L.reduce_size, init, row_fn);
        write(acc, ptrs.data());
      }
    });
    return;
  }
  // One output element, a long reduction: split it across threads, then combine in order.
  std::vector<char*> ptrs(L.ntensors);
  L.output_ptrs(0, ptrs.data());
  const int nthreads = at::get_num_threads();
  const int64_t chunk = at::divup(L.reduce_size, nthreads);
  std::vector<acc_t> partial(nthreads, init);
  at::parallel_for(0, nthreads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; t++) {
      const int64_t lo = t * chunk;
      const int64_t hi = std::min(L.reduce_size, lo + chunk);
      if (lo < hi) {
        partial[t] = reduce_range(L, ptrs.data(), in_arg, lo, hi, init, row_fn);
      }
    }
  });
  acc_t acc = partial[0];
  for (int t = 1; t < nthreads; t++) {
    if (t * chunk < L.reduce_size) acc = combine(acc, partial[t]);
  }
  write(acc, ptrs.data());
}

// PyTorch's interface: ops.reduce(acc, value, index), ops.combine(a, b), ops.project(acc).
//
// Ops that declare `static constexpr bool any_order = true` (amax/amin: max is associative,
// commutative and idempotent, so neither the order nor a repeated operand changes the result)
// fold a run with four accumulators side by side: a single accumulator makes every step wait
// for the previous compare, four keep the CPU busy (2-4x for a float amax along a row).
template <typename ops_t, typename = void>
struct reduces_in_any_order : std::false_type {};
template <typename ops_t>
struct reduces_in_any_order<ops_t, std::enable_if_t<ops_t::any_order>> : std::true_type {};

template <typename scalar_t, typename ops_t, typename acc_t>
void binary_kernel_reduce(TensorIteratorBase& iter, ops_t ops, acc_t init) {
  reduce_rows<acc_t>(
      iter, init,
      [&ops](acc_t acc, char* p, int64_t s, int64_t n, int64_t idx) {
        if constexpr (reduces_in_any_order<ops_t>::value) {
          acc_t a1 = acc, a2 = acc, a3 = acc;
          int64_t i = 0;
          for (; i + 4 <= n; i += 4) {
            acc = ops.reduce(acc, *reinterpret_cast<const scalar_t*>(p + i * s), idx + i);
            a1 = ops.reduce(a1, *reinterpret_cast<const scalar_t*>(p + (i + 1) * s), idx + i + 1);
            a2 = ops.reduce(a2, *reinterpret_cast<const scalar_t*>(p + (i + 2) * s), idx + i + 2);
            a3 = ops.reduce(a3, *reinterpret_cast<const scalar_t*>(p + (i + 3) * s), idx + i + 3);
          }
          for (; i < n; i++) {
            acc = ops.reduce(acc, *reinterpret_cast<const scalar_t*>(p + i * s), idx + i);
          }
          return ops.combine(ops.combine(acc, a1), ops.combine(a2, a3));
        }
        for (int64_t i = 0; i < n; i++) {
          acc = ops.reduce(acc, *reinterpret_cast<const scalar_t*>(p + i * s), idx + i);
        }
        return acc;
      },
      [&ops](acc_t a, acc_t b) { return ops.combine(a, b); },
      [&ops](acc_t acc, char* const* ptrs) { reduce_detail::set_results(ops.project(acc), ptrs); });
}

}  // namespace at::native
