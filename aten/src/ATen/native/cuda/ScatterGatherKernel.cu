// aten/src/ATen/native/cuda/ScatterGatherKernel.cu - gather and scatter (src or value) on CUDA
// tensors: one thread per index element, its offset computed as on the CPU (TensorIterator in
// the index's shape, plus index * dim_stride along the scattered dimension). Mirrors PyTorch's
// aten/src/ATen/native/cuda/ScatterGatherKernel.cu, which checks each index on the device
// (CUDA_KERNEL_ASSERT: "device-side assert triggered" at the next synchronizing call).
// scatter with reduce= needs atomics and is not here yet (it raises).
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
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

// [marker: gather_kernel_cuda]
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
// [end marker: gather_kernel_cuda]

// iter = (self with stride 0 along dim, src, index): self[i][index[i][j]] = src[i][j] (dim 1).
// Two index entries naming one element race, and either write may win, as in PyTorch.
void scatter_kernel_cuda(TensorIterator& iter, int64_t /*dim*/, int64_t dim_size, int64_t dim_stride,
                         ReductionType reduce) {
  TORCH_CHECK_NOT_IMPLEMENTED(reduce == ReductionType::NONE, "scatter with reduce= is not implemented for CUDA tensors here");
  if (iter.numel() == 0) {
    return;
  }
  c10::cuda::CUDAGuard guard(iter.device(0));
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "scatter_cuda", [&] {
    char* self = static_cast<char*>(iter.data_ptr(0));
    const char* src = static_cast<const char*>(iter.data_ptr(1));
    const char* index = static_cast<const char*>(iter.data_ptr(2));
    const auto calc = make_offset_calculator<3>(iter);
    launch_legacy_kernel<num_threads(), thread_work_size()>(iter.numel(), [=] GPU_LAMBDA(int64_t i) {
      const auto offsets = calc.get(i);
      *reinterpret_cast<scalar_t*>(self + offsets[0] + index_offset(index + offsets[2], dim_size, dim_stride)) =
          *reinterpret_cast<const scalar_t*>(src + offsets[1]);
    });
  });
}

// iter = (self with stride 0 along dim, index): self[i][index[i][j]] = value.
void scatter_fill_kernel_cuda(TensorIterator& iter, int64_t /*dim*/, int64_t dim_size, int64_t dim_stride,
                              const Scalar& value, ReductionType reduce) {
  TORCH_CHECK_NOT_IMPLEMENTED(reduce == ReductionType::NONE, "scatter with reduce= is not implemented for CUDA tensors here");
  if (iter.numel() == 0) {
    return;
  }
  c10::cuda::CUDAGuard guard(iter.device(0));
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "scatter_fill_cuda", [&] {
    const auto value_ = value.to<scalar_t>();
    char* self = static_cast<char*>(iter.data_ptr(0));
    const char* index = static_cast<const char*>(iter.data_ptr(1));
    const auto calc = make_offset_calculator<2>(iter);
    launch_legacy_kernel<num_threads(), thread_work_size()>(iter.numel(), [=] GPU_LAMBDA(int64_t i) {
      const auto offsets = calc.get(i);
      *reinterpret_cast<scalar_t*>(self + offsets[0] + index_offset(index + offsets[1], dim_size, dim_stride)) = value_;
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(gather_stub, &gather_kernel_cuda);
REGISTER_CUDA_DISPATCH(scatter_stub, &scatter_kernel_cuda);
REGISTER_CUDA_DISPATCH(scatter_fill_stub, &scatter_fill_kernel_cuda);

}  // namespace at::native
