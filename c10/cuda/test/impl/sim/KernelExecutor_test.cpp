// c10/cuda/test/impl/sim/KernelExecutor_test.cpp - CUDA kernels, written as for nvcc, run on the CPU by
// the simulated device's engine. This tree's simulated CUDA device; PyTorch has no such thing.
// Guide: docs/source/internals/cuda_simulated_device.rst
//
// Each launch is written in the form the translator gives `kernel<<<grid, block, smem>>>(args)`
// minus the stream: a run_grid call whose body calls the kernel.
#include <c10/cuda/impl/sim/cuda_sim.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using c10::cuda::sim::GridStatus;
using c10::cuda::sim::last_run_used_fibers;
using c10::cuda::sim::run_grid;

namespace {

constexpr unsigned kFull = 0xffffffffu;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// ------------------------------------------------------------------------------------------------
// Kernels.

struct Seen {
  uint3 block_idx;
  uint3 thread_idx;
  dim3 block_dim;
  dim3 grid_dim;
  int hits;
};

__device__ unsigned linear_block() {
  return blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
}

__device__ unsigned linear_thread() {
  return threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
}

__global__ void record_coordinates(Seen* seen, int sync) {
  const unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
  Seen& s = seen[linear_block() * nthreads + linear_thread()];
  s.block_idx = blockIdx;
  if (sync) {
    __syncthreads();  // the coordinates must survive a switch to the other fibers and back
  }
  s.thread_idx = threadIdx;
  s.block_dim = blockDim;
  s.grid_dim = gridDim;
  atomicAdd(&s.hits, 1);
}

__global__ void saxpy(int n, float a, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

__global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float partial[256];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[tid] = i < static_cast<unsigned>(n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      partial[tid] += partial[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) {
    out[blockIdx.x] = partial[0];
  }
}

__global__ void warp_sums(const int* in, int* down_out, int* xor_out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int down = in[i];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) {
    down += __shfl_down_sync(kFull, down, offset);
  }
  int all = in[i];
  for (int mask = warpSize / 2; mask > 0; mask /= 2) {
    all += __shfl_xor_sync(kFull, all, mask);
  }
  down_out[i] = down;
  xor_out[i] = all;
}

// Shuffles of double and of a 16-byte struct move whole values.
struct Quad {
  int a, b, c, d;
};
__global__ void shuffle_wide(double* d_out, Quad* q_out) {
  const unsigned lane = threadIdx.x % warpSize;
  d_out[threadIdx.x] = __shfl_sync(kFull, 0.5 * lane, (lane + 1) % warpSize);
  q_out[threadIdx.x] = __shfl_xor_sync(kFull, Quad{int(lane), -int(lane), 7, 8}, 1);
}

struct VoteOut {
  unsigned ballot;
  int any7, any_none, all_live, all_but_last;
  int idx_w8, idx_wrap, down_w8, up_w16, xor_w4;
};
__global__ void votes_and_segments(VoteOut* out) {
  const unsigned t = threadIdx.x;
  const int lane = static_cast<int>(t % warpSize);
  VoteOut& o = out[t];
  o.ballot = __ballot_sync(kFull, lane % 3 == 0);
  o.any7 = __any_sync(kFull, lane == 7);
  o.any_none = __any_sync(kFull, 0);
  o.all_live = __all_sync(kFull, 1);
  o.all_but_last = __all_sync(kFull, t + 1 < blockDim.x);
  o.idx_w8 = __shfl_sync(kFull, lane * 10, 1, 8);  // lane 1 of each 8-lane segment
  o.idx_wrap = __shfl_sync(kFull, lane, 35);       // 35 wraps to lane 3
  o.down_w8 = __shfl_down_sync(kFull, lane, 2, 8);
  o.up_w16 = __shfl_up_sync(kFull, lane, 3, 16);
  o.xor_w4 = __shfl_xor_sync(kFull, lane, 4, 4);
}

// Two halves of each warp shuffle separately, each naming only its own lanes in the mask.
__global__ void divergent_halves(int* out) {
  const int lane = static_cast<int>(threadIdx.x % warpSize);
  int v;
  if (lane < 16) {
    v = __shfl_down_sync(0x0000ffffu, lane, 1, 16);
  } else {
    v = __shfl_xor_sync(0xffff0000u, lane * 100, 1);
  }
  out[threadIdx.x] = v;
}

// Warps are consecutive linear thread ids, x fastest: in an 8x8 block, warp 1 is rows 4 to 7.
__global__ void warps_of_a_2d_block(int* out) {
  const unsigned t = threadIdx.x + threadIdx.y * blockDim.x;
  out[t] = __shfl_sync(kFull, static_cast<int>(threadIdx.y * 10 + threadIdx.x), 0) * 1000 +
      static_cast<int>(__popc(__ballot_sync(kFull, threadIdx.y % 2 == 0)));
}

// `extern __shared__ int buf[];`, as the translator rewrites it.
__global__ void reverse_each_block(const int* in, int* out, uintptr_t* addresses) {
  int* buf = ::c10::cuda::sim::dynamic_shared_memory<int>();
  const unsigned t = threadIdx.x;
  const unsigned base = blockIdx.x * blockDim.x;
  buf[t] = in[base + t];
  __syncthreads();
  out[base + t] = buf[blockDim.x - 1 - t];
  addresses[blockIdx.x] = reinterpret_cast<uintptr_t>(buf);
}

__global__ void count_everything(int n, int* count, float* fsum, double* dsum,
                                 unsigned long long* usum, unsigned* histogram) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(count, 1);
    atomicAdd(fsum, 0.5f);
    atomicAdd(dsum, 0.25);
    atomicAdd(usum, 3ull);
    atomicAdd(&histogram[i % 10], 1u);
  }
}

// The usual guard: the threads past the end return before the barrier; thread 0 never does.
__global__ void sum_with_early_return(const float* in, float* out, int n) {
  __shared__ float values[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    return;
  }
  values[threadIdx.x] = in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    const int first = static_cast<int>(blockIdx.x * blockDim.x);
    const int count = min(static_cast<int>(blockDim.x), n - first);
    float acc = 0.0f;
    for (int k = 0; k < count; ++k) {
      acc += values[k];
    }
    out[blockIdx.x] = acc;
  }
}

__global__ void only_some_threads_sync(int* ran) {
  atomicAdd(ran, 1);
  if (threadIdx.x > 0) {
    __syncthreads();
  }
}

// Thread 0 waits at the barrier for lanes that wait in __syncwarp() for thread 0.
__global__ void barrier_against_warp(int* ran) {
  atomicAdd(ran, 1);
  if (threadIdx.x == 0) {
    __syncthreads();
  } else {
    __syncwarp();
  }
}

__global__ void assert_in_loop_kernel(int* ran, int bad) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  ran[i] = 1;
  CUDA_KERNEL_ASSERT(i != bad);
}

__global__ void assert_after_barrier(int* ran, int bad) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  __syncthreads();
  ran[i] = 1;
  CUDA_KERNEL_ASSERT(i != bad);
  __syncthreads();
  ran[i] = 2;
}

__global__ void throw_after_barrier(int bad) {
  __syncthreads();
  if (static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x) == bad) {
    throw std::runtime_error("kernel threw");
  }
  __syncthreads();
}

__global__ void barrier_votes(int* counts, int* ands, int* ors) {
  const unsigned t = threadIdx.x;
  counts[t] = __syncthreads_count(t % 4 == 0);
  ands[t] = __syncthreads_and(t < 1000) * 10 + __syncthreads_and(t != 5);
  ors[t] = __syncthreads_or(t == 63) * 10 + __syncthreads_or(0);
}

// Thread (0,0,0) takes part in a warp collective only; that too must switch the block to fibers.
__global__ void warp_only(int* out) {
  out[threadIdx.x] = __shfl_sync(kFull, static_cast<int>(threadIdx.x) + 100, 0);
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// Tests.

TEST(KernelExecutor, EveryThreadOfA3DGridRunsOnceWithItsCoordinates) {
  const dim3 grid(3, 2, 4);
  const dim3 block(4, 3, 2);
  const unsigned nblocks = grid.x * grid.y * grid.z;
  const unsigned nthreads = block.x * block.y * block.z;
  for (int sync = 0; sync <= 1; ++sync) {
    std::vector<Seen> seen(nblocks * nthreads, Seen{});
    EXPECT_EQ(run_grid(grid, block, 0, [&] { record_coordinates(seen.data(), sync); }),
              GridStatus::Success);
    EXPECT_EQ(last_run_used_fibers(), sync == 1);
    for (unsigned b = 0; b < nblocks; ++b) {
      for (unsigned t = 0; t < nthreads; ++t) {
        const Seen& s = seen[b * nthreads + t];
        SCOPED_TRACE("sync " + std::to_string(sync) + " block " + std::to_string(b) +
                     " thread " + std::to_string(t));
        ASSERT_EQ(s.hits, 1);
        EXPECT_EQ(s.block_idx.x, b % grid.x);
        EXPECT_EQ(s.block_idx.y, b / grid.x % grid.y);
        EXPECT_EQ(s.block_idx.z, b / (grid.x * grid.y));
        EXPECT_EQ(s.thread_idx.x, t % block.x);
        EXPECT_EQ(s.thread_idx.y, t / block.x % block.y);
        EXPECT_EQ(s.thread_idx.z, t / (block.x * block.y));
        EXPECT_EQ(s.block_dim.x, 4u);
        EXPECT_EQ(s.block_dim.y, 3u);
        EXPECT_EQ(s.block_dim.z, 2u);
        EXPECT_EQ(s.grid_dim.x, 3u);
        EXPECT_EQ(s.grid_dim.y, 2u);
        EXPECT_EQ(s.grid_dim.z, 4u);
      }
    }
  }
}

TEST(KernelExecutor, EmptyGridRunsNothing) {
  int ran = 0;
  EXPECT_EQ(run_grid(dim3(0), dim3(32), 0, [&] { ++ran; }), GridStatus::Success);
  EXPECT_EQ(run_grid(dim3(4), dim3(32, 0), 0, [&] { ++ran; }), GridStatus::Success);
  EXPECT_EQ(ran, 0);
}

TEST(KernelExecutor, GridStrideElementwiseRunsAsAPlainLoop) {
  const int n = 1000000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1000);
    y[i] = 1.0f;
  }
  // 512 blocks of 256 threads: each thread strides over about 8 elements.
  EXPECT_EQ(run_grid(dim3(512), dim3(256), 0, [&] { saxpy(n, 2.0f, x.data(), y.data()); }),
            GridStatus::Success);
  EXPECT_FALSE(last_run_used_fibers());
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(y[i], 2.0f * static_cast<float>(i % 1000) + 1.0f) << "i = " << i;
  }
}

TEST(KernelExecutor, SharedMemoryBlockReductionMatchesTheHostSum) {
  const int n = 200003;  // the last block is partly past the end
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) {
    in[i] = static_cast<float>((i * 37) % 101) * 0.01f;
  }
  const int blocks = (n + 255) / 256;
  std::vector<float> partial(blocks, -1.0f);
  EXPECT_EQ(run_grid(dim3(blocks), dim3(256), 0, [&] { block_sum(in.data(), partial.data(), n); }),
            GridStatus::Success);
  EXPECT_TRUE(last_run_used_fibers());
  double total = 0.0;
  double host_total = 0.0;
  for (int b = 0; b < blocks; ++b) {
    double expected = 0.0;
    for (int i = b * 256; i < std::min(n, (b + 1) * 256); ++i) {
      expected += in[i];
    }
    ASSERT_NEAR(partial[b], expected, 1e-3) << "block " << b;
    total += partial[b];
    host_total += expected;
  }
  EXPECT_NEAR(total, host_total, 1e-6 * host_total);
}

TEST(KernelExecutor, WarpReductionWithShflDownAndShflXor) {
  const int threads = 128;
  const int blocks = 3;
  std::vector<int> in(threads * blocks), down(in.size()), all(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    in[i] = static_cast<int>(i * i % 97);
  }
  EXPECT_EQ(run_grid(dim3(blocks), dim3(threads), 0,
                     [&] { warp_sums(in.data(), down.data(), all.data()); }),
            GridStatus::Success);
  EXPECT_TRUE(last_run_used_fibers());
  for (size_t w = 0; w < in.size() / 32; ++w) {
    int sum = 0;
    for (size_t l = 0; l < 32; ++l) {
      sum += in[w * 32 + l];
    }
    EXPECT_EQ(down[w * 32], sum) << "warp " << w;  // shfl_down: lane 0 holds the sum
    // shfl_down past the warp's end gives the lane its own value: lane 31 never adds anything.
    EXPECT_EQ(down[w * 32 + 31], in[w * 32 + 31] * 32) << "warp " << w;
    for (size_t l = 0; l < 32; ++l) {
      ASSERT_EQ(all[w * 32 + l], sum) << "warp " << w << " lane " << l;  // xor: every lane
    }
  }
}

TEST(KernelExecutor, ShufflesMoveDoublesAndSixteenByteStructs) {
  std::vector<double> d(64);
  std::vector<Quad> q(64);
  EXPECT_EQ(run_grid(dim3(1), dim3(64), 0, [&] { shuffle_wide(d.data(), q.data()); }),
            GridStatus::Success);
  for (unsigned t = 0; t < 64; ++t) {
    const unsigned lane = t % 32;
    EXPECT_EQ(d[t], 0.5 * ((lane + 1) % 32));
    const int src = static_cast<int>(lane ^ 1);
    EXPECT_EQ(q[t].a, src);
    EXPECT_EQ(q[t].b, -src);
    EXPECT_EQ(q[t].c, 7);
    EXPECT_EQ(q[t].d, 8);
  }
}

TEST(KernelExecutor, BallotVotesAndSubWarpWidths) {
  // 40 threads: warp 1 has lanes 0-7 only.
  const unsigned threads = 40;
  std::vector<VoteOut> out(threads);
  EXPECT_EQ(run_grid(dim3(1), dim3(threads), 0, [&] { votes_and_segments(out.data()); }),
            GridStatus::Success);
  for (unsigned t = 0; t < threads; ++t) {
    SCOPED_TRACE("thread " + std::to_string(t));
    const int lane = static_cast<int>(t % 32);
    const unsigned live = t < 32 ? 0xffffffffu : 0xffu;
    EXPECT_EQ(out[t].ballot, 0x49249249u & live);  // lanes 0, 3, 6, ...
    EXPECT_EQ(out[t].any7, 1);
    EXPECT_EQ(out[t].any_none, 0);
    EXPECT_EQ(out[t].all_live, 1);
    EXPECT_EQ(out[t].all_but_last, t < 32 ? 1 : 0);
    EXPECT_EQ(out[t].idx_w8, ((lane & ~7) + 1) * 10);
    EXPECT_EQ(out[t].idx_wrap, 3);
    EXPECT_EQ(out[t].down_w8, (lane % 8) + 2 < 8 ? lane + 2 : lane);
    EXPECT_EQ(out[t].up_w16, (lane % 16) >= 3 ? lane - 3 : lane);
    // xor 4 within segments of 4 leaves the segment: upward it reads its own value, downward
    // it reaches the previous segment, as CUDA documents.
    EXPECT_EQ(out[t].xor_w4, (lane & 4) ? lane - 4 : lane);
  }
}

TEST(KernelExecutor, DivergentHalvesOfAWarpShuffleApart) {
  std::vector<int> out(64, -1);
  EXPECT_EQ(run_grid(dim3(1), dim3(64), 0, [&] { divergent_halves(out.data()); }),
            GridStatus::Success);
  for (int t = 0; t < 64; ++t) {
    const int lane = t % 32;
    const int expected = lane < 16 ? (lane < 15 ? lane + 1 : lane) : (lane ^ 1) * 100;
    EXPECT_EQ(out[t], expected) << "thread " << t;
  }
}

TEST(KernelExecutor, WarpsOfA2DBlockAreConsecutiveLinearIds) {
  std::vector<int> out(64, -1);
  EXPECT_EQ(run_grid(dim3(1), dim3(8, 8), 0, [&] { warps_of_a_2d_block(out.data()); }),
            GridStatus::Success);
  for (int t = 0; t < 64; ++t) {
    const int lane0_y = t < 32 ? 0 : 4;
    EXPECT_EQ(out[t], lane0_y * 10 * 1000 + 16) << "thread " << t;  // 2 of each 4 rows even
  }
}

TEST(KernelExecutor, DynamicSharedMemory) {
  const unsigned threads = 128;
  const unsigned blocks = 5;
  std::vector<int> in(threads * blocks), out(in.size(), -1);
  std::vector<uintptr_t> addresses(blocks);
  for (size_t i = 0; i < in.size(); ++i) {
    in[i] = static_cast<int>(i);
  }
  EXPECT_EQ(run_grid(dim3(blocks), dim3(threads), threads * sizeof(int),
                     [&] { reverse_each_block(in.data(), out.data(), addresses.data()); }),
            GridStatus::Success);
  for (unsigned b = 0; b < blocks; ++b) {
    EXPECT_EQ(addresses[b] % 16, 0u);
    EXPECT_EQ(addresses[b], addresses[0]);  // one buffer, reused block after block
    for (unsigned t = 0; t < threads; ++t) {
      ASSERT_EQ(out[b * threads + t], static_cast<int>(b * threads + threads - 1 - t));
    }
  }
}

TEST(KernelExecutor, AtomicAddOverAWholeGrid) {
  const int n = 100000;
  int count = 0;
  float fsum = 0.0f;
  double dsum = 0.0;
  unsigned long long usum = 0;
  std::vector<unsigned> histogram(10, 0);
  EXPECT_EQ(run_grid(dim3((n + 127) / 128), dim3(128), 0,
                     [&] { count_everything(n, &count, &fsum, &dsum, &usum, histogram.data()); }),
            GridStatus::Success);
  EXPECT_EQ(count, n);
  EXPECT_EQ(fsum, 0.5f * n);  // exact: every partial sum is a multiple of 0.5 below 2^24
  EXPECT_EQ(dsum, 0.25 * n);
  EXPECT_EQ(usum, 3ull * n);
  for (unsigned h : histogram) {
    EXPECT_EQ(h, static_cast<unsigned>(n / 10));
  }
}

// Blocks may later run on several OS threads: the atomics must be real, and each OS thread has
// its own engine state. Four OS threads each run a fiber-mode grid and an atomic count at once.
TEST(KernelExecutor, GridsOnSeveralOsThreadsAtOnce) {
  const int n = 20000;
  int count = 0;
  float fsum = 0.0f;
  double dsum = 0.0;
  unsigned long long usum = 0;
  std::vector<unsigned> histogram(10, 0);
  std::vector<std::thread> workers;
  std::vector<int> ok(4, 0);
  for (int w = 0; w < 4; ++w) {
    workers.emplace_back([&, w] {
      std::vector<float> in(4096, 1.0f);
      std::vector<float> partial(16, 0.0f);
      const bool sum_ok =
          run_grid(dim3(16), dim3(256), 0, [&] { block_sum(in.data(), partial.data(), 4096); }) ==
              GridStatus::Success &&
          last_run_used_fibers() &&
          std::all_of(partial.begin(), partial.end(), [](float p) { return p == 256.0f; });
      const bool count_ok =
          run_grid(dim3((n + 127) / 128), dim3(128), 0, [&] {
            count_everything(n, &count, &fsum, &dsum, &usum, histogram.data());
          }) == GridStatus::Success &&
          !last_run_used_fibers();
      ok[w] = sum_ok && count_ok;
    });
  }
  for (auto& t : workers) {
    t.join();
  }
  EXPECT_EQ(ok, std::vector<int>(4, 1));
  EXPECT_EQ(count, 4 * n);
  EXPECT_EQ(usum, 12ull * n);
  EXPECT_EQ(dsum, 4 * 0.25 * n);
  EXPECT_EQ(fsum, 4 * 0.5f * n);
}

TEST(KernelExecutor, OtherAtomics) {
  int i = 5;
  EXPECT_EQ(atomicMax(&i, 9), 5);
  EXPECT_EQ(atomicMin(&i, -3), 9);
  EXPECT_EQ(atomicSub(&i, 2), -3);
  EXPECT_EQ(i, -5);
  unsigned u = 0xf0;
  EXPECT_EQ(atomicAnd(&u, 0x3cu), 0xf0u);
  EXPECT_EQ(atomicOr(&u, 0x01u), 0x30u);
  EXPECT_EQ(atomicXor(&u, 0x11u), 0x31u);
  EXPECT_EQ(u, 0x20u);
  EXPECT_EQ(atomicCAS(&u, 0x20u, 7u), 0x20u);
  EXPECT_EQ(atomicCAS(&u, 0x20u, 9u), 7u);  // no match: unchanged
  EXPECT_EQ(u, 7u);
  EXPECT_EQ(atomicExch(&u, 3u), 7u);
  EXPECT_EQ(atomicInc(&u, 3u), 3u);  // 3 >= 3 wraps to 0
  EXPECT_EQ(u, 0u);
  EXPECT_EQ(atomicDec(&u, 4u), 0u);  // 0 wraps to 4
  EXPECT_EQ(u, 4u);
  unsigned short s = 1;
  EXPECT_EQ(atomicCAS(&s, static_cast<unsigned short>(1), static_cast<unsigned short>(2)), 1);
  EXPECT_EQ(s, 2);
  long long ll = -1;
  EXPECT_EQ(atomicMax(&ll, 1ll << 40), -1);
  EXPECT_EQ(ll, 1ll << 40);
  unsigned long long ull = 10;
  EXPECT_EQ(atomicMin(&ull, 4ull), 10ull);
  EXPECT_EQ(atomicSub(&ull, 1ull), 4ull);
  EXPECT_EQ(ull, 3ull);
  float f = 1.5f;
  EXPECT_EQ(atomicExch(&f, 2.5f), 1.5f);
  EXPECT_EQ(f, 2.5f);
}

TEST(KernelExecutor, EarlyReturnBeforeTheBarrier) {
  const int n = 1000;  // the last of 4 blocks has 232 threads in range, 24 that return
  std::vector<float> in(n), out(4, -1.0f);
  for (int i = 0; i < n; ++i) {
    in[i] = static_cast<float>(i);
  }
  EXPECT_EQ(
      run_grid(dim3(4), dim3(256), 0, [&] { sum_with_early_return(in.data(), out.data(), n); }),
      GridStatus::Success);
  EXPECT_TRUE(last_run_used_fibers());
  for (int b = 0; b < 4; ++b) {
    float expected = 0.0f;
    for (int i = b * 256; i < std::min(n, (b + 1) * 256); ++i) {
      expected += in[i];
    }
    EXPECT_EQ(out[b], expected) << "block " << b;
  }
}

TEST(KernelExecutor, BarrierThreadZeroNeverReachesIsBadBarrier) {
  int ran = 0;
  testing::internal::CaptureStderr();
  const GridStatus status = run_grid(dim3(2), dim3(64), 0, [&] { only_some_threads_sync(&ran); });
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, GridStatus::BadBarrier);
  EXPECT_FALSE(last_run_used_fibers());
  EXPECT_EQ(ran, 2);  // thread 0, then thread 1, which stopped the grid
  EXPECT_TRUE(contains(err, "block [0,0,0], thread [1,0,0] reached __syncthreads()")) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
}

TEST(KernelExecutor, ThreadsWaitingForEachOtherInACycleIsBadBarrier) {
  int ran = 0;
  testing::internal::CaptureStderr();
  const GridStatus status = run_grid(dim3(3), dim3(32), 0, [&] { barrier_against_warp(&ran); });
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, GridStatus::BadBarrier);
  EXPECT_EQ(ran, 32);  // block 0 only
  EXPECT_TRUE(contains(err, "block [0,0,0] deadlocked")) << err;
}

TEST(KernelExecutor, DeviceAssertStopsAPlainGrid) {
  std::vector<int> ran(4 * 64, 0);
  testing::internal::CaptureStderr();
  const GridStatus status =
      run_grid(dim3(4), dim3(64), 0, [&] { assert_in_loop_kernel(ran.data(), 100); });
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, GridStatus::AssertFailed);
  EXPECT_FALSE(last_run_used_fibers());
  for (int i = 0; i < 4 * 64; ++i) {
    ASSERT_EQ(ran[i], i <= 100 ? 1 : 0) << "i = " << i;
  }
  EXPECT_TRUE(contains(err, "KernelExecutor_test.cpp:")) << err;
  EXPECT_TRUE(contains(err,
                       ": assert_in_loop_kernel: block: [1,0,0], thread: [36,0,0] "
                       "Assertion `i != bad` failed.\n"))
      << err;
}

TEST(KernelExecutor, DeviceAssertStopsAFiberGridAndTheNextGridRuns) {
  const int threads = 64;
  std::vector<int> ran(5 * threads, 0);
  testing::internal::CaptureStderr();
  const GridStatus status = run_grid(
      dim3(5), dim3(threads), 0, [&] { assert_after_barrier(ran.data(), 2 * threads + 5); });
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, GridStatus::AssertFailed);
  EXPECT_TRUE(last_run_used_fibers());
  EXPECT_TRUE(contains(err, "block: [2,0,0], thread: [5,0,0] Assertion `i != bad` failed.")) << err;
  for (int b = 0; b < 5; ++b) {
    for (int t = 0; t < threads; ++t) {
      const int v = ran[b * threads + t];
      if (b < 2) {
        ASSERT_EQ(v, 2);
      } else if (b == 2) {
        // Thread 63, the last to reach the first barrier, released the others and went on
        // before them; threads 6 to 62 never passed the barrier.
        ASSERT_EQ(v, (t <= 5 || t == threads - 1) ? 1 : 0) << "thread " << t;
      } else {
        ASSERT_EQ(v, 0);
      }
    }
  }
  // The fibers left waiting at the barrier start afresh for the next grid.
  std::vector<float> in(4096, 1.0f), partial(16, 0.0f);
  EXPECT_EQ(run_grid(dim3(16), dim3(256), 0, [&] { block_sum(in.data(), partial.data(), 4096); }),
            GridStatus::Success);
  EXPECT_EQ(partial, std::vector<float>(16, 256.0f));
}

TEST(KernelExecutor, KernelExceptionIsRethrownAndTheNextGridRuns) {
  EXPECT_THROW(run_grid(dim3(3), dim3(64), 0, [&] { throw_after_barrier(64 + 3); }),
               std::runtime_error);
  std::vector<float> in(1024, 2.0f), partial(4, 0.0f);
  EXPECT_EQ(run_grid(dim3(4), dim3(256), 0, [&] { block_sum(in.data(), partial.data(), 1024); }),
            GridStatus::Success);
  EXPECT_EQ(partial, std::vector<float>(4, 512.0f));
}

TEST(KernelExecutor, SyncthreadsCountAndOr) {
  std::vector<int> counts(64), ands(64), ors(64);
  EXPECT_EQ(run_grid(dim3(1), dim3(64), 0,
                     [&] { barrier_votes(counts.data(), ands.data(), ors.data()); }),
            GridStatus::Success);
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(counts[t], 16);
    EXPECT_EQ(ands[t], 10);
    EXPECT_EQ(ors[t], 10);
  }
}

TEST(KernelExecutor, AWarpCollectiveAloneSwitchesToFibers) {
  std::vector<int> out(64, -1);
  EXPECT_EQ(run_grid(dim3(2), dim3(64), 0, [&] { warp_only(out.data()); }), GridStatus::Success);
  EXPECT_TRUE(last_run_used_fibers());
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(out[t], t < 32 ? 100 : 132);
  }
}

// A block of one thread: its barrier is met at once, yet the kernel has one.
TEST(KernelExecutor, SingleThreadBlocksWithABarrier) {
  std::vector<float> in(8, 3.0f), partial(8, 0.0f);
  EXPECT_EQ(run_grid(dim3(8), dim3(1), 0, [&] { block_sum(in.data(), partial.data(), 8); }),
            GridStatus::Success);
  EXPECT_TRUE(last_run_used_fibers());
  EXPECT_EQ(partial, std::vector<float>(8, 3.0f));
}

TEST(KernelExecutor, DeviceIntrinsicsAndMinMax) {
  EXPECT_EQ(__popc(0xf0f0u), 8);
  EXPECT_EQ(__popcll(~0ull), 64);
  EXPECT_EQ(__clz(0), 32);
  EXPECT_EQ(__clz(1), 31);
  EXPECT_EQ(__clzll(0), 64);
  EXPECT_EQ(__ffs(0), 0);
  EXPECT_EQ(__ffs(8), 4);
  EXPECT_EQ(__ffsll(1ll << 40), 41);
  EXPECT_EQ(__brev(1u), 0x80000000u);
  EXPECT_EQ(__brev(0x12345678u), 0x1e6a2c48u);
  EXPECT_EQ(__umulhi(0x80000000u, 4u), 2u);
  EXPECT_EQ(__mulhi(-1, 1), -1);
  EXPECT_EQ(__float_as_int(1.0f), 0x3f800000);
  EXPECT_EQ(__int_as_float(0x40000000), 2.0f);
  EXPECT_EQ(__longlong_as_double(__double_as_longlong(-2.5)), -2.5);
  EXPECT_EQ(__saturatef(1.5f), 1.0f);
  EXPECT_EQ(__saturatef(-0.5f), 0.0f);
  EXPECT_EQ(__saturatef(NAN), 0.0f);
  EXPECT_FLOAT_EQ(__expf(1.0f), std::exp(1.0f));
  EXPECT_FLOAT_EQ(__logf(8.0f), std::log(8.0f));
  EXPECT_FLOAT_EQ(__powf(2.0f, 10.0f), 1024.0f);
  EXPECT_FLOAT_EQ(__fdividef(1.0f, 4.0f), 0.25f);
  EXPECT_FLOAT_EQ(__frcp_rn(8.0f), 0.125f);
  EXPECT_FLOAT_EQ(rsqrtf(4.0f), 0.5f);
  EXPECT_DOUBLE_EQ(rsqrt(16.0), 0.25);
  EXPECT_FLOAT_EQ(__fmaf_rn(2.0f, 3.0f, 1.0f), 7.0f);
  const float x = 3.0f;
  EXPECT_EQ(__ldg(&x), 3.0f);

  EXPECT_EQ(min(3, -4), -4);
  EXPECT_EQ(max(3u, 4u), 4u);
  EXPECT_EQ(::min(-1, 1u), 1u);  // mixed signedness compares as unsigned, as in CUDA
  EXPECT_EQ(max(1ll << 40, 5ll), 1ll << 40);
  EXPECT_EQ(min(int64_t{-7}, int64_t{2}), -7);
  EXPECT_EQ(max(size_t{3}, size_t{9}), 9u);
  EXPECT_EQ(min(1.5f, 2.5f), 1.5f);
  EXPECT_EQ(max(1.5, 2.5), 2.5);
  EXPECT_EQ(max(NAN, 1.0f), 1.0f);
  // std::min and std::max are CUDA-free as before.
  EXPECT_EQ(std::min(2, 3), 2);
  EXPECT_EQ(std::max<double>(2, 3.5), 3.5);
  EXPECT_EQ((std::min)(std::string("b"), std::string("a")), "a");
}

// Not a check of speed, a record of it: the plain loop's cost per thread against a C++ loop,
// and a block reduction, which runs on fibers.
TEST(KernelExecutor, Timings) {
  const int n = 1000000;
  std::vector<float> x(n, 1.0f), y(n, 0.0f), ref(n, 0.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 7);
  }
  auto best = [](int reps, auto&& f) {
    double b = 1e30;
    for (int r = 0; r < reps; ++r) {
      const auto start = std::chrono::steady_clock::now();
      f();
      b = std::min(b, seconds_since(start));
    }
    return b;
  };
  const double loop = best(5, [&] {
    float* __restrict__ yy = ref.data();
    const float* __restrict__ xx = x.data();
    for (int i = 0; i < n; ++i) {
      yy[i] = 2.0f * xx[i] + yy[i];
    }
  });
  const double one_per_thread = best(5, [&] {
    run_grid(dim3((n + 255) / 256), dim3(256), 0, [&] { saxpy(n, 2.0f, x.data(), y.data()); });
  });
  EXPECT_FALSE(last_run_used_fibers());
  const double strided = best(5, [&] {
    run_grid(dim3(512), dim3(256), 0, [&] { saxpy(n, 2.0f, x.data(), y.data()); });
  });
  for (int i = 0; i < n; i += 997) {
    ASSERT_EQ(y[i], 2.0f * ref[i]);  // the loop ran 5 times, the grids 10
  }

  const int blocks = (n + 255) / 256;
  std::vector<float> partial(blocks);
  const double reduction = best(1, [&] {
    run_grid(dim3(blocks), dim3(256), 0, [&] { block_sum(x.data(), partial.data(), n); });
  });
  EXPECT_TRUE(last_run_used_fibers());
  double total = 0;
  for (float p : partial) {
    total += p;
  }
  double expected = 0;
  for (float v : x) {
    expected += v;
  }
  EXPECT_EQ(total, expected);

  std::printf(
      "[ timings  ] saxpy over %d floats: C++ loop %.2f ms; plain-mode grid, one element per "
      "thread %.2f ms, 512x256 grid-stride %.2f ms\n"
      "[ timings  ] block_sum over %d floats, %d blocks of 256 on fibers: %.1f ms\n",
      n, loop * 1e3, one_per_thread * 1e3, strided * 1e3, n, blocks, reduction * 1e3);
}
