// c10/cuda/impl/sim/KernelExecutor.h - runs a whole CUDA grid on the CPU: every thread of every
// block, as a plain loop or as cooperative fibers. This tree's simulated CUDA device; PyTorch
// has no such thing. Guide: docs/source/internals/cuda_simulated_device.rst
//
// The public half is run_grid() and its status, called by the stream worker that executes a
// launch. The detail half is what the device builtins of cuda_sim.h compile to: the running
// thread's coordinates, read straight from thread-local storage, and the out-of-line calls
// for barriers, warp collectives and device-side asserts.
//
// Execution model. Blocks run one after another on the calling OS thread. A kernel that never
// waits for another thread (most elementwise kernels) runs as a loop: set the coordinates, call
// the body, next thread. A kernel that calls __syncthreads() or a warp collective needs the
// threads of a block to really wait for each other, so each thread of the block runs on its own
// fiber (a stack and a saved register set), and a scheduler switches between them in thread
// order. Which of the two a launch needs is decided by running thread (0,0,0) of block (0,0,0)
// first, on a fiber: if it finishes without waiting for anyone, the rest of the grid is a loop.
#pragma once

#include <c10/macros/Macros.h>

#include <vector_types.h>  // dim3, uint3, from the CUDA toolkit

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>

namespace c10::cuda::sim {

// [marker: run_grid]
enum class GridStatus {
  Success,
  // A thread failed CUDA_KERNEL_ASSERT; no further thread of the grid ran.
  AssertFailed,
  // A thread reached __syncthreads() or a warp collective that cannot be honoured: the grid ran
  // as a loop because thread (0,0,0) of block (0,0,0) never reached one (CUDA leaves such a
  // kernel undefined), or the threads of a block wait for each other in a cycle.
  BadBarrier,
};

// Runs thread_body once for every thread of every block of the grid, with threadIdx, blockIdx,
// blockDim and gridDim set for it. Blocks run in order (x fastest, then y, then z), each on the
// calling OS thread, and all per-run state lives in that OS thread's context, so several OS
// threads (several streams) may run grids at the same time. A kernel launching a kernel is not
// supported (std::logic_error). An exception other than a device-side assert escaping the body
// stops the grid and is rethrown here.
C10_API GridStatus run_grid(
    dim3 grid,
    dim3 block,
    size_t dynamic_smem_bytes,
    const std::function<void()>& thread_body);
// [end marker: run_grid]

// Whether the most recent run_grid on the calling OS thread ran its blocks on fibers (the
// kernel reached a barrier or warp collective) rather than as a loop. For tests and the guide.
C10_API bool last_run_used_fibers();

// The block's dynamic shared memory: the third launch parameter, in bytes. 16-byte aligned,
// one buffer per OS thread reused by every block; not zeroed, as on a GPU (a debug build fills
// it with 0xCD before each block, so a kernel that reads it before writing sees junk).
template <typename T>
T* dynamic_shared_memory();

// Device-side assert: prints CUDA's message with the failing thread's coordinates to stderr
// and ends the grid (run_grid returns AssertFailed). Outside a grid it prints and aborts.
[[noreturn]] C10_API void device_assert_fail(
    const char* expr,
    const char* file,
    unsigned line,
    const char* func);

namespace detail {

// [marker: ThreadState]
// What the device builtins read. One per OS thread: the fibers of a block share their OS
// thread, and the scheduler rewrites thread_idx at every switch, so each fiber sees its own.
struct ThreadState {
  uint3 thread_idx;
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
  void* dynamic_smem;
};

// `__thread` rather than `thread_local`: its initializer is constant, so no access goes through
// a lazy-initialization wrapper call. initial-exec: a read of threadIdx.x from another shared
// library is one %fs-relative load instead of a __tls_get_addr call. The price is a few dozen
// bytes of static TLS, which glibc keeps in reserve even for libraries loaded with dlopen (as
// Python loads libc10).
extern __thread ThreadState tls_state C10_API __attribute__((__tls_model__("initial-exec")));
// [end marker: ThreadState]

// __syncthreads() and its counting forms: waits for every thread of the block that has not
// exited. `count` is how many of the threads that arrived passed a non-zero predicate.
struct BarrierResult {
  unsigned count;
  unsigned arrived;
};
C10_API BarrierResult sync_threads(int predicate, const char* name);

// A warp collective: the lane deposits `value` (and `predicate`), waits for the lanes of
// `mask` that have not exited, and gets back the value of its source lane (or its own, when the
// source lane lies outside its width segment or did not take part), plus the vote of the lanes
// that took part.
enum class WarpOp : uint8_t { None, Idx, Up, Down, Xor };
struct WarpResult {
  alignas(16) unsigned char value[16];
  unsigned ballot;   // lanes that took part with a non-zero predicate
  unsigned members;  // lanes that took part
};
C10_API void warp_collective(
    WarpOp op,
    unsigned mask,
    int lane_arg,
    int width,
    const void* value,
    size_t size,
    int predicate,
    WarpResult* out,
    const char* name);
// The lanes of the calling thread's warp that have not exited.
C10_API unsigned active_mask();

template <typename T>
inline T shuffle(WarpOp op, unsigned mask, T var, int lane_arg, int width, const char* name) {
  static_assert(std::is_trivially_copyable_v<T>, "warp shuffles copy values bytewise");
  static_assert(sizeof(T) <= sizeof(WarpResult::value), "warp shuffles move at most 16 bytes");
  WarpResult r;
  warp_collective(op, mask, lane_arg, width, &var, sizeof(T), 0, &r, name);
  T out;
  std::memcpy(static_cast<void*>(&out), r.value, sizeof(T));
  return out;
}

}  // namespace detail

template <typename T>
inline T* dynamic_shared_memory() {
  return static_cast<T*>(detail::tls_state.dynamic_smem);
}

}  // namespace c10::cuda::sim
