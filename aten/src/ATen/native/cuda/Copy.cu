// aten/src/ATen/native/cuda/Copy.cu - copy_ when either side is a CUDA tensor: between host and
// device (cudaMemcpyAsync of contiguous bytes, staging through a contiguous temporary when a
// side is strided or the dtypes differ), between two devices (a peer copy, ordered after the
// source device's queued work), and on one device (cudaMemcpyAsync, or a gpu_kernel that
// converts dtype and follows strides). Mirrors PyTorch's aten/src/ATen/native/cuda/Copy.cu.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/native/Copy.h>
#include <ATen/cuda/CachingHostAllocator.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

// The current stream of `device`, after making it wait for the current stream of `other`:
// work queued on two devices (or two streams) is ordered only by an event.
cudaStream_t stream_after(c10::DeviceIndex device, c10::DeviceIndex other) {
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream(device);
  if (other != device) {
    const cudaStream_t other_stream = c10::cuda::getCurrentCUDAStream(other);
    cudaEvent_t event;
    AT_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    {
      c10::cuda::CUDAGuard guard(other);
      AT_CUDA_CHECK(cudaEventRecord(event, other_stream));
    }
    {
      // `device` current while its stream waits: the default stream's handle is 0, which
      // means "the default stream of the current device" (PyTorch's CUDAEvent::block sets the
      // device the same way). Waited on from the other device, the wait would land there,
      // and the memory the copy still reads could be reused before it has.
      c10::cuda::CUDAGuard guard(device);
      AT_CUDA_CHECK(cudaStreamWaitEvent(stream, event, 0));
    }
    AT_CUDA_CHECK(cudaEventDestroy(event));
  }
  return stream;
}

// [marker: copy_device_to_device]
void copy_device_to_device(TensorIterator& iter, bool non_blocking) {
  const Device dst_device = iter.device(0);
  const Device src_device = iter.device(1);
  const bool same_type = iter.dtype(0) == iter.dtype(1);
  if (dst_device == src_device) {
    c10::cuda::CUDAGuard guard(dst_device);
    if (same_type && iter.is_contiguous()) {
      // The same bytes in the same order: one copy engine transfer.
      const size_t nbytes = iter.numel() * c10::elementSize(iter.dtype(0));
      AT_CUDA_CHECK(cudaMemcpyAsync(iter.data_ptr(0), iter.data_ptr(1), nbytes, cudaMemcpyDeviceToDevice,
                                    c10::cuda::getCurrentCUDAStream(dst_device.index())));
      return;
    }
    // Strides or a conversion: a kernel, each element loaded as the source dtype and stored
    // as the destination's (gpu_kernel's dynamic casting).
    AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(0), "copy_cuda", [&] {
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return x; });
    });
    return;
  }
  // Two devices: bring the source over contiguous and in its own dtype, then convert there.
  Tensor dst = iter.tensor(0);
  Tensor src = iter.tensor(1).expand_as(dst).contiguous();
  Tensor staged = (same_type && dst.is_contiguous()) ? dst : at::empty(dst.sizes(), src.scalar_type(), std::nullopt, dst_device, std::nullopt, std::nullopt);
  c10::cuda::CUDAGuard guard(dst_device);
  const cudaStream_t stream = stream_after(dst_device.index(), src_device.index());
  AT_CUDA_CHECK(cudaMemcpyPeerAsync(staged.data_ptr(), dst_device.index(), src.const_data_ptr(), src_device.index(),
                                    src.numel() * src.element_size(), stream));
  // The source device must not reuse src's memory before the copy has read it.
  stream_after(src_device.index(), dst_device.index());
  if (!staged.is_same(dst)) {
    dst.copy_(staged, non_blocking);
  }
}
// [end marker: copy_device_to_device]

// [marker: copy_kernel_cuda]
void copy_kernel_cuda(TensorIterator& iter, bool non_blocking) {
  if (iter.device(0).is_cuda() && iter.device(1).is_cuda()) {
    copy_device_to_device(iter, non_blocking);
    return;
  }
  // Host <-> device: cudaMemcpyAsync moves contiguous bytes, so both sides are made contiguous
  // and of the destination's dtype first (on the host for a copy to the device, on the device
  // for a copy from it: conversions run where the source is).
  const bool to_device = iter.device(0).is_cuda();
  Tensor dst = iter.tensor(0);
  Tensor src = iter.tensor(1).expand_as(dst);
  Tensor dst_contig = dst.is_contiguous() ? dst : at::empty(dst.sizes(), dst.scalar_type(), std::nullopt, dst.device(), std::nullopt, std::nullopt);
  Tensor src_contig = src.to(dst.scalar_type()).contiguous();
  const c10::DeviceIndex device = to_device ? iter.device(0).index() : iter.device(1).index();
  c10::cuda::CUDAGuard guard(device);
  const cudaStream_t stream = c10::cuda::getCurrentCUDAStream(device);
  const size_t nbytes = dst.numel() * dst.element_size();
  AT_CUDA_CHECK(cudaMemcpyAsync(dst_contig.data_ptr(), src_contig.const_data_ptr(), nbytes,
                                to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, stream));
  if (non_blocking) {
    // The copy may still be reading or writing the host memory when copy_ returns. If that
    // memory is a pinned block, the caching host allocator must not hand it out again before
    // the copy is done: record the stream on the block (a no-op for pageable memory, which
    // the runtime stages or waits for itself, as CUDA does).
    const Tensor& host = to_device ? src_contig : dst_contig;
    at::cuda::CachingHostAllocator_recordEvent(const_cast<void*>(host.const_data_ptr()),
                                               host.storage().data_ptr().get_context(),
                                               c10::cuda::getCurrentCUDAStream(device));
  } else {
    // The host reads the result as soon as copy_ returns.
    AT_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  if (!dst_contig.is_same(dst)) {
    dst.copy_(dst_contig, non_blocking);
  }
}
// [end marker: copy_kernel_cuda]

}  // namespace

REGISTER_CUDA_DISPATCH(copy_stub, &copy_kernel_cuda);

}  // namespace at::native
