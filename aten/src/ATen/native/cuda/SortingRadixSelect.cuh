// aten/src/ATen/native/cuda/SortingRadixSelect.cuh - radix select: one block finds the k-th
// largest key of a row without sorting it, a few bits at a time; and the block-wide prefix
// sum that topk and kthvalue use to pick out the elements that win. Mirrors PyTorch's
// aten/src/ATen/native/cuda/SortingRadixSelect.cuh (radixSelect, countRadixUsingMask) and the
// exclusiveBinaryPrefixScan of its ScanUtils.cuh. Guide: docs/source/internals/cuda_training.rst.
//
// The keys are SortUtils.cuh's ordered keys. A "selection key" is the sort key for largest,
// its complement for smallest, so either way the task is the k-th LARGEST selection key.
#pragma once

#include <ATen/native/cuda/SortUtils.cuh>

#include <cstdint>

namespace at::native {

constexpr int kRadixBits = 4;                   // one hexadecimal digit per pass, as PyTorch's
constexpr int kRadixSize = 1 << kRadixBits;     // RADIX_BITS = 2 picks two bits
constexpr int kRadixMask = kRadixSize - 1;

template <typename scalar_t>
__device__ __forceinline__ sort_key_t<scalar_t> selection_key(scalar_t x, bool largest) {
  using key_t = sort_key_t<scalar_t>;
  const key_t key = to_sort_key(x);
  return largest ? key : static_cast<key_t>(~key);
}

template <typename key_t>
struct RadixSelectResult {
  key_t key;             // the k-th largest selection key of the row
  int64_t equal_needed;  // how many elements with exactly that key belong to the top k
};

// [marker: radix_select]
// Every thread of the block calls this with the same row and gets the same result. The key
// is decided digit by digit from the most significant end. Before each pass, `desired`
// holds the digits decided so far and `mask` marks them. A pass counts, over the keys that
// match `desired` on those digits, how many have each value of the next digit. Walking those
// counts from digit 15 down, the k-th largest lies in the first digit whose count reaches the
// number still wanted (k_left); the keys in higher digits are all larger, so they are taken
// off k_left. After the last digit the key is known, and k_left says how many of the elements
// equal to it are among the top k (the rest of the top k are strictly larger).
// `counts` is __shared__ memory of kRadixSize ints.
template <typename scalar_t>
__device__ RadixSelectResult<sort_key_t<scalar_t>> radix_select(const scalar_t* x, int64_t n, int64_t k,
                                                                 bool largest, int* counts) {
  using key_t = sort_key_t<scalar_t>;
  key_t desired = 0, mask = 0;
  int64_t k_left = k;
  for (int shift = 8 * static_cast<int>(sizeof(key_t)) - kRadixBits; shift >= 0; shift -= kRadixBits) {
    if (threadIdx.x < kRadixSize) {
      counts[threadIdx.x] = 0;
    }
    __syncthreads();
    // Each thread counts its own elements in registers, then adds them into shared memory:
    // kRadixSize atomics per thread rather than one per element.
    int local[kRadixSize];
    for (int d = 0; d < kRadixSize; d++) {
      local[d] = 0;
    }
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
      const key_t key = selection_key(x[i], largest);
      if ((key & mask) == desired) {
        local[(key >> shift) & kRadixMask]++;
      }
    }
    for (int d = 0; d < kRadixSize; d++) {
      if (local[d] != 0) {
        atomicAdd(&counts[d], local[d]);
      }
    }
    __syncthreads();
    for (int d = kRadixSize - 1; d >= 0; d--) {
      const int64_t count = counts[d];
      if (count >= k_left) {
        desired |= static_cast<key_t>(static_cast<key_t>(d) << shift);
        mask |= static_cast<key_t>(static_cast<key_t>(kRadixMask) << shift);
        break;
      }
      k_left -= count;
    }
    __syncthreads();  // every thread has read counts before the next pass clears them
  }
  return {desired, k_left};
}
// [end marker: radix_select]

// The exclusive prefix sum of one int per thread across the block (Hillis and Steele: after
// the step with offset o, scan[t] holds the sum of the 2o values ending at t), and the total
// in *total. `scan` is __shared__ memory of blockDim.x ints. Every thread of the block must call
// it: it contains barriers.
__device__ __forceinline__ int block_exclusive_sum(int value, int* scan, int* total) {
  const int t = threadIdx.x;
  scan[t] = value;
  __syncthreads();
  for (int offset = 1; offset < static_cast<int>(blockDim.x); offset *= 2) {
    const int left = t >= offset ? scan[t - offset] : 0;
    __syncthreads();  // all reads of this step before any write
    scan[t] += left;
    __syncthreads();
  }
  const int inclusive = scan[t];
  *total = scan[blockDim.x - 1];
  __syncthreads();  // all reads before the caller's next call overwrites scan
  return inclusive - value;
}

}  // namespace at::native
