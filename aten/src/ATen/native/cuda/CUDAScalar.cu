// aten/src/ATen/native/cuda/CUDAScalar.cu - _local_scalar_dense for CUDA tensors (what .item()
// calls): one element copied to the host on the current stream, which is then synchronized:
// .item() waits for every kernel queued before it. Mirrors PyTorch's
// aten/src/ATen/native/cuda/CUDAScalar.cu. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/NativeFunctions.h>
#include <ATen/cuda/CUDAContext.h>

namespace at::native {

// [marker: _local_scalar_dense_cuda]
Scalar _local_scalar_dense_cuda(const Tensor& self) {
  Scalar r;
  c10::cuda::CUDAGuard guard(self.device());
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "_local_scalar_dense_cuda", [&] {
    scalar_t value;
    const cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    AT_CUDA_CHECK(cudaMemcpyAsync(&value, self.const_data_ptr(), sizeof(scalar_t), cudaMemcpyDeviceToHost, stream));
    AT_CUDA_CHECK(cudaStreamSynchronize(stream));
    r = Scalar(value);
  });
  return r;
}
// [end marker: _local_scalar_dense_cuda]

}  // namespace at::native
