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
#include <type_traits>
#include <utility>

namespace at::native {

constexpr int kReduceThreads = 256;  // 8 warps
constexpr int kWarpSize = 32;
// From this many outputs on, one thread per output is parallelism enough.
constexpr int64_t kThreadReduceOutputs = 65536;

// An accumulator or result of two parts (a value and its index, for max(dim) and argmax), that
// device code can build, copy and keep in shared memory (PyTorch uses thrust::pair).
template <typename T1, typename T2>
struct pair {
  T1 first;
  T2 second;
};

// [marker: block_reduce]
// Combine the blockDim.x partials of a block; thread 0 gets the result. Shared memory halves
// the number of live partials per step (a barrier between steps: a thread reads what another
// wrote); the last warp then needs no barrier, its lanes trade values with shuffles. How an
// accumulator crosses lanes is the ops' business (ops.warp_shfl_down): a pair or a Welford
// state moves member by member, since a shuffle moves one 32- or 64-bit register.
template <typename acc_t, typename ops_t>
__device__ acc_t block_reduce(acc_t value, acc_t* shared, const ops_t& ops) {
  const int tid = threadIdx.x;
  shared[tid] = value;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride >= kWarpSize; stride /= 2) {
    if (tid < stride) {
      shared[tid] = ops.combine(shared[tid], shared[tid + stride]);
    }
    __syncthreads();
  }
  if (tid < kWarpSize) {
    value = shared[tid];
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2) {
      value = ops.combine(value, ops.warp_shfl_down(value, offset));
    }
  }
  return value;
}
// [end marker: block_reduce]

// Where project's result goes: one output, or a pair into two (values and indices).
template <typename out_t>
__device__ void set_results(const out_t& result, char* const* out, const int64_t* offsets) {
  *reinterpret_cast<out_t*>(out[0] + offsets[0]) = result;
}
template <typename T1, typename T2>
__device__ void set_results(const pair<T1, T2>& result, char* const* out, const int64_t* offsets) {
  *reinterpret_cast<T1*>(out[0] + offsets[0]) = result.first;
  *reinterpret_cast<T2*>(out[1] + offsets[1]) = result.second;
}

// How a kernel reads one input element as arg_t: straight, when the input already has that
// type (sum of float32), or converting from the input's dtype (sum of float16 in float).
template <typename arg_t>
struct DirectLoad {
  __device__ arg_t operator()(const char* p) const { return *reinterpret_cast<const arg_t*>(p); }
};
template <typename arg_t>
struct CastLoad {
  ScalarType dtype;
  __device__ arg_t operator()(const char* p) const { return c10::fetch_and_cast<arg_t>(dtype, p); }
};

template <int noutputs>
struct OutputPointers {
  char* ptrs[noutputs];
};

// [marker: reduce_kernel]
// Block b computes output b: out = project(reduce over r of input[b, r]). Each element is read
// as arg_t (converted from the input's dtype) and reduced with its index r along the reduced
// dimensions, which argmax keeps; ident is the accumulator of an empty range.
template <typename acc_t, int noutputs, typename ops_t, typename load_t>
__global__ void reduce_kernel(int64_t num_reduced, OffsetCalculator<noutputs + 1> output_calc,
                              OffsetCalculator<1> input_calc, OutputPointers<noutputs> out, const char* in,
                              load_t load, acc_t ident, ops_t ops) {
  __shared__ acc_t shared[kReduceThreads];
  // {output offsets..., input offset of r = 0}
  const auto base = output_calc.get(blockIdx.x);
  acc_t acc = ident;
  for (int64_t r = threadIdx.x; r < num_reduced; r += blockDim.x) {
    acc = ops.reduce(acc, load(in + base[noutputs] + input_calc.get(r)[0]), r);
  }
  acc = block_reduce(acc, shared, ops);
  if (threadIdx.x == 0) {
    set_results(ops.project(acc), out.ptrs, base.data());
  }
}
// [end marker: reduce_kernel]

// Thread o computes output o alone, walking its reduced elements in order: no shared memory,
// no barrier, no shuffle. The launcher picks it when a block per output would waste the
// block (fewer reduced elements than threads) or when the outputs alone are enough threads
// to fill the GPU; PyTorch's ReduceConfig makes the same trade (block.x along the outputs).
template <typename acc_t, int noutputs, typename ops_t, typename load_t>
__global__ void thread_reduce_kernel(int64_t num_outputs, int64_t num_reduced,
                                     OffsetCalculator<noutputs + 1> output_calc, OffsetCalculator<1> input_calc,
                                     OutputPointers<noutputs> out, const char* in, load_t load, acc_t ident,
                                     ops_t ops) {
  const int64_t o = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= num_outputs) {
    return;
  }
  const auto base = output_calc.get(o);
  acc_t acc = ident;
  for (int64_t r = 0; r < num_reduced; r++) {
    acc = ops.reduce(acc, load(in + base[noutputs] + input_calc.get(r)[0]), r);
  }
  set_results(ops.project(acc), out.ptrs, base.data());
}

// [marker: launch_reduce_kernel]
template <typename arg_t, typename acc_t, int noutputs, typename ops_t>
void launch_reduce_kernel(TensorIteratorBase& iter, const ops_t& ops, acc_t ident) {
  OffsetCalculator<noutputs + 1> output_calc;
  OffsetCalculator<1> input_calc;
  int64_t num_outputs = 1;
  int64_t num_reduced = 1;
  for (int d = 0; d < iter.ndim(); d++) {
    const int64_t size = iter.shape()[d];
    if (iter.strides(0)[d] == 0 && size > 1) {
      TORCH_CHECK(input_calc.dims < kMaxDims, "too many reduced dimensions for the CUDA reduction");
      input_calc.sizes[input_calc.dims] = size;
      input_calc.strides[input_calc.dims][0] = iter.strides(noutputs)[d];
      input_calc.dims++;
      num_reduced *= size;
    } else {
      TORCH_CHECK(output_calc.dims < kMaxDims, "too many dimensions for the CUDA reduction");
      output_calc.sizes[output_calc.dims] = size;
      for (int arg = 0; arg <= noutputs; arg++) {
        output_calc.strides[output_calc.dims][arg] = iter.strides(arg)[d];
      }
      output_calc.dims++;
      num_outputs *= size;
    }
  }
  TORCH_CHECK(num_outputs <= std::numeric_limits<int32_t>::max(), "too many outputs for one CUDA reduction grid");
  OutputPointers<noutputs> out;
  for (int arg = 0; arg < noutputs; arg++) {
    out.ptrs[arg] = static_cast<char*>(iter.data_ptr(arg));
  }
  c10::cuda::CUDAGuard guard(iter.device(0));
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const auto* in = static_cast<const char*>(iter.data_ptr(noutputs));
  const ScalarType in_dtype = iter.dtype(noutputs);
  auto launch = [&](auto load) {
    using load_t = decltype(load);
    if (num_reduced < kReduceThreads || num_outputs >= kThreadReduceOutputs) {
      const auto blocks = static_cast<unsigned>((num_outputs + kReduceThreads - 1) / kReduceThreads);
      thread_reduce_kernel<acc_t, noutputs, ops_t, load_t><<<blocks, kReduceThreads, 0, stream>>>(
          num_outputs, num_reduced, output_calc, input_calc, out, in, load, ident, ops);
    } else {
      reduce_kernel<acc_t, noutputs, ops_t, load_t><<<static_cast<unsigned>(num_outputs), kReduceThreads, 0, stream>>>(
          num_reduced, output_calc, input_calc, out, in, load, ident, ops);
    }
  };
  if (in_dtype == c10::CppTypeToScalarType<arg_t>::value) {
    launch(DirectLoad<arg_t>{});
  } else {
    launch(CastLoad<arg_t>{in_dtype});
  }
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
// [end marker: launch_reduce_kernel]

// [marker: gpu_reduce_kernel]
// A reduction iterator (make_reduction) has the outputs' strides 0 along the reduced dims.
// Those dims are split off: one offset calculator walks the outputs (with the input's offset
// of each output's first element), the other the reduced elements of one output. The
// iterator has one output (sum, argmax), or two when ops.project returns a pair (max(dim)'s
// values and indices, var_mean's var and mean).
template <typename T>
struct is_pair : std::false_type {};
template <typename T1, typename T2>
struct is_pair<pair<T1, T2>> : std::true_type {};

template <typename arg_t, typename acc_t, typename ops_t>
void gpu_reduce_kernel(TensorIteratorBase& iter, const ops_t& ops, acc_t ident) {
  using result_t = decltype(std::declval<ops_t>().project(std::declval<acc_t>()));
  constexpr int noutputs = is_pair<result_t>::value ? 2 : 1;
  TORCH_INTERNAL_ASSERT(iter.noutputs() == noutputs && iter.ntensors() == noutputs + 1,
                        "gpu_reduce_kernel: the iterator's outputs are not the ops' results");
  if (iter.numel() == 0) {
    return;
  }
  launch_reduce_kernel<arg_t, acc_t, noutputs>(iter, ops, ident);
}
// [end marker: gpu_reduce_kernel]

}  // namespace at::native
