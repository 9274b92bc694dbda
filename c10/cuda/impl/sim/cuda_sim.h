// c10/cuda/impl/sim/cuda_sim.h - what nvcc gives device code, for g++: the CUDA keywords, the
// builtin variables, barriers, warp intrinsics, atomics, device math. This tree's simulated
// CUDA device; PyTorch has no such thing. Guide: docs/source/internals/cuda_simulated_device.rst
//
// Every translated kernel source is compiled with this header force-included (-include), so it
// comes before anything the source includes. The launch syntax and `extern __shared__` arrays
// are rewritten by the translator; everything else a kernel writes compiles as it is, against the
// definitions below. __CUDACC__ and __CUDA_ARCH__ stay undefined: this is host code, and the
// CUDA and c10 headers must take their host paths.
#pragma once

#ifndef __cplusplus
#error "cuda_sim.h is for C++ kernel sources"
#endif

// The host API (cuda_runtime_api.h), dim3 and the vector types, make_float4 and the like. The
// CUDA headers are included here, before threadIdx, blockIdx, blockDim, gridDim and warpSize
// become macros below: they use those names for declarations and parameters, which the macros
// would mangle. A kernel that includes them again finds their include guards set.
#include <cuda_runtime_api.h>
#include <cuda_runtime.h>
#include <device_launch_parameters.h>

#include <c10/cuda/impl/sim/KernelExecutor.h>
#include <c10/cuda/impl/sim/Launch.h>
#include <c10/macros/Macros.h>

// Included before __noinline__ becomes a macro: libstdc++'s shared_ptr_base.h spells the
// attribute __attribute__((__noinline__)), which the macro would break.
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

// ------------------------------------------------------------------------------------------------
// Keywords. crt/host_defines.h (through cuda_runtime_api.h) defines some of them as annotations
// for nvcc; g++ gets its own.

#undef __global__
#undef __device__
#undef __host__
#undef __forceinline__
#undef __noinline__
#undef __launch_bounds__
#undef __shared__
#undef __constant__
#undef __managed__
#undef __grid_constant__

// A kernel stays a real, out-of-line function, so `break my_kernel` and `bt` in gdb find it.
#define __global__ __attribute__((noinline))
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((__always_inline__))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
// One copy per OS thread, shared by every thread of a block: the fibers (or loop iterations)
// that run a block's threads all run on one OS thread, so they see one variable, as the threads
// of a block see one shared array. At block scope thread_local implies static (the array is on
// no one thread's stack), so `static __shared__`, which CUDA also accepts, compiles too. A later
// block on the same OS thread finds what the previous block left, which CUDA does not promise
// either.
#define __shared__ thread_local
#define __constant__
#define __managed__
#define __grid_constant__
// __restrict__ is a g++ keyword already.

// C10_NOINLINE is spelled __attribute__((__noinline__)), which the macro above would break.
#undef C10_NOINLINE
#define C10_NOINLINE __attribute__((noinline))

// ------------------------------------------------------------------------------------------------
// Builtin variables: the running thread's coordinates, one load from thread-local storage each.
// Read-only, as in CUDA (threadIdx.x = 0 does not compile). blockDim and gridDim are dim3 here,
// as they are for nvcc.

#undef threadIdx
#undef blockIdx
#undef blockDim
#undef gridDim
#undef warpSize
#define threadIdx (static_cast<const ::uint3&>(::c10::cuda::sim::detail::tls_state.thread_idx))
#define blockIdx (static_cast<const ::uint3&>(::c10::cuda::sim::detail::tls_state.block_idx))
#define blockDim (static_cast<const ::dim3&>(::c10::cuda::sim::detail::tls_state.block_dim))
#define gridDim (static_cast<const ::dim3&>(::c10::cuda::sim::detail::tls_state.grid_dim))
#define warpSize 32

// Helper spellings for the definitions below, removed at the end of this header.
#define C10_SIM_INLINE inline __attribute__((__always_inline__))
#define C10_SIM_FULL_MASK 0xffffffffu

// ------------------------------------------------------------------------------------------------
// Device-side assert. Macros.h may define its own CUDA_KERNEL_ASSERT; this one reports the
// failing block and thread and ends the grid (run_grid returns AssertFailed).

#undef CUDA_KERNEL_ASSERT
#define CUDA_KERNEL_ASSERT(cond)                                                           \
  do {                                                                                     \
    if (C10_UNLIKELY(!(cond))) {                                                           \
      ::c10::cuda::sim::device_assert_fail(                                                \
          #cond, __FILE__, static_cast<unsigned>(__LINE__), __func__);                     \
    }                                                                                      \
  } while (0)

// ------------------------------------------------------------------------------------------------
// Barriers and fences.

C10_SIM_INLINE void __syncthreads() {
  ::c10::cuda::sim::detail::sync_threads(0, "__syncthreads()");
}
C10_SIM_INLINE int __syncthreads_count(int predicate) {
  return static_cast<int>(
      ::c10::cuda::sim::detail::sync_threads(predicate, "__syncthreads_count()").count);
}
C10_SIM_INLINE int __syncthreads_and(int predicate) {
  const auto r = ::c10::cuda::sim::detail::sync_threads(predicate, "__syncthreads_and()");
  return r.count == r.arrived;
}
C10_SIM_INLINE int __syncthreads_or(int predicate) {
  return ::c10::cuda::sim::detail::sync_threads(predicate, "__syncthreads_or()").count != 0;
}

// Orders this thread's memory accesses for every other thread, which may be on another OS
// thread once blocks run in parallel.
C10_SIM_INLINE void __threadfence() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
C10_SIM_INLINE void __threadfence_system() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
// The threads of a block share one OS thread: keeping the compiler from reordering is enough.
C10_SIM_INLINE void __threadfence_block() {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

// ------------------------------------------------------------------------------------------------
// Warp collectives: 32-lane warps of consecutive linear thread ids. They make the block run on
// fibers; `width` must be a power of two up to 32.

template <typename T>
C10_SIM_INLINE T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize) {
  return ::c10::cuda::sim::detail::shuffle(
      ::c10::cuda::sim::detail::WarpOp::Idx, mask, var, srcLane, width, "__shfl_sync()");
}
template <typename T>
C10_SIM_INLINE T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = warpSize) {
  return ::c10::cuda::sim::detail::shuffle(
      ::c10::cuda::sim::detail::WarpOp::Up,
      mask,
      var,
      static_cast<int>(delta),
      width,
      "__shfl_up_sync()");
}
template <typename T>
C10_SIM_INLINE T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = warpSize) {
  return ::c10::cuda::sim::detail::shuffle(
      ::c10::cuda::sim::detail::WarpOp::Down,
      mask,
      var,
      static_cast<int>(delta),
      width,
      "__shfl_down_sync()");
}
template <typename T>
C10_SIM_INLINE T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize) {
  return ::c10::cuda::sim::detail::shuffle(
      ::c10::cuda::sim::detail::WarpOp::Xor, mask, var, laneMask, width, "__shfl_xor_sync()");
}

C10_SIM_INLINE unsigned __ballot_sync(unsigned mask, int predicate) {
  ::c10::cuda::sim::detail::WarpResult r;
  ::c10::cuda::sim::detail::warp_collective(
      ::c10::cuda::sim::detail::WarpOp::None,
      mask, 0, warpSize, nullptr, 0, predicate, &r, "__ballot_sync()");
  return r.ballot;
}
C10_SIM_INLINE int __any_sync(unsigned mask, int predicate) {
  ::c10::cuda::sim::detail::WarpResult r;
  ::c10::cuda::sim::detail::warp_collective(
      ::c10::cuda::sim::detail::WarpOp::None,
      mask, 0, warpSize, nullptr, 0, predicate, &r, "__any_sync()");
  return r.ballot != 0;
}
C10_SIM_INLINE int __all_sync(unsigned mask, int predicate) {
  ::c10::cuda::sim::detail::WarpResult r;
  ::c10::cuda::sim::detail::warp_collective(
      ::c10::cuda::sim::detail::WarpOp::None,
      mask, 0, warpSize, nullptr, 0, predicate, &r, "__all_sync()");
  return r.ballot == r.members;
}
C10_SIM_INLINE void __syncwarp(unsigned mask = C10_SIM_FULL_MASK) {
  ::c10::cuda::sim::detail::WarpResult r;
  ::c10::cuda::sim::detail::warp_collective(
      ::c10::cuda::sim::detail::WarpOp::None,
      mask, 0, warpSize, nullptr, 0, 0, &r, "__syncwarp()");
}
// The lanes of the warp that have not exited (the simulator has no divergence within a warp).
C10_SIM_INLINE unsigned __activemask() {
  return ::c10::cuda::sim::detail::active_mask();
}

// ------------------------------------------------------------------------------------------------
// Atomics. Real ones, relaxed like CUDA's, because blocks may run on several OS threads. float
// and double go through a compare-and-swap loop, as CUDA code does for the types the hardware
// lacks.

namespace c10::cuda::sim::detail {
template <typename T, typename F>
C10_SIM_INLINE T atomic_update(T* address, F f) {
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T desired;
  do {
    desired = f(old);
  } while (!__atomic_compare_exchange(
      address, &old, &desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return old;
}
}  // namespace c10::cuda::sim::detail

#define C10_SIM_ATOMIC_FETCH(name, builtin, T) \
  C10_SIM_INLINE T name(T* address, T val) {    \
    return builtin(address, val, __ATOMIC_RELAXED); \
  }
#define C10_SIM_ATOMIC_MINMAX(T)                                            \
  C10_SIM_INLINE T atomicMax(T* address, T val) {                           \
    return ::c10::cuda::sim::detail::atomic_update(                         \
        address, [val](T v) { return v < val ? val : v; });                 \
  }                                                                         \
  C10_SIM_INLINE T atomicMin(T* address, T val) {                           \
    return ::c10::cuda::sim::detail::atomic_update(                         \
        address, [val](T v) { return val < v ? val : v; });                 \
  }
#define C10_SIM_ATOMIC_EXCH_CAS(T)                                          \
  C10_SIM_INLINE T atomicExch(T* address, T val) {                          \
    return __atomic_exchange_n(address, val, __ATOMIC_RELAXED);             \
  }                                                                         \
  C10_SIM_INLINE T atomicCAS(T* address, T compare, T val) {                \
    __atomic_compare_exchange_n(                                            \
        address, &compare, val, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
    return compare;                                                         \
  }

C10_SIM_ATOMIC_FETCH(atomicAdd, __atomic_fetch_add, int)
C10_SIM_ATOMIC_FETCH(atomicAdd, __atomic_fetch_add, unsigned int)
C10_SIM_ATOMIC_FETCH(atomicAdd, __atomic_fetch_add, unsigned long long)
C10_SIM_ATOMIC_FETCH(atomicSub, __atomic_fetch_sub, int)
C10_SIM_ATOMIC_FETCH(atomicSub, __atomic_fetch_sub, unsigned int)
C10_SIM_ATOMIC_FETCH(atomicSub, __atomic_fetch_sub, long long)
C10_SIM_ATOMIC_FETCH(atomicSub, __atomic_fetch_sub, unsigned long long)
C10_SIM_ATOMIC_FETCH(atomicAnd, __atomic_fetch_and, int)
C10_SIM_ATOMIC_FETCH(atomicAnd, __atomic_fetch_and, unsigned int)
C10_SIM_ATOMIC_FETCH(atomicAnd, __atomic_fetch_and, unsigned long long)
C10_SIM_ATOMIC_FETCH(atomicOr, __atomic_fetch_or, int)
C10_SIM_ATOMIC_FETCH(atomicOr, __atomic_fetch_or, unsigned int)
C10_SIM_ATOMIC_FETCH(atomicOr, __atomic_fetch_or, unsigned long long)
C10_SIM_ATOMIC_FETCH(atomicXor, __atomic_fetch_xor, int)
C10_SIM_ATOMIC_FETCH(atomicXor, __atomic_fetch_xor, unsigned int)
C10_SIM_ATOMIC_FETCH(atomicXor, __atomic_fetch_xor, unsigned long long)
C10_SIM_ATOMIC_MINMAX(int)
C10_SIM_ATOMIC_MINMAX(unsigned int)
C10_SIM_ATOMIC_MINMAX(long long)
C10_SIM_ATOMIC_MINMAX(unsigned long long)
C10_SIM_ATOMIC_EXCH_CAS(int)
C10_SIM_ATOMIC_EXCH_CAS(unsigned int)
C10_SIM_ATOMIC_EXCH_CAS(unsigned long long)
C10_SIM_ATOMIC_EXCH_CAS(unsigned short)

C10_SIM_INLINE float atomicAdd(float* address, float val) {
  return ::c10::cuda::sim::detail::atomic_update(address, [val](float v) { return v + val; });
}
C10_SIM_INLINE double atomicAdd(double* address, double val) {
  return ::c10::cuda::sim::detail::atomic_update(address, [val](double v) { return v + val; });
}
C10_SIM_INLINE float atomicExch(float* address, float val) {
  float old;
  __atomic_exchange(address, &val, &old, __ATOMIC_RELAXED);
  return old;
}
// ((old >= val) ? 0 : old + 1) and (((old == 0) || (old > val)) ? val : old - 1), as in CUDA.
C10_SIM_INLINE unsigned int atomicInc(unsigned int* address, unsigned int val) {
  return ::c10::cuda::sim::detail::atomic_update(
      address, [val](unsigned int v) { return v >= val ? 0u : v + 1; });
}
C10_SIM_INLINE unsigned int atomicDec(unsigned int* address, unsigned int val) {
  return ::c10::cuda::sim::detail::atomic_update(
      address, [val](unsigned int v) { return (v == 0 || v > val) ? val : v - 1; });
}

#undef C10_SIM_ATOMIC_FETCH
#undef C10_SIM_ATOMIC_MINMAX
#undef C10_SIM_ATOMIC_EXCH_CAS

// ------------------------------------------------------------------------------------------------
// Loads through the read-only cache: an ordinary load here.

template <typename T>
C10_SIM_INLINE T __ldg(const T* address) {
  return *address;
}

// ------------------------------------------------------------------------------------------------
// Device math intrinsics. extern "C", as CUDA declares them: glibc's <math.h> declares some of the
// same names (__expf, __logf, __powf, __sinf, ...) as C functions, and this definition must agree
// with that declaration. The fast approximations are the exact functions here.

extern "C" {
C10_SIM_INLINE float __expf(float x) noexcept {
  return ::expf(x);
}
C10_SIM_INLINE float __exp10f(float x) noexcept {
  return ::powf(10.0f, x);
}
C10_SIM_INLINE float __logf(float x) noexcept {
  return ::logf(x);
}
C10_SIM_INLINE float __log2f(float x) noexcept {
  return ::log2f(x);
}
C10_SIM_INLINE float __log10f(float x) noexcept {
  return ::log10f(x);
}
C10_SIM_INLINE float __powf(float x, float y) noexcept {
  return ::powf(x, y);
}
C10_SIM_INLINE float __sinf(float x) noexcept {
  return ::sinf(x);
}
C10_SIM_INLINE float __cosf(float x) noexcept {
  return ::cosf(x);
}
C10_SIM_INLINE float __tanf(float x) noexcept {
  return ::tanf(x);
}
C10_SIM_INLINE void __sincosf(float x, float* s, float* c) noexcept {
  *s = ::sinf(x);
  *c = ::cosf(x);
}
C10_SIM_INLINE float __fdividef(float x, float y) noexcept {
  return x / y;
}
C10_SIM_INLINE float __frcp_rn(float x) noexcept {
  return 1.0f / x;
}
C10_SIM_INLINE float __fsqrt_rn(float x) noexcept {
  return ::sqrtf(x);
}
C10_SIM_INLINE float __fadd_rn(float x, float y) noexcept {
  return x + y;
}
C10_SIM_INLINE float __fsub_rn(float x, float y) noexcept {
  return x - y;
}
C10_SIM_INLINE float __fmul_rn(float x, float y) noexcept {
  return x * y;
}
C10_SIM_INLINE float __fdiv_rn(float x, float y) noexcept {
  return x / y;
}
C10_SIM_INLINE float __fmaf_rn(float x, float y, float z) noexcept {
  return ::fmaf(x, y, z);
}
C10_SIM_INLINE double __fma_rn(double x, double y, double z) noexcept {
  return ::fma(x, y, z);
}
C10_SIM_INLINE float rsqrtf(float x) noexcept {
  return 1.0f / ::sqrtf(x);
}
C10_SIM_INLINE double rsqrt(double x) noexcept {
  return 1.0 / ::sqrt(x);
}
// Clamps to [0, 1]; NaN becomes 0.
C10_SIM_INLINE float __saturatef(float x) noexcept {
  return x >= 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f);
}

C10_SIM_INLINE int __float_as_int(float x) noexcept {
  int r;
  std::memcpy(&r, &x, sizeof r);
  return r;
}
C10_SIM_INLINE unsigned int __float_as_uint(float x) noexcept {
  unsigned int r;
  std::memcpy(&r, &x, sizeof r);
  return r;
}
C10_SIM_INLINE float __int_as_float(int x) noexcept {
  float r;
  std::memcpy(&r, &x, sizeof r);
  return r;
}
C10_SIM_INLINE float __uint_as_float(unsigned int x) noexcept {
  float r;
  std::memcpy(&r, &x, sizeof r);
  return r;
}
C10_SIM_INLINE long long __double_as_longlong(double x) noexcept {
  long long r;
  std::memcpy(&r, &x, sizeof r);
  return r;
}
C10_SIM_INLINE double __longlong_as_double(long long x) noexcept {
  double r;
  std::memcpy(&r, &x, sizeof r);
  return r;
}

// Bit counting. The __builtin_clz family is undefined for 0; CUDA's answer is the width.
C10_SIM_INLINE int __popc(unsigned int x) noexcept {
  return __builtin_popcount(x);
}
C10_SIM_INLINE int __popcll(unsigned long long x) noexcept {
  return __builtin_popcountll(x);
}
C10_SIM_INLINE int __clz(int x) noexcept {
  return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x));
}
C10_SIM_INLINE int __clzll(long long x) noexcept {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
C10_SIM_INLINE int __ffs(int x) noexcept {
  return __builtin_ffs(x);
}
C10_SIM_INLINE int __ffsll(long long x) noexcept {
  return __builtin_ffsll(x);
}
C10_SIM_INLINE unsigned int __brev(unsigned int x) noexcept {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
C10_SIM_INLINE unsigned long long __brevll(unsigned long long x) noexcept {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned int>(x))) << 32) |
      __brev(static_cast<unsigned int>(x >> 32));
}

// The high half of the full product.
C10_SIM_INLINE unsigned int __umulhi(unsigned int x, unsigned int y) noexcept {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >> 32);
}
C10_SIM_INLINE int __mulhi(int x, int y) noexcept {
  return static_cast<int>((static_cast<long long>(x) * y) >> 32);
}
C10_SIM_INLINE unsigned long long __umul64hi(unsigned long long x, unsigned long long y) noexcept {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
C10_SIM_INLINE long long __mul64hi(long long x, long long y) noexcept {
  return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
}  // extern "C"

// ------------------------------------------------------------------------------------------------
// CUDA's global min and max: overloads, not macros (a macro would break std::min, std::max and
// every (std::min)(a, b)). Mixed signed/unsigned pairs of one width take the unsigned type, as
// in CUDA; std::min and std::max are untouched.

#define C10_SIM_MINMAX(R, A, B)                          \
  C10_SIM_INLINE R min(A a, B b) {                       \
    const R x = static_cast<R>(a), y = static_cast<R>(b); \
    return y < x ? y : x;                                \
  }                                                      \
  C10_SIM_INLINE R max(A a, B b) {                       \
    const R x = static_cast<R>(a), y = static_cast<R>(b); \
    return x < y ? y : x;                                \
  }
C10_SIM_MINMAX(int, int, int)
C10_SIM_MINMAX(unsigned int, unsigned int, unsigned int)
C10_SIM_MINMAX(unsigned int, int, unsigned int)
C10_SIM_MINMAX(unsigned int, unsigned int, int)
C10_SIM_MINMAX(long, long, long)
C10_SIM_MINMAX(unsigned long, unsigned long, unsigned long)
C10_SIM_MINMAX(unsigned long, long, unsigned long)
C10_SIM_MINMAX(unsigned long, unsigned long, long)
C10_SIM_MINMAX(long long, long long, long long)
C10_SIM_MINMAX(unsigned long long, unsigned long long, unsigned long long)
C10_SIM_MINMAX(unsigned long long, long long, unsigned long long)
C10_SIM_MINMAX(unsigned long long, unsigned long long, long long)
#undef C10_SIM_MINMAX

// fminf/fmin: a NaN operand yields the other one, as CUDA's float min and max do.
#define C10_SIM_FMINMAX(R, A, B, FMIN, FMAX) \
  C10_SIM_INLINE R min(A a, B b) {           \
    return ::FMIN(a, b);                     \
  }                                          \
  C10_SIM_INLINE R max(A a, B b) {           \
    return ::FMAX(a, b);                     \
  }
C10_SIM_FMINMAX(float, float, float, fminf, fmaxf)
C10_SIM_FMINMAX(double, double, double, fmin, fmax)
C10_SIM_FMINMAX(double, float, double, fmin, fmax)
C10_SIM_FMINMAX(double, double, float, fmin, fmax)
#undef C10_SIM_FMINMAX

#undef C10_SIM_INLINE
#undef C10_SIM_FULL_MASK
