// aten/src/ATen/native/cuda/AbsKernel.cu - abs on CUDA tensors. Mirrors PyTorch's
// aten/src/ATen/native/cuda/AbsKernel.cu. Guide: docs/source/internals/cuda_simulated_device.rst.
//
// |z| of a complex tensor is real (c10::complex's std::abs: hypot, without overflow), written to
// a real output, or to a complex one for abs_ in place. Bool is refused as on the CPU.
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
  const ScalarType in_dtype = iter.input_dtype();
  if (isComplexType(in_dtype)) {
    AT_DISPATCH_COMPLEX_TYPES(in_dtype, "abs_cuda", [&] {
      using real_t = typename scalar_t::value_type;
      if (isComplexType(iter.dtype(0))) {
        gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t { return scalar_t(std::abs(a)); });
      } else {
        gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> real_t { return std::abs(a); });
      }
    });
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "abs_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t { return abs_one(a); });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(abs_stub, &abs_kernel_cuda);

}  // namespace at::native
