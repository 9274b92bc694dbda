// aten/src/ATen/native/cuda/AbsKernel.cu - abs on CUDA tensors of real dtypes. Mirrors PyTorch's
// aten/src/ATen/native/cuda/AbsKernel.cu. Guide: docs/source/internals/cuda_simulated_device.rst.
//
// Complex dtypes are not dispatched ('"abs_cuda" not implemented for 'ComplexFloat''): |z| is
// c10::complex's std::abs, a host function in this tree. Bool is refused as on the CPU.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <type_traits>

namespace at::native {
namespace {

// A template, so that `if constexpr` drops the `a < 0` of unsigned dtypes.
template <typename scalar_t>
__host__ __device__ scalar_t abs_one(scalar_t a_) {
  using opmath_t = at::opmath_type<scalar_t>;
  const opmath_t a = a_;
  if constexpr (std::is_unsigned_v<opmath_t>) {
    return a_;
  } else {
    return static_cast<scalar_t>(a < 0 ? -a : a);
  }
}

void abs_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "abs_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t { return abs_one(a); });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(abs_stub, &abs_kernel_cuda);

}  // namespace at::native
