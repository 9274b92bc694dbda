// aten/src/ATen/native/cuda/FillKernel.cu - fill_ on CUDA tensors: a nullary gpu_kernel that
// stores one value, converted to the tensor's dtype on the host. Mirrors PyTorch's
// aten/src/ATen/native/cuda/FillKernel.cu. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/NativeFunctions.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {

// [marker: fill_cuda_]
Tensor& fill_cuda_(Tensor& self, const Scalar& value) {
  auto iter = TensorIteratorConfig()
                  .set_check_mem_overlap(false)  // every element gets the same value
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .add_output(self)
                  .build();
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "fill_cuda", [&] {
    const scalar_t v = value.to<scalar_t>();  // checked: 300 into uint8 raises, as on CPU
    gpu_kernel(iter, [v] GPU_LAMBDA() -> scalar_t { return v; });
  });
  return self;
}
// [end marker: fill_cuda_]

}  // namespace at::native
