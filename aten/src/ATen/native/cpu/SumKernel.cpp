// aten/src/ATen/native/cpu/SumKernel.cpp - PyTorch's cascade sum for float and double: the
// same additions in the same order, so sums and means print PyTorch's digits.
// Mirrors PyTorch's aten/src/ATen/native/cpu/SumKernel.cpp (cascade_sum) and the thread
// split of aten/src/ATen/TensorIteratorReduce.cpp (parallel_reduce).
// Guide: docs/source/internals/programs/random_streams.rst ("The cascade sum").
//
// A float sum's last digits depend on the order of its additions. PyTorch's x86 kernel adds
// in 8 float (4 double) lanes - one AVX2 register - with four registers in flight, and folds
// the partial sums level by level (a cascade: error grows like log n, not n). Each lane here
// is a lane of a GCC vector type (Lanes): the additions, and so the roundings, are PyTorch's.
#include <ATen/native/cpu/SumKernel.h>

#include <ATen/Parallel.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace at::native {
namespace {

// [marker: sum_lanes]
// W lanes of acc_t: PyTorch's Vectorized<acc_t> on AVX2 (32 bytes). The lanes are GCC vector
// types, not an array of acc_t: an array lives in memory, and every addition became a load,
// an add and a store. A vector type is one IEEE addition per lane, so the roundings are the
// same on any instruction set, and it stays in registers - if the target has registers of
// its width: without AVX, GCC keeps a 32-byte vector in memory too, so the portable build
// holds the 32 bytes as two 16-byte (SSE) halves.
template <typename acc_t>
struct Lanes {
  static constexpr int64_t W = 32 / sizeof(acc_t);
#ifdef __AVX__
  static constexpr int64_t kParts = 1;
#else
  static constexpr int64_t kParts = 2;
#endif
  static constexpr int64_t kPartLanes = W / kParts;
  typedef acc_t part_t __attribute__((vector_size(32 / kParts)));
  part_t part[kParts];
  Lanes() {
#pragma GCC unroll 2
    for (auto& p : part) p = part_t{};
  }
  Lanes& operator+=(const Lanes& o) {
#pragma GCC unroll 2
    for (int64_t p = 0; p < kParts; p++) part[p] += o.part[p];
    return *this;
  }
  acc_t operator[](int64_t l) const { return part[l / kPartLanes][l % kPartLanes]; }
};

// Loads: element k of a row starting at base, k steps of stride bytes apart.
template <typename acc_t>
struct ScalarLoad {
  using value_t = acc_t;
  acc_t operator()(const char* base, int64_t stride, int64_t k) const {
    acc_t x;
    std::memcpy(&x, base + k * stride, sizeof(acc_t));
    return x;
  }
};

// W consecutive elements starting at base + k * stride (an unaligned vector load).
template <typename acc_t>
struct VecLoad {
  using value_t = Lanes<acc_t>;
  Lanes<acc_t> operator()(const char* base, int64_t stride, int64_t k) const {
    Lanes<acc_t> r;
#pragma GCC unroll 2
    for (int64_t p = 0; p < Lanes<acc_t>::kParts; p++) {
      typename Lanes<acc_t>::part_t x;  // a load straight into a register, not through the stack
      std::memcpy(&x, base + k * stride + p * sizeof(x), sizeof(x));
      r.part[p] = x;
    }
    return r;
  }
};
// [end marker: sum_lanes]

inline int64_t ceil_log2(int64_t x) {
  if (x <= 2) return 1;
  int64_t v = x - 1, bits = 0;
  while (v) {
    v >>= 1;
    bits++;
  }
  return bits;
}

// [marker: multi_row_sum]
// nrows independent sums over `size` steps (step i reads row i * row_stride, column k at
// col_stride * k). Four levels of accumulators: level 0 takes 2^p loads, then is added into
// level 1 and cleared; level 1 passes into level 2 every 2^p of those, and so on - a
// pairwise tree with fan-out 2^p (p >= 4) instead of 2.
//
// Level 0 is its own array, apart from the upper levels: every load is added into it, so it
// must stay in registers, and an array that the cascade indexes with a variable level stays
// in memory (each addition then a load, an add and a store). The upper levels are touched
// once every 2^p steps and may live in memory.
template <int64_t nrows, typename load_t>
std::array<typename load_t::value_t, nrows> multi_row_sum(const char* in_data, int64_t row_stride, int64_t col_stride,
                                                          int64_t size, const load_t& load) {
  using value_t = typename load_t::value_t;
  constexpr int64_t num_levels = 4;
  const int64_t level_power = std::max<int64_t>(4, ceil_log2(size) / num_levels);
  const int64_t level_step = int64_t{1} << level_power;
  const int64_t level_mask = level_step - 1;

  value_t acc0[nrows];
  value_t upper[num_levels - 1][nrows];  // upper[j - 1] is level j
  for (auto& a : acc0) a = value_t();
  for (auto& level : upper)
    for (auto& a : level) a = value_t();

  int64_t i = 0;
  for (; i + level_step <= size;) {
    for (int64_t j = 0; j < level_step; ++j, ++i) {
      const char* sum_base = in_data + i * row_stride;
#pragma GCC unroll 8
      for (int64_t k = 0; k < nrows; k++) acc0[k] += load(sum_base, col_stride, k);
    }
#pragma GCC unroll 8
    for (int64_t k = 0; k < nrows; k++) {
      upper[0][k] += acc0[k];
      acc0[k] = value_t();
    }
    if ((i & (level_mask << level_power)) != 0) continue;
    for (int64_t j = 2; j < num_levels; ++j) {
      for (int64_t k = 0; k < nrows; k++) {
        upper[j - 1][k] += upper[j - 2][k];
        upper[j - 2][k] = value_t();
      }
      if ((i & (level_mask << (j * level_power))) != 0) break;
    }
  }
  for (; i < size; ++i) {
    const char* sum_base = in_data + i * row_stride;
#pragma GCC unroll 8
    for (int64_t k = 0; k < nrows; k++) acc0[k] += load(sum_base, col_stride, k);
  }
  std::array<value_t, nrows> ret;
  for (int64_t k = 0; k < nrows; k++) {
    ret[k] = acc0[k];
    for (int64_t j = 0; j < num_levels - 1; ++j) ret[k] += upper[j][k];
  }
  return ret;
}
// [end marker: multi_row_sum]

// One sum of `size` elements: read as (size / 4, 4) so four chains run side by side, the
// leftover elements are added to chain 0, then the chains are added in order.
template <typename load_t>
typename load_t::value_t row_sum(const char* in_data, int64_t in_stride, int64_t size, const load_t& load) {
  constexpr int64_t ilp_factor = 4;
  const int64_t size_ilp = size / ilp_factor;
  auto partial = multi_row_sum<ilp_factor>(in_data, in_stride * ilp_factor, in_stride, size_ilp, load);
  for (int64_t i = size_ilp * ilp_factor; i < size; ++i) partial[0] += load(in_data, in_stride, i);
  for (int64_t k = 1; k < ilp_factor; k++) partial[0] += partial[k];
  return partial[0];
}

template <typename acc_t>
inline void store_add(char* out, int64_t out_stride, int64_t j, acc_t value) {
  acc_t* p = reinterpret_cast<acc_t*>(out + j * out_stride);
  *p += value;
}

template <typename acc_t>
inline void store_add(char* out, int64_t out_stride, int64_t j, const Lanes<acc_t>& value) {
  for (int64_t l = 0; l < Lanes<acc_t>::W; l++) store_add(out, out_stride, j + l, value[l]);
}

// The 2-D loop: size0 x size1 elements, strides in bytes (output, input) per dimension.
// After the swap the reduction runs along dimension 0; each of the size1 results is added
// into its output element (which starts at 0).
template <typename acc_t>
void cascade_sum_loop(char** data, const int64_t* strides, int64_t size0, int64_t size1) {
  constexpr int64_t W = Lanes<acc_t>::W;
  int64_t in_strides[] = {strides[1], strides[3]};
  int64_t out_strides[] = {strides[0], strides[2]};
  if (out_strides[0] != 0 && out_strides[1] == 0) {
    std::swap(in_strides[0], in_strides[1]);
    std::swap(out_strides[0], out_strides[1]);
    std::swap(size0, size1);
  }
  const ScalarLoad<acc_t> scalar_load;
  const VecLoad<acc_t> vec_load;
  if (out_strides[0] != 0 && out_strides[1] != 0) {
    // Not a reduction along either dimension: out += in elementwise.
    for (int64_t j = 0; j < size1; j++)
      for (int64_t i = 0; i < size0; i++)
        store_add(data[0] + j * out_strides[1], out_strides[0], i,
                  scalar_load(data[1] + j * in_strides[1], in_strides[0], i));
    return;
  }
  const int64_t out_stride = out_strides[1];
  constexpr int64_t elem = sizeof(acc_t);
  if (in_strides[0] == elem && size0 >= W) {
    // Contiguous rows: W-lane chains over each row, its tail, then the lanes.
    const int64_t vec_stride = W * elem;
    const int64_t vec_size = size0 / W;
    for (int64_t j = 0; j < size1; j++) {
      const char* row_in = data[1] + j * in_strides[1];
      const Lanes<acc_t> vec_acc = row_sum(row_in, vec_stride, vec_size, vec_load);
      acc_t final_acc = 0;
      for (int64_t k = vec_size * W; k < size0; ++k) final_acc += scalar_load(row_in, elem, k);
      for (int64_t l = 0; l < W; l++) final_acc += vec_acc[l];
      store_add(data[0], out_stride, j, final_acc);
    }
  } else if (in_strides[1] == elem && size1 >= W) {
    // Contiguous columns: one lane per output column, 4 registers (4 * W columns) at a time.
    constexpr int64_t nrows = 4;
    int64_t j = 0;
    for (; j + nrows * W <= size1; j += nrows * W) {
      const char* row_in = data[1] + j * elem;
      auto sums = multi_row_sum<nrows>(row_in, in_strides[0], W * elem, size0, vec_load);
      for (int64_t i = 0; i < nrows; i++) store_add(data[0], out_stride, j + i * W, sums[i]);
    }
    for (; j + W <= size1; j += W) {
      const char* row_in = data[1] + j * elem;
      store_add(data[0], out_stride, j, row_sum(row_in, in_strides[0], size0, vec_load));
    }
    for (; j < size1; ++j) {
      const char* row_in = data[1] + j * elem;
      store_add(data[0], out_stride, j, row_sum(row_in, in_strides[0], size0, scalar_load));
    }
  } else if (in_strides[0] < in_strides[1]) {
    for (int64_t j = 0; j < size1; j++) {
      const char* row_in = data[1] + j * in_strides[1];
      store_add(data[0], out_stride, j, row_sum(row_in, in_strides[0], size0, scalar_load));
    }
  } else {
    constexpr int64_t nrows = 4;
    int64_t j = 0;
    for (; j + (nrows - 1) < size1; j += nrows) {
      const char* row_in = data[1] + j * in_strides[1];
      auto sums = multi_row_sum<nrows>(row_in, in_strides[0], in_strides[1], size0, scalar_load);
      for (int64_t i = 0; i < nrows; i++) store_add(data[0], out_stride, j + i, sums[i]);
    }
    for (; j < size1; ++j) {
      const char* row_in = data[1] + j * in_strides[1];
      store_add(data[0], out_stride, j, row_sum(row_in, in_strides[0], size0, scalar_load));
    }
  }
}

// The iteration space of a (possibly narrowed) reduction: shape, byte strides per dimension
// for (output, input), and the two base pointers.
struct Space {
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // [dim * 2 + arg]
  char* base[2];
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    return n;
  }
};

// TensorIterator's serial_for_each: the linear range [begin, end) as 2-D blocks.
template <typename loop_t>
void serial_for_each(const Space& sp, int64_t begin, int64_t end, const loop_t& loop) {
  if (begin >= end) return;
  const int64_t ndim = static_cast<int64_t>(sp.shape.size());
  int64_t strides[4] = {0, 0, 0, 0};
  for (int64_t d = 0; d < std::min<int64_t>(ndim, 2); d++) {
    strides[d * 2] = sp.strides[d * 2];
    strides[d * 2 + 1] = sp.strides[d * 2 + 1];
  }
  if (ndim <= 1) {
    char* ptrs[2];
    for (int a = 0; a < 2; a++) ptrs[a] = sp.base[a] + (ndim == 1 ? begin * sp.strides[a] : 0);
    loop(ptrs, strides, end - begin, 1);
    return;
  }
  std::vector<int64_t> values(ndim, 0);
  int64_t linear = begin;
  for (int64_t d = 0; d < ndim; d++) {
    values[d] = linear % sp.shape[d];
    linear /= sp.shape[d];
  }
  int64_t offset = begin;
  while (offset < end) {
    char* ptrs[2];
    for (int a = 0; a < 2; a++) {
      char* p = sp.base[a];
      for (int64_t d = 0; d < ndim; d++) p += values[d] * sp.strides[d * 2 + a];
      ptrs[a] = p;
    }
    const int64_t step0 = std::min(sp.shape[0] - values[0], end - offset);
    int64_t step1 = 1;
    if (step0 == sp.shape[0]) step1 = std::min(sp.shape[1] - values[1], (end - offset) / sp.shape[0]);
    loop(ptrs, strides, step0, step1);
    offset += step0 * step1;
    int64_t overflow = step0;
    int64_t d = 0;
    if (step1 != 1) {
      d = 1;
      overflow = step1;
    }
    for (; d < ndim && overflow > 0; d++) {
      int64_t value = values[d] + overflow;
      if (value >= sp.shape[d]) {
        overflow = 1;
        value -= sp.shape[d];
      } else {
        overflow = 0;
      }
      values[d] = value;
    }
  }
}

// The chunks at::parallel_for (OpenMP) gives each thread: min(threads, ceil(n / grain))
// chunks of ceil(n / chunks) elements.
std::vector<std::pair<int64_t, int64_t>> thread_chunks(int64_t n, int64_t grain) {
  std::vector<std::pair<int64_t, int64_t>> chunks;
  const int64_t threads = at::get_num_threads();
  if (n <= grain || n <= 1 || threads <= 1 || at::in_parallel_region()) {
    chunks.emplace_back(0, n);
    return chunks;
  }
  const int64_t num = std::min<int64_t>(threads, (n + grain - 1) / grain);
  const int64_t chunk = (n + num - 1) / num;
  for (int64_t t = 0; t < num; t++) {
    const int64_t b = t * chunk;
    if (b < n) chunks.emplace_back(b, std::min(n, b + chunk));
  }
  return chunks;
}

// [marker: parallel_reduce]
// TensorIterator::parallel_reduce: below GRAIN_SIZE elements (or on one thread) one pass.
// A full reduction (one output) is split into per-thread ranges summed into a buffer of
// get_num_threads() partial sums, which is then summed itself (two_pass_reduction). With
// several outputs the kept dimension is split across threads, in whole 128-byte groups of
// columns (parallelize_dim_reduction). The split changes which additions happen, so it is
// computed as PyTorch computes it. Each chunk writes only its own outputs (its buffer slot,
// its columns), so the chunks run on threads without changing a digit.
template <typename acc_t>
void cascade_sum_impl(TensorIteratorBase& iter) {
  auto loop = [](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
    cascade_sum_loop<acc_t>(data, strides, size0, size1);
  };
  Space sp;
  const int64_t ndim = iter.ndim();
  sp.shape.assign(iter.shape().begin(), iter.shape().end());
  for (int64_t d = 0; d < ndim; d++) {
    sp.strides.push_back(iter.strides(0)[d]);
    sp.strides.push_back(iter.strides(1)[d]);
  }
  auto ptrs = iter.get_base_ptrs();
  sp.base[0] = ptrs[0];
  sp.base[1] = ptrs[1];
  iter.output(0).fill_(0);
  const int64_t numel = sp.numel();
  const int64_t grain = at::internal::GRAIN_SIZE;
  const int64_t threads = at::get_num_threads();
  if (numel < grain || threads == 1 || at::in_parallel_region()) {
    serial_for_each(sp, 0, numel, loop);
    return;
  }
  if (iter.output(0).numel() == 1) {
    std::vector<acc_t> buffer(threads, acc_t(0));
    const auto chunks = thread_chunks(numel, grain);
    at::parallel_for(0, static_cast<int64_t>(chunks.size()), 1, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; t++) {
        Space part = sp;
        part.base[0] = reinterpret_cast<char*>(&buffer[t]);
        serial_for_each(part, chunks[t].first, chunks[t].second, loop);
      }
    });
    // The second pass: the buffer is reduced like any contiguous row of `threads` values.
    Space second;
    second.shape = {threads};
    second.strides = {0, static_cast<int64_t>(sizeof(acc_t))};
    second.base[0] = sp.base[0];
    second.base[1] = reinterpret_cast<char*>(buffer.data());
    serial_for_each(second, 0, threads, loop);
    return;
  }
  // parallelize_dim_reduction: the outermost kept dimension with at least `threads` columns
  // (else the largest kept one).
  int64_t dim = ndim - 1;
  int64_t best = ndim - 1;
  for (; dim >= 0 && !iter.is_dim_reduced(dim); dim--) {
    if (sp.shape[dim] >= threads) {
      best = dim;
      break;
    }
    if (sp.shape[dim] > sp.shape[best]) best = dim;
  }
  dim = best;
  const int64_t cols = sp.shape[dim];
  const bool round = sp.strides[dim * 2 + 1] == static_cast<int64_t>(sizeof(acc_t));
  const int64_t multiple = 128 / static_cast<int64_t>(sizeof(acc_t));
  const auto chunks = thread_chunks(cols, 1);
  at::parallel_for(0, static_cast<int64_t>(chunks.size()), 1, [&](int64_t first, int64_t last) {
    for (int64_t t = first; t < last; t++) {
      auto [begin, end] = chunks[t];
      if (round) {
        begin -= begin % multiple;
        if (end != cols) end -= end % multiple;
      }
      if (begin == end) continue;
      Space sub = sp;
      sub.shape[dim] = end - begin;
      sub.base[0] += begin * sp.strides[dim * 2];
      sub.base[1] += begin * sp.strides[dim * 2 + 1];
      serial_for_each(sub, 0, sub.numel(), loop);
    }
  });
}
// [end marker: parallel_reduce]

}  // namespace

bool cascade_sum_cpu(TensorIteratorBase& iter) {
  if (iter.ntensors() != 2 || iter.dtype(0) != iter.dtype(1)) return false;
  if (iter.dtype(0) == kFloat) {
    cascade_sum_impl<float>(iter);
    return true;
  }
  if (iter.dtype(0) == kDouble) {
    cascade_sum_impl<double>(iter);
    return true;
  }
  return false;
}

}  // namespace at::native
