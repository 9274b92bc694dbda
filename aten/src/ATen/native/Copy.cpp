// aten/src/ATen/native/Copy.cpp - Tensor.copy_(src): write src's values into self, converting
// dtype and broadcasting src to self's shape. Mirrors PyTorch's aten/src/ATen/native/Copy.cpp.
// Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/native/Copy.h>

#include <ATen/MemoryOverlap.h>
#include <ATen/NativeFunctions.h>
#include <ATen/Parallel.h>
#include <ATen/TensorIterator.h>

#include <algorithm>
#include <cstring>
#include <type_traits>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <vector>

namespace at::native {

DEFINE_DISPATCH(copy_stub);

// [marker: copy_transpose]
// x.t().contiguous(): the source's rows are the destination's columns. Element by element,
// either the reads or the writes stride through memory a whole row apart, so every access
// touches a new cache line (and, for large matrices, a new page). PyTorch's Copy.cpp
// (copy_transpose_valid, copy_same_type_transpose_) copies such a matrix in square tiles
// instead: a BLOCK_SZ x BLOCK_SZ tile spans BLOCK_SZ cache lines of each side,
// which stay in cache while the tile is turned around. This version also takes the last two
// dims of a batch of matrices (x.transpose(-2, -1).contiguous()) and shares the tiles
// between threads.
namespace {

// A 16 x 16 tile reads 16 source columns of 16 elements (16 cache lines for float) while it
// writes 16 destination rows: small enough that both stay in L1 with room to spare.
constexpr int64_t BLOCK_SZ = 16;
// A task is a strip of STRIP_ROWS destination rows, walked one column of tiles at a time.
// Every column of tiles reads each of BLOCK_SZ source rows, each on a page of its own when the
// source rows are 4 KiB or more apart; a strip of four tiles reads 256 bytes of each page where
// one tile read 64, so a 2048 x 2048 float transpose takes a quarter of the TLB misses (PyTorch's
// tiles are 60 x 60 for the same reason).
constexpr int64_t STRIP_ROWS = 4 * BLOCK_SZ;

// A contiguous self whose last two dims read src with a unit stride down its columns (the
// transposed layout), same dtype and shape, no broadcast, no shared memory, and matrices big
// enough for tiles to pay off. Everything else goes through TensorIterator.
bool copy_transpose_valid(const Tensor& self, const Tensor& src) {
  const int64_t d = self.dim();
  if (d < 2 || !self.device().is_cpu() || !src.device().is_cpu() || self.scalar_type() != src.scalar_type() ||
      !self.sizes().equals(src.sizes()) || !self.is_contiguous()) {
    return false;
  }
  const int64_t rows = self.size(d - 2), cols = self.size(d - 1);
  const size_t itemsize = self.element_size();
  return src.stride(d - 2) == 1 && src.stride(d - 1) != 1 && rows >= 16 && cols >= 16 &&
         self.numel() >= 64 * 64 && (itemsize == 1 || itemsize == 2 || itemsize == 4 ||
                                                 itemsize == 8 || itemsize == 16) &&
         get_overlap_status(self, src) == MemOverlapStatus::No;
}

struct alignas(16) Bytes16 {
  unsigned char b[16];
};

// dst[b][i][j] = src[src_offsets[b] + i + j * col_stride]: dst holds batches of rows x cols
// matrices back to back. The tasks are (matrix, strip of rows) pairs.
// Writes one destination line, BLOCK_SZ elements of 4 bytes starting 64-byte aligned, with
// non-temporal stores: straight to memory, without first reading the line into the cache (a
// normal store fetches a line it will overwrite whole) and without evicting the source.
#if defined(__SSE2__)
void stream_line(uint32_t* dst, const uint32_t (&line)[BLOCK_SZ]) {
  static_assert(BLOCK_SZ * sizeof(uint32_t) == 64, "one cache line");
  for (int k = 0; k < 4; k++) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst) + k, _mm_loadu_si128(reinterpret_cast<const __m128i*>(line) + k));
  }
}
#endif

template <typename T>
void transpose_tiles(T* dst, const T* src, const std::vector<int64_t>& src_offsets, int64_t rows, int64_t cols,
                     int64_t col_stride, bool stream = false) {
  const int64_t strips = divup(rows, STRIP_ROWS);
  const int64_t tasks = static_cast<int64_t>(src_offsets.size()) * strips;
  // One task moves STRIP_ROWS rows: about STRIP_ROWS * cols elements.
  const int64_t grain = std::max<int64_t>(1, internal::GRAIN_SIZE / (STRIP_ROWS * cols));
  parallel_for(0, tasks, grain, [&](int64_t begin, int64_t end) {
    for (int64_t task = begin; task < end; task++) {
      const int64_t b = task / strips;
      const int64_t strip0 = (task % strips) * STRIP_ROWS, strip1 = std::min(strip0 + STRIP_ROWS, rows);
      const T* s = src + src_offsets[b];
      T* d = dst + b * rows * cols;
      // The strip's slice of BLOCK_SZ source columns, read once, along memory. Read in place,
      // each source line would be fetched again for every destination row; and lines 8 KiB
      // apart share one set of the L1 cache, which holds 12 of them, not 16, so they were
      // fetched from L2 each time, or from memory when their physical pages also collided in
      // L2: the copy took 4 ms or 10 ms depending on where the pages landed.
      T buf[BLOCK_SZ][STRIP_ROWS];
      const int64_t strip_rows = strip1 - strip0;
      for (int64_t j0 = 0; j0 < cols; j0 += BLOCK_SZ) {
        const int64_t j1 = std::min(j0 + BLOCK_SZ, cols);
        for (int64_t j = j0; j < j1; j++) {
          std::memcpy(buf[j - j0], s + strip0 + j * col_stride, static_cast<size_t>(strip_rows) * sizeof(T));
        }
        // Writes run along the destination's rows: a strided write would fetch and dirty a
        // whole cache line per element, about 3x slower here.
#if defined(__SSE2__)
        if constexpr (std::is_same_v<T, uint32_t>) {
          if (stream) {
            for (int64_t i = strip0; i < strip1; i++) {
              uint32_t line[BLOCK_SZ];
              for (int64_t j = 0; j < BLOCK_SZ; j++) line[j] = buf[j][i - strip0];
              stream_line(d + i * cols + j0, line);
            }
            continue;
          }
        }
#endif
        for (int64_t i = strip0; i < strip1; i++) {
          T* di = d + i * cols;
          for (int64_t j = j0; j < j1; j++) {
            di[j] = buf[j - j0][i - strip0];
          }
        }
      }
    }
  });
#if defined(__SSE2__)
  if (stream) {
    _mm_sfence();  // the streamed lines are visible before the copy returns
  }
#endif
}

void copy_same_type_transpose_(Tensor& self, const Tensor& src) {
  const int64_t d = self.dim();
  const int64_t rows = self.size(d - 2), cols = self.size(d - 1);
  // Where each matrix of the batch starts in src (its leading dims may have any strides).
  std::vector<int64_t> src_offsets{0};
  for (int64_t dim = 0; dim < d - 2; dim++) {
    std::vector<int64_t> next;
    next.reserve(src_offsets.size() * self.size(dim));
    for (int64_t base : src_offsets) {
      for (int64_t k = 0; k < self.size(dim); k++) next.push_back(base + k * src.stride(dim));
    }
    src_offsets = std::move(next);
  }
  const int64_t col_stride = src.stride(d - 1);
  void* out = self.data_ptr();
  const void* in = src.const_data_ptr();
  switch (self.element_size()) {
    case 1: transpose_tiles(static_cast<uint8_t*>(out), static_cast<const uint8_t*>(in), src_offsets, rows, cols, col_stride); break;
    case 2: transpose_tiles(static_cast<uint16_t*>(out), static_cast<const uint16_t*>(in), src_offsets, rows, cols, col_stride); break;
    case 4: {
      // A destination far bigger than the L2 cache is written with non-temporal stores (whole,
      // aligned lines only); a smaller one is likely read again soon, from the cache.
      const bool stream = cols % BLOCK_SZ == 0 && reinterpret_cast<uintptr_t>(out) % 64 == 0 &&
                          self.numel() * 4 >= (int64_t(8) << 20);
      transpose_tiles(static_cast<uint32_t*>(out), static_cast<const uint32_t*>(in), src_offsets, rows, cols,
                      col_stride, stream);
      break;
    }
    case 8: transpose_tiles(static_cast<uint64_t*>(out), static_cast<const uint64_t*>(in), src_offsets, rows, cols, col_stride); break;
    default: transpose_tiles(static_cast<Bytes16*>(out), static_cast<const Bytes16*>(in), src_offsets, rows, cols, col_stride);
  }
}

}  // namespace
// [end marker: copy_transpose]

// [marker: copy_]
// copy_ is the one operator whose iterator checks neither dtypes nor devices: converting
// between them is its job. Self is never resized (it is the destination, as in-place ops
// are) and src broadcasts to it: a.copy_(b) with a [2, 3] and b [3] copies b into each row.
Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking) {
  TORCH_CHECK(self.defined(), "self is undefined");
  TORCH_CHECK(src.defined(), "src is undefined");
  if (self.is_same(src)) {
    return self;
  }
  if (self.is_meta()) {
    return self;  // meta tensors have shapes but no values
  }
  TORCH_CHECK_NOT_IMPLEMENTED(!src.is_meta(), "Cannot copy out of meta tensor; no data!");
  if (copy_transpose_valid(self, src)) {
    copy_same_type_transpose_(self, src);
    return self;
  }
  auto iter = TensorIteratorConfig()
                  .add_output(self)
                  .add_const_input(src)
                  .resize_outputs(false)
                  .check_all_same_dtype(false)
                  .check_all_same_device(false)
                  .build();
  if (iter.numel() == 0) {
    return self;
  }
  // A copy with a CUDA tensor on either side is CUDA's kernel to run (host <-> device
  // transfers included), as in PyTorch.
  const bool involves_cuda = iter.device_type(0) == kCUDA || iter.device_type(1) == kCUDA;
  TORCH_CHECK(involves_cuda || iter.device_type(0) == iter.device_type(1), "copy_: copies between ",
              iter.device(1), " and ", iter.device(0), " are not supported");
  copy_stub(involves_cuda ? kCUDA : iter.device_type(0), iter, non_blocking);
  return self;
}
// [end marker: copy_]

}  // namespace at::native
