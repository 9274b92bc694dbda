// aten/src/ATen/Parallel.h - at::parallel_for: split [begin, end) into chunks run on threads.
// Mirrors PyTorch's aten/src/ATen/Parallel.h + Parallel-inl.h + ParallelOpenMP.h.
// Guide: docs/source/internals/tensor_iterator.rst ("Many threads").
//
//   at::parallel_for(0, n, at::internal::GRAIN_SIZE, [&](int64_t begin, int64_t end) {
//     for (int64_t i = begin; i < end; ++i) out[i] = a[i] + b[i];
//   });
//
// The grain size is the least work worth a thread: below it the call runs inline on the
// caller's thread, because waking a thread costs more than a few thousand additions. Inside
// a parallel region parallel_for never nests (the inner call runs serially), as in PyTorch.
#pragma once

#include <c10/macros/Export.h>
#include <c10/util/Exception.h>

#include <cstdint>
#include <functional>

namespace at {

namespace internal {
// Elements per task below which an elementwise op runs on one thread (PyTorch's value).
constexpr int64_t GRAIN_SIZE = 32768;

// Runs f on chunks of [begin, end) in an OpenMP parallel region (Parallel.cpp). One chunk
// per thread, each at least grain_size long; an exception in any chunk is rethrown here.
TORCH_API void invoke_parallel(int64_t begin, int64_t end, int64_t grain_size,
                               const std::function<void(int64_t, int64_t)>& f);
}  // namespace internal

// Threads used by parallel_for (OMP_NUM_THREADS, or the number of cores); 1 without OpenMP.
TORCH_API int get_num_threads();
TORCH_API void set_num_threads(int nthreads);
// The size of the inter-op pool (PyTorch's ParallelThreadPoolNative.cpp): the pool that runs
// independent operators side by side (torch.jit.fork). This tree runs every operator on the
// calling thread, so only the setting is kept, with PyTorch's rules: the number of cores by
// default, settable once, and positive.
TORCH_API void set_num_interop_threads(int nthreads);
TORCH_API int get_num_interop_threads();
// Index of the calling thread inside a parallel region (0 outside one).
TORCH_API int get_thread_num();
TORCH_API bool in_parallel_region();

inline int64_t divup(int64_t x, int64_t y) {
  return (x + y - 1) / y;
}

// [marker: parallel_for]
template <class F>
inline void parallel_for(const int64_t begin, const int64_t end, const int64_t grain_size, const F& f) {
  TORCH_CHECK(grain_size >= 0, "parallel_for: grain_size must be >= 0, got ", grain_size);
  if (begin >= end) {
    return;
  }
  const int64_t numiter = end - begin;
  const bool use_parallel = numiter > grain_size && numiter > 1 && !in_parallel_region() && get_num_threads() > 1;
  if (!use_parallel) {
    f(begin, end);
    return;
  }
  internal::invoke_parallel(begin, end, grain_size, f);
}
// [end marker: parallel_for]

}  // namespace at
