// aten/src/ATen/native/cuda/Reduce.cuh - gpu_reduce_kernel: a reduction TensorIterator on the
// GPU. One block per output element: its threads stride over the reduced elements, each keeping
// a partial result in a register; the block then combines the partials, first through shared
// memory down to one warp, then with warp shuffles (WARP_SHFL_DOWN, ATen/cuda/DeviceUtils.cuh). Mirrors the structure of PyTorch's
// aten/src/ATen/native/cuda/Reduce.cuh (ReduceConfig, block_x_reduce, warp shuffles) in its
// simplest configuration: PyTorch also splits one output over several blocks (a global
// semaphore and a second pass) and vectorizes the loads. Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <ATen/cuda/DeviceUtils.cuh>
#include <ATen/native/cuda/Loops.cuh>

#include <limits>

namespace at::native {

// [marker: reduce_threads]
constexpr int kReduceThreads = 256;  // 8 warps
constexpr int kWarpSize = 32;
// [end marker: reduce_threads]

// [marker: block_reduce]
// Combine the blockDim.x partials of a block; thread 0 gets the result. Shared memory halves
// the number of live partials per step (a barrier between steps: a thread reads what another
// wrote); the last warp then needs no barrier, its lanes trade values with __shfl_down_sync.
template <typename acc_t, typename combine_t>
__device__ acc_t block_reduce(acc_t value, acc_t* shared, const combine_t& combine) {
  const int tid = threadIdx.x;
  shared[tid] = value;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride >= kWarpSize; stride /= 2) {
    if (tid < stride) {
      shared[tid] = combine(shared[tid], shared[tid + stride]);
    }
    __syncthreads();
  }
  if (tid < kWarpSize) {
    value = shared[tid];
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
      value = combine(value, WARP_SHFL_DOWN(value, offset));
    }
  }
  return value;
}
// [end marker: block_reduce]

// [marker: reduce_kernel]
// Block b computes output b: out = project(reduce over r of input[b, r]).
template <typename acc_t, typename out_t, typename ops_t>
__global__ void reduce_kernel(int64_t num_reduced, OffsetCalculator<2> output_calc, OffsetCalculator<1> input_calc,
                              char* out, const char* in, ScalarType in_dtype, acc_t ident, ops_t ops) {
  __shared__ acc_t shared[kReduceThreads];
  const auto base = output_calc.get(blockIdx.x);  // {output offset, input offset of r = 0}
  acc_t acc = ident;
  for (int64_t r = threadIdx.x; r < num_reduced; r += blockDim.x) {
    const char* p = in + base[1] + input_calc.get(r)[0];
    acc = ops.reduce(acc, c10::fetch_and_cast<acc_t>(in_dtype, p));
  }
  acc = block_reduce(acc, shared, [&](acc_t a, acc_t b) { return ops.combine(a, b); });
  if (threadIdx.x == 0) {
    *reinterpret_cast<out_t*>(out + base[0]) = static_cast<out_t>(ops.project(acc));
  }
}
// [end marker: reduce_kernel]

// [marker: gpu_reduce_kernel]
// A reduction iterator (make_reduction) has the output's stride 0 along the reduced dims.
// Those dims are split off: one offset calculator walks the outputs (with the input's offset
// of each output's first element), the other the reduced elements of one output.
template <typename out_t, typename acc_t, typename ops_t>
void gpu_reduce_kernel(TensorIteratorBase& iter, const ops_t& ops, acc_t ident) {
  TORCH_INTERNAL_ASSERT(iter.ntensors() == 2 && iter.noutputs() == 1, "gpu_reduce_kernel: one output, one input");
  const int64_t numel = iter.numel();
  if (numel == 0) {
    return;
  }
  OffsetCalculator<2> output_calc;
  OffsetCalculator<1> input_calc;
  int64_t num_outputs = 1;
  int64_t num_reduced = 1;
  for (int d = 0; d < iter.ndim(); d++) {
    const int64_t size = iter.shape()[d];
    if (iter.strides(0)[d] == 0 && size > 1) {
      TORCH_CHECK(input_calc.dims < kMaxDims, "too many reduced dimensions for the CUDA reduction");
      input_calc.sizes[input_calc.dims] = size;
      input_calc.strides[input_calc.dims][0] = iter.strides(1)[d];
      input_calc.dims++;
      num_reduced *= size;
    } else {
      TORCH_CHECK(output_calc.dims < kMaxDims, "too many dimensions for the CUDA reduction");
      output_calc.sizes[output_calc.dims] = size;
      output_calc.strides[output_calc.dims][0] = iter.strides(0)[d];
      output_calc.strides[output_calc.dims][1] = iter.strides(1)[d];
      output_calc.dims++;
      num_outputs *= size;
    }
  }
  TORCH_CHECK(num_outputs <= std::numeric_limits<int32_t>::max(), "too many outputs for one CUDA reduction grid");
  c10::cuda::CUDAGuard guard(iter.device(0));
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  reduce_kernel<acc_t, out_t, ops_t><<<static_cast<unsigned>(num_outputs), kReduceThreads, 0, stream>>>(
      num_reduced, output_calc, input_calc, static_cast<char*>(iter.data_ptr(0)),
      static_cast<const char*>(iter.data_ptr(1)), iter.dtype(1), ident, ops);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
// [end marker: gpu_reduce_kernel]

}  // namespace at::native
