// aten/src/ATen/native/cuda/ScatterGatherKernel.cu - gather and scatter (src or value) on CUDA
// tensors: one thread per index element, its offset computed as on the CPU (TensorIterator in
// the index's shape, plus index * dim_stride along the scattered dimension). Mirrors PyTorch's
// aten/src/ATen/native/cuda/ScatterGatherKernel.cu, which checks each index on the device
// (CUDA_KERNEL_ASSERT: "device-side assert triggered" at the next synchronizing call).
// scatter_add and scatter with reduce= combine with atomics (ATen/cuda/Atomic.cuh): two index
// entries naming one element both land there. Guide: docs/source/internals/cuda_training.rst.
#include <ATen/Dispatch.h>
#include <ATen/cuda/Atomic.cuh>
#include <ATen/native/TensorAdvancedIndexing.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

// The byte offset that index element `ptr` selects along dim, after checking it on the device.
__host__ __device__ __forceinline__ int64_t index_offset(const char* ptr, int64_t dim_size, int64_t dim_stride) {
  const int64_t idx = *reinterpret_cast<const int64_t*>(ptr);
  CUDA_KERNEL_ASSERT(idx >= 0 && idx < dim_size && "index out of bounds");
  return idx * dim_stride;
}

// iter = (out, self with stride 0 along dim, index): out[i][j] = self[i][index[i][j]] (dim 1).
void gather_kernel_cuda(TensorIterator& iter, int64_t /*dim*/, int64_t dim_size, int64_t dim_stride) {
  if (iter.numel() == 0) {
    return;
  }
  c10::cuda::CUDAGuard guard(iter.device(0));
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "gather_cuda", [&] {
    char* out = static_cast<char*>(iter.data_ptr(0));
    const char* self = static_cast<const char*>(iter.data_ptr(1));
    const char* index = static_cast<const char*>(iter.data_ptr(2));
    const auto calc = make_offset_calculator<3>(iter);
    launch_legacy_kernel<num_threads(), thread_work_size()>(iter.numel(), [=] GPU_LAMBDA(int64_t i) {
      const auto offsets = calc.get(i);
      *reinterpret_cast<scalar_t*>(out + offsets[0]) = *reinterpret_cast<const scalar_t*>(
          self + offsets[1] + index_offset(index + offsets[2], dim_size, dim_stride));
    });
  });
}

// iter = (self with stride 0 along dim, src, index): self[i][index[i][j]] = src[i][j] (dim 1).
// Two index entries naming one element race: a plain scatter lets either write win, as in
// PyTorch; reduce=ADD (scatter_add) and MULTIPLY combine them with an atomic update each.
template <typename scalar_t>
__device__ __forceinline__ void combine(scalar_t* dst, scalar_t value, ReductionType reduce) {
  if (reduce == ReductionType::NONE) {
    *dst = value;
  } else if (reduce == ReductionType::ADD) {
    at::cuda::detail::gpuAtomicAdd(dst, value);
  } else {
    if constexpr (!c10::is_complex<scalar_t>::value) {
      at::cuda::detail::gpuAtomicMul(dst, value);
    }
  }
}

void check_reduce_dtype(ScalarType dtype, ReductionType reduce) {
  TORCH_CHECK_NOT_IMPLEMENTED(!(reduce == ReductionType::MULTIPLY && isComplexType(dtype)),
                              "scatter(reduce='multiply') of complex CUDA tensors is not implemented");
}

void scatter_kernel_cuda(TensorIterator& iter, int64_t /*dim*/, int64_t dim_size, int64_t dim_stride,
                         ReductionType reduce) {
  check_reduce_dtype(iter.dtype(), reduce);
  if (iter.numel() == 0) {
    return;
  }
  c10::cuda::CUDAGuard guard(iter.device(0));
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "scatter_cuda", [&] {
    char* self = static_cast<char*>(iter.data_ptr(0));
    const char* src = static_cast<const char*>(iter.data_ptr(1));
    const char* index = static_cast<const char*>(iter.data_ptr(2));
    const auto calc = make_offset_calculator<3>(iter);
    launch_legacy_kernel<num_threads(), thread_work_size()>(iter.numel(), [=] __device__(int64_t i) {
      const auto offsets = calc.get(i);
      combine(reinterpret_cast<scalar_t*>(self + offsets[0] + index_offset(index + offsets[2], dim_size, dim_stride)),
              *reinterpret_cast<const scalar_t*>(src + offsets[1]), reduce);
    });
  });
}

// iter = (self with stride 0 along dim, index): self[i][index[i][j]] = value.
void scatter_fill_kernel_cuda(TensorIterator& iter, int64_t /*dim*/, int64_t dim_size, int64_t dim_stride,
                              const Scalar& value, ReductionType reduce) {
  check_reduce_dtype(iter.dtype(), reduce);
  if (iter.numel() == 0) {
    return;
  }
  c10::cuda::CUDAGuard guard(iter.device(0));
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "scatter_fill_cuda", [&] {
    const auto value_ = value.to<scalar_t>();
    char* self = static_cast<char*>(iter.data_ptr(0));
    const char* index = static_cast<const char*>(iter.data_ptr(1));
    const auto calc = make_offset_calculator<2>(iter);
    launch_legacy_kernel<num_threads(), thread_work_size()>(iter.numel(), [=] __device__(int64_t i) {
      const auto offsets = calc.get(i);
      combine(reinterpret_cast<scalar_t*>(self + offsets[0] + index_offset(index + offsets[1], dim_size, dim_stride)),
              value_, reduce);
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(gather_stub, &gather_kernel_cuda);
REGISTER_CUDA_DISPATCH(scatter_stub, &scatter_kernel_cuda);
REGISTER_CUDA_DISPATCH(scatter_fill_stub, &scatter_fill_kernel_cuda);

}  // namespace at::native
