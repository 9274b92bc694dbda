// aten/src/ATen/Parallel.cpp - the OpenMP backend of at::parallel_for and the thread-count knobs.
// Mirrors PyTorch's aten/src/ATen/ParallelOpenMP.{h,cpp}. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/Parallel.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

#ifdef AT_PARALLEL_OPENMP
#include <omp.h>
#endif

namespace at {

int get_num_threads() {
#ifdef AT_PARALLEL_OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// [marker: blas_threads]
// OpenBLAS (Debian's pthread build) runs matrix products on a thread pool of its own, sized
// from OPENBLAS_NUM_THREADS or OMP_NUM_THREADS, else the number of cores. PyTorch's
// set_num_threads also sets MKL's thread count; here it sets OpenBLAS's, so that
// torch.set_num_threads(1) means one thread for a matrix product too. Declared weak: a
// BLAS other than OpenBLAS has no such function, and then the pointer is null.
extern "C" __attribute__((weak)) void openblas_set_num_threads(int num_threads);

void set_num_threads(int nthreads) {
  TORCH_CHECK(nthreads > 0, "Expected positive number of threads");
#ifdef AT_PARALLEL_OPENMP
  omp_set_num_threads(nthreads);
#endif
  if (openblas_set_num_threads != nullptr) {
    openblas_set_num_threads(nthreads);
  }
}
// [end marker: blas_threads]

namespace {
// -1: not set yet (the number of cores is reported until it is).
std::atomic<int> num_interop_threads{-1};
}  // namespace

void set_num_interop_threads(int nthreads) {
  TORCH_CHECK(nthreads > 0, "Expected positive number of threads");
  int expected = -1;
  TORCH_CHECK(num_interop_threads.compare_exchange_strong(expected, nthreads),
              "Error: cannot set number of interop threads after parallel work has started or "
              "set_num_interop_threads called");
}

int get_num_interop_threads() {
  const int n = num_interop_threads.load();
  if (n > 0) {
    return n;
  }
  const unsigned cores = std::thread::hardware_concurrency();
  return cores > 0 ? static_cast<int>(cores) : 1;
}

int get_thread_num() {
#ifdef AT_PARALLEL_OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

bool in_parallel_region() {
#ifdef AT_PARALLEL_OPENMP
  return omp_in_parallel();
#else
  return false;
#endif
}

namespace internal {

void invoke_parallel(int64_t begin, int64_t end, int64_t grain_size, const std::function<void(int64_t, int64_t)>& f) {
#ifdef AT_PARALLEL_OPENMP
  std::atomic_flag err_flag = ATOMIC_FLAG_INIT;
  std::exception_ptr eptr;
#pragma omp parallel
  {
    // The number of tasks follows from the grain size, not from a num_threads clause: PyTorch
    // avoids that clause because GOMP then rebuilds its thread pool (pytorch#32008).
    int64_t num_threads = omp_get_num_threads();
    if (grain_size > 0) {
      num_threads = std::min(num_threads, divup(end - begin, grain_size));
    }
    const int64_t tid = omp_get_thread_num();
    const int64_t chunk_size = divup(end - begin, num_threads);
    const int64_t begin_tid = begin + tid * chunk_size;
    if (begin_tid < end) {
      try {
        f(begin_tid, std::min(end, chunk_size + begin_tid));
      } catch (...) {
        // Exceptions must not cross the OpenMP region: keep the first, rethrow it after.
        if (!err_flag.test_and_set()) {
          eptr = std::current_exception();
        }
      }
    }
  }
  if (eptr) {
    std::rethrow_exception(eptr);
  }
#else
  f(begin, end);
#endif
}

}  // namespace internal
}  // namespace at
