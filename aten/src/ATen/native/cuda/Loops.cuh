// aten/src/ATen/native/cuda/Loops.cuh - gpu_kernel(iter, f): the CUDA twin of cpu_kernel. A
// TensorIterator's operands become device pointers and byte strides; each GPU thread turns a
// linear index into one offset per operand (OffsetCalculator), loads the inputs, converting them
// to f's argument types where the dtypes differ ("dynamic casting"), calls f and stores the
// result. Mirrors PyTorch's aten/src/ATen/native/cuda/Loops.cuh, CUDALoops.cuh and
// OffsetCalculator.cuh (with the vectorized path for contiguous operands; without the 32-bit split).
// Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <ATen/TensorIterator.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/detail/FunctionTraits.h>
#include <ATen/native/cuda/TypeCast.cuh>
#include <c10/cuda/CUDAException.h>

#include <array>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

// A lambda that runs on the device: f in gpu_kernel(iter, [] GPU_LAMBDA (float a) { ... }).
#define GPU_LAMBDA __host__ __device__

namespace at::native {

// [marker: launch_config]
// PyTorch's elementwise launch: 128 threads a block, 4 elements a thread, so one block covers
// 512 consecutive elements and thread t handles t, t + 128, t + 256, t + 384 of them: the 32
// threads of a warp touch 32 neighbouring elements at each step (coalesced accesses).
constexpr int num_threads() { return 128; }
constexpr int thread_work_size() { return 4; }
constexpr int block_work_size() { return num_threads() * thread_work_size(); }
// [end marker: launch_config]

// The most dimensions an iterator may have after coalescing (PyTorch allows 25).
constexpr int kMaxDims = 10;

// [marker: OffsetCalculator]
// Linear index -> byte offset of each of NARGS operands. Dimension 0 is the fastest-moving
// one (TensorIterator's order), so the index is peeled off with % and / from dimension 0 up.
template <int NARGS>
struct OffsetCalculator {
  using offset_type = std::array<int64_t, NARGS>;

  int dims = 0;
  int64_t sizes[kMaxDims];
  int64_t strides[kMaxDims][NARGS];

  __host__ __device__ offset_type get(int64_t linear_idx) const {
    offset_type offsets{};
    for (int d = 0; d < dims; d++) {
      // What is left of the index after the faster dims is below the last dim's size: no
      // division there, so a 1-d (coalesced, contiguous) iterator costs none at all.
      const int64_t i = d == dims - 1 ? linear_idx : linear_idx % sizes[d];
      linear_idx /= d == dims - 1 ? 1 : sizes[d];
      for (int arg = 0; arg < NARGS; arg++) {
        offsets[arg] += i * strides[d][arg];
      }
    }
    return offsets;
  }
};

template <int NARGS>
OffsetCalculator<NARGS> make_offset_calculator(const TensorIteratorBase& iter, int first_arg = 0) {
  TORCH_CHECK(iter.ndim() <= kMaxDims, "CUDA kernels here take at most ", kMaxDims,
              " dimensions after coalescing, got ", iter.ndim());
  OffsetCalculator<NARGS> calc;
  calc.dims = iter.ndim();
  for (int d = 0; d < iter.ndim(); d++) {
    calc.sizes[d] = iter.shape()[d];
    for (int arg = 0; arg < NARGS; arg++) {
      calc.strides[d][arg] = iter.strides(first_arg + arg)[d];
    }
  }
  return calc;
}
// [end marker: OffsetCalculator]

// [marker: elementwise_kernel]
// Thread t of block b handles elements b * 512 + t + 128 * k, k = 0..3.
template <int nt, int vt, typename func_t>
__global__ void elementwise_kernel(int64_t N, func_t f) {
  int64_t idx = static_cast<int64_t>(nt) * vt * blockIdx.x + threadIdx.x;
#pragma unroll
  for (int i = 0; i < vt; i++) {
    if (idx < N) {
      f(idx);
      idx += nt;
    }
  }
}

template <int nt, int vt, typename func_t>
void launch_legacy_kernel(int64_t N, const func_t& f) {
  if (N == 0) {
    return;
  }
  const dim3 block(nt);
  const dim3 grid(static_cast<unsigned>((N + block.x * vt - 1) / (block.x * vt)));
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  elementwise_kernel<nt, vt, func_t><<<grid, block, 0, stream>>>(N, f);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}
// [end marker: elementwise_kernel]

// A vector of vec_size elements that the GPU loads or stores in one instruction.
template <typename scalar_t, int vec_size>
struct alignas(sizeof(scalar_t) * vec_size) aligned_vector {
  scalar_t val[vec_size];
};

namespace detail {

// Element idx of each contiguous input, as f's argument types.
template <typename traits, std::size_t... I>
__host__ __device__ typename traits::ArgsTuple load_contiguous(char* const* data, [[maybe_unused]] int64_t idx,
                                                               std::index_sequence<I...>) {
  return std::make_tuple(reinterpret_cast<const typename traits::template arg<I>::type*>(data[I])[idx]...);
}

// vec_size elements from `first` of each input, one aligned_vector per input.
template <typename traits, int vec_size, std::size_t... I>
__host__ __device__ auto load_vectors(char* const* data, [[maybe_unused]] int64_t first, std::index_sequence<I...>) {
  return std::make_tuple(*reinterpret_cast<const aligned_vector<typename traits::template arg<I>::type, vec_size>*>(
      reinterpret_cast<const typename traits::template arg<I>::type*>(data[I]) + first)...);
}

// f applied to lane v of the loaded vectors.
template <typename traits, typename func_t, typename vectors_t, std::size_t... I>
__host__ __device__ typename traits::result_type apply_lane(const func_t& f, [[maybe_unused]] const vectors_t& inputs, [[maybe_unused]] int v,
                                                           std::index_sequence<I...>) {
  return f(std::get<I>(inputs).val[v]...);
}

}  // namespace detail

// [marker: vectorized_elementwise_kernel]
// When every operand is contiguous and already has f's types, PyTorch's gpu_kernel skips the
// offset calculator: thread t of block b handles the vec_size neighbouring elements from
// b * 512 + t * vec_size, each operand read and written as one aligned_vector (a 16-byte
// load for float4). The last, partial block goes element by element.
template <int vec_size, typename func_t, typename array_t>
__global__ void vectorized_elementwise_kernel(int64_t N, func_t f, array_t data) {
  using traits = function_traits<func_t>;
  using out_t = typename traits::result_type;
  constexpr int ninputs = traits::arity;
  const int64_t block_base = static_cast<int64_t>(block_work_size()) * blockIdx.x;
  out_t* out = reinterpret_cast<out_t*>(data[0]);
  if (N - block_base < block_work_size()) {
    for (int i = 0; i < thread_work_size(); i++) {
      const int64_t idx = block_base + threadIdx.x + static_cast<int64_t>(num_threads()) * i;
      if (idx < N) {
        out[idx] = std::apply(f, detail::load_contiguous<traits>(data.data() + 1, idx,
                                                                 std::make_index_sequence<ninputs>{}));
      }
    }
    return;
  }
  const int64_t first = block_base + static_cast<int64_t>(threadIdx.x) * vec_size;
  const auto inputs = detail::load_vectors<traits, vec_size>(data.data() + 1, first,
                                                             std::make_index_sequence<ninputs>{});
  aligned_vector<out_t, vec_size> result;
#pragma unroll
  for (int v = 0; v < vec_size; v++) {
    result.val[v] = detail::apply_lane<traits>(f, inputs, v, std::make_index_sequence<ninputs>{});
  }
  *reinterpret_cast<aligned_vector<out_t, vec_size>*>(out + first) = result;
}
// [end marker: vectorized_elementwise_kernel]

namespace detail {

template <typename traits, std::size_t... I>
__host__ __device__ typename traits::ArgsTuple load_args(char* const* data, const int64_t* offsets,
                                                         std::index_sequence<I...>) {
  return std::make_tuple(
      *reinterpret_cast<const typename traits::template arg<I>::type*>(data[I] + offsets[I])...);
}

template <typename traits, std::size_t... I>
__host__ __device__ typename traits::ArgsTuple fetch_args(char* const* data, const int64_t* offsets,
                                                          const ScalarType* dtypes, std::index_sequence<I...>) {
  return std::make_tuple(
      c10::fetch_and_cast<typename traits::template arg<I>::type>(dtypes[I], data[I] + offsets[I])...);
}

// Whether an input's dtype differs from the type f takes it as.
template <typename traits, std::size_t... I>
bool inputs_need_cast(const TensorIteratorBase& iter, std::index_sequence<I...>) {
  return (false || ... ||
          (iter.dtype(1 + I) != c10::CppTypeToScalarType<typename traits::template arg<I>::type>::value));
}

}  // namespace detail

// Elements per aligned_vector: a block's 512 elements are 128 threads' vectors of 4.
constexpr int kVecSize = thread_work_size();

template <int vec_size, typename func_t, typename array_t>
void launch_vectorized_kernel(int64_t N, const func_t& f, const array_t& data) {
  const int64_t grid = (N + block_work_size() - 1) / block_work_size();
  const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  vectorized_elementwise_kernel<vec_size, func_t, array_t><<<static_cast<unsigned>(grid), num_threads(), 0, stream>>>(
      N, f, data);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

namespace detail {
// Whether every operand's address allows vector loads of vec_size elements (a view that
// starts mid-vector does not: it takes the general path).
template <typename traits, int vec_size, typename array_t, std::size_t... I>
bool aligned_for(const array_t& data, std::index_sequence<I...>) {
  using out_t = typename traits::result_type;
  auto aligned = [](const void* p, size_t align) { return reinterpret_cast<uintptr_t>(p) % align == 0; };
  return aligned(data[0], sizeof(out_t) * vec_size) &&
         (true && ... && aligned(data[1 + I], sizeof(typename traits::template arg<I>::type) * vec_size));
}
}  // namespace detail

// [marker: gpu_kernel]
// out = f(in...) for every element of the iterator, on its device's current stream. Every
// operand must be a CUDA tensor (gpu_kernel_with_scalars takes CPU scalars out first).
template <typename func_t>
void gpu_kernel(TensorIteratorBase& iter, const func_t& f) {
  using traits = function_traits<func_t>;
  using out_t = typename traits::result_type;
  constexpr int ninputs = traits::arity;
  constexpr int ntensors = ninputs + 1;
  TORCH_INTERNAL_ASSERT(iter.ntensors() == ntensors, "gpu_kernel: the iterator has ", iter.ntensors(),
                        " operands, the function takes ", ninputs, " inputs and returns one output");
  for (int arg = 0; arg < ntensors; arg++) {
    TORCH_INTERNAL_ASSERT(iter.device(arg).is_cuda(), "argument ", arg, ": expected a CUDA device but found ",
                          iter.device(arg));
  }
  const int64_t N = iter.numel();
  if (N == 0) {
    return;
  }
  c10::cuda::CUDAGuard guard(iter.device(0));
  std::array<char*, ntensors> data;
  std::array<ScalarType, ntensors> dtypes;
  bool needs_cast = iter.dtype(0) != c10::CppTypeToScalarType<out_t>::value;
  for (int arg = 0; arg < ntensors; arg++) {
    data[arg] = static_cast<char*>(iter.data_ptr(arg));
    dtypes[arg] = iter.dtype(arg);
  }
  needs_cast |= detail::inputs_need_cast<traits>(iter, std::make_index_sequence<ninputs>{});
  if (!needs_cast && iter.is_contiguous() && detail::aligned_for<traits, kVecSize>(data, std::make_index_sequence<ninputs>{})) {
    launch_vectorized_kernel<kVecSize>(N, f, data);
    return;
  }
  const auto calc = make_offset_calculator<ntensors>(iter);
  if (!needs_cast) {
    // Every operand already has f's types: plain loads and stores.
    launch_legacy_kernel<num_threads(), thread_work_size()>(N, [=] GPU_LAMBDA(int64_t idx) {
      const auto offsets = calc.get(idx);
      auto args = detail::load_args<traits>(data.data() + 1, offsets.data() + 1, std::make_index_sequence<ninputs>{});
      *reinterpret_cast<out_t*>(data[0] + offsets[0]) = std::apply(f, args);
    });
  } else {
    // Dynamic casting: each load converts from the operand's dtype to f's argument type, and
    // the store converts the result to the output's dtype (a switch per element).
    launch_legacy_kernel<num_threads(), thread_work_size()>(N, [=] GPU_LAMBDA(int64_t idx) {
      const auto offsets = calc.get(idx);
      auto args = detail::fetch_args<traits>(data.data() + 1, offsets.data() + 1, dtypes.data() + 1, std::make_index_sequence<ninputs>{});
      c10::cast_and_store<out_t>(dtypes[0], data[0] + offsets[0], std::apply(f, args));
    });
  }
}
// [end marker: gpu_kernel]

// [marker: gpu_kernel_with_scalars]
// A binary op where one side may be a CPU scalar (x * 2 wraps 2 in a 0-d CPU tensor, which
// TensorIterator lets through to a CUDA kernel): its value is read on the host, taken out of
// the iterator and captured by the lambda, so the kernel never touches host memory.
template <typename opmath_t, typename func_t>
void opmath_gpu_kernel_with_scalars(TensorIteratorBase& iter, const func_t& f) {
  using traits = function_traits<func_t>;
  static_assert(traits::arity == 2, "opmath_gpu_kernel_with_scalars takes a binary function");
  using arg1_t = typename traits::template arg<0>::type;
  using arg2_t = typename traits::template arg<1>::type;
  using out_t = typename traits::result_type;
  if (iter.is_cpu_scalar(1)) {
    const auto a = c10::fetch_and_cast<arg1_t>(iter.dtype(1), iter.data_ptr(1));
    iter.remove_operand(1);
    gpu_kernel(iter, [=] GPU_LAMBDA(arg2_t b) -> out_t { return f(a, b); });
  } else if (iter.is_cpu_scalar(2)) {
    const auto b = c10::fetch_and_cast<arg2_t>(iter.dtype(2), iter.data_ptr(2));
    iter.remove_operand(2);
    gpu_kernel(iter, [=] GPU_LAMBDA(arg1_t a) -> out_t { return f(a, b); });
  } else {
    gpu_kernel(iter, f);
  }
}
// [end marker: gpu_kernel_with_scalars]

}  // namespace at::native
