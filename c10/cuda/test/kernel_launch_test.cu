// c10/cuda/test/kernel_launch_test.cu - one CUDA source, two executors: these kernels and
// launches are compiled by nvcc for a GPU (skipped without one) and, translated by
// tools/cuda_sim/translate.py, by the host compiler for the simulated CUDA device (run with
// TORCH_CUDA_SIMULATE=2). In the spirit of PyTorch's aten/src/ATen/test/cuda_*.cu.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <numeric>
#include <thread>
#include <vector>

namespace {

bool have_device() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // no device: clear the error for the next test
    return false;
  }
  return n > 0;
}

#define SKIP_WITHOUT_DEVICE()                                                  \
  if (!have_device()) {                                                        \
    GTEST_SKIP() << "no CUDA device (TORCH_CUDA_SIMULATE=1 gives a simulated one)"; \
  }

// A grid-stride loop: any grid covers any n.
__global__ void axpy_kernel(int n, float a, const float* x, float* y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i] = a * x[i] + y[i];
  }
}

// One partial sum per block: a tree in shared memory down to a warp, then warp shuffles.
template <int kThreads>
__global__ void block_sum_kernel(int n, const float* x, float* partial) {
  __shared__ float buf[kThreads];
  float v = 0;
  for (int i = blockIdx.x * kThreads + threadIdx.x; i < n; i += kThreads * gridDim.x) {
    v += x[i];
  }
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int stride = kThreads / 2; stride >= 32; stride /= 2) {
    if (threadIdx.x < stride) {
      buf[threadIdx.x] += buf[threadIdx.x + stride];
    }
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    float w = buf[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) {
      w += __shfl_down_sync(0xffffffff, w, offset);
    }
    if (threadIdx.x == 0) {
      partial[blockIdx.x] = w;
    }
  }
}

__global__ void histogram_kernel(int n, const int* bins, int* counts) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&counts[bins[i]], 1);
  }
}

__global__ void fill_kernel(int n, float value, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = value;
  }
}

TEST(KernelLaunchTest, AxpyOverAGridStrideLoop) {
  SKIP_WITHOUT_DEVICE();
  const int n = 100000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; i++) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  float *dx = nullptr, *dy = nullptr;
  ASSERT_EQ(cudaMalloc(&dx, n * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dy, n * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  axpy_kernel<<<64, 256>>>(n, 2.0f, dx, dy);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  for (int i = 0; i < n; i += 997) {
    EXPECT_EQ(y[i], 2.0f * i + 1.0f) << "at " << i;
  }
  cudaFree(dx);
  cudaFree(dy);
}

TEST(KernelLaunchTest, BlockReductionWithSharedMemoryAndShuffles) {
  SKIP_WITHOUT_DEVICE();
  const int n = 1 << 16;
  const int blocks = 40;
  std::vector<float> x(n);
  for (int i = 0; i < n; i++) {
    x[i] = static_cast<float>(i % 7);
  }
  float *dx = nullptr, *dpartial = nullptr;
  ASSERT_EQ(cudaMalloc(&dx, n * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dpartial, blocks * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  block_sum_kernel<256><<<blocks, 256>>>(n, dx, dpartial);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  std::vector<float> partial(blocks);
  ASSERT_EQ(cudaMemcpy(partial.data(), dpartial, blocks * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  const double total = std::accumulate(partial.begin(), partial.end(), 0.0);
  EXPECT_EQ(total, std::accumulate(x.begin(), x.end(), 0.0));
  cudaFree(dx);
  cudaFree(dpartial);
}

TEST(KernelLaunchTest, AtomicAddFromEveryThread) {
  SKIP_WITHOUT_DEVICE();
  const int n = 10000;
  std::vector<int> bins(n);
  for (int i = 0; i < n; i++) {
    bins[i] = (i * 7) % 10;
  }
  int *dbins = nullptr, *dcounts = nullptr;
  ASSERT_EQ(cudaMalloc(&dbins, n * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dcounts, 10 * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemset(dcounts, 0, 10 * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(dbins, bins.data(), n * sizeof(int), cudaMemcpyHostToDevice), cudaSuccess);
  histogram_kernel<<<(n + 127) / 128, 128>>>(n, dbins, dcounts);
  std::vector<int> counts(10);
  ASSERT_EQ(cudaMemcpy(counts.data(), dcounts, 10 * sizeof(int), cudaMemcpyDeviceToHost), cudaSuccess);
  for (int c : counts) {
    EXPECT_EQ(c, n / 10);
  }
  cudaFree(dbins);
  cudaFree(dcounts);
}

TEST(KernelLaunchTest, BadConfigurationsFailAsCUDADoes) {
  SKIP_WITHOUT_DEVICE();
  float* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 4), cudaSuccess);
  fill_kernel<<<1, 2048>>>(1, 1.0f, d);  // more than 1024 threads per block
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument");
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // a launch error is not sticky
  fill_kernel<<<0, 32>>>(1, 1.0f, d);           // an empty grid
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  cudaFree(d);
}

TEST(KernelLaunchTest, StreamsRunInOrderAndEventsOrderStreams) {
  SKIP_WITHOUT_DEVICE();
  const int n = 1 << 20;
  float* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, n * sizeof(float)), cudaSuccess);
  cudaStream_t a, b;
  ASSERT_EQ(cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking), cudaSuccess);
  cudaEvent_t filled, start, stop;
  ASSERT_EQ(cudaEventCreate(&filled), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&start), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&stop), cudaSuccess);
  ASSERT_EQ(cudaEventRecord(start, a), cudaSuccess);
  fill_kernel<<<(n + 255) / 256, 256, 0, a>>>(n, 3.0f, d);
  ASSERT_EQ(cudaEventRecord(filled, a), cudaSuccess);
  // b's axpy must see a's fill: it waits for the event, not for the host.
  ASSERT_EQ(cudaStreamWaitEvent(b, filled, 0), cudaSuccess);
  axpy_kernel<<<64, 256, 0, b>>>(n, 1.0f, d, d);  // d = 2 * d
  ASSERT_EQ(cudaEventRecord(stop, b), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(b), cudaSuccess);
  EXPECT_EQ(cudaEventQuery(stop), cudaSuccess);
  float ms = -1;
  ASSERT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
  EXPECT_GE(ms, 0.0f);
  std::vector<float> out(n);
  ASSERT_EQ(cudaMemcpy(out.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(out[0], 6.0f);
  EXPECT_EQ(out[n - 1], 6.0f);
  cudaFree(d);
}

TEST(KernelLaunchTest, TwoDevicesHaveTheirOwnMemory) {
  SKIP_WITHOUT_DEVICE();
  int n = 0;
  ASSERT_EQ(cudaGetDeviceCount(&n), cudaSuccess);
  if (n < 2) {
    GTEST_SKIP() << "one device";
  }
  size_t free0 = 0, free1 = 0, total = 0;
  ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
  ASSERT_EQ(cudaMemGetInfo(&free1, &total), cudaSuccess);
  float* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 64 << 20), cudaSuccess);
  size_t after = 0;
  ASSERT_EQ(cudaMemGetInfo(&after, &total), cudaSuccess);
  EXPECT_EQ(free1 - after, size_t(64) << 20);
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
  ASSERT_EQ(cudaMemGetInfo(&free0, &total), cudaSuccess);
  EXPECT_EQ(free0, free1);  // device 0 did not pay for device 1's allocation
  EXPECT_EQ(cudaSetDevice(n), cudaErrorInvalidDevice);
  cudaGetLastError();
  ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
  cudaFree(d);
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
}

}  // namespace
