// aten/src/ATen/native/cuda/UnarySignKernels.cu - neg (also the backward of sub and div), sign and
// logical_not on CUDA tensors. Mirrors PyTorch's aten/src/ATen/native/cuda/UnarySignKernels.cu;
// the semantics are those of this tree's cpu/UnaryOpsKernel.cpp.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <type_traits>

namespace at::native {
namespace {

void neg_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kHalf, kBFloat16, iter.dtype(), "neg_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t { return -a; });
  });
}

// -1, 0 or 1 (0 for NaN: both comparisons are false). A template, so that `if constexpr`
// drops the `a < 0` an unsigned dtype could never satisfy (and compilers warn about).
template <typename scalar_t>
__host__ __device__ scalar_t sign_one(scalar_t a_) {
  using opmath_t = at::opmath_type<scalar_t>;
  const opmath_t a = a_;
  if constexpr (std::is_unsigned_v<opmath_t>) {
    return static_cast<scalar_t>(opmath_t(0) < a);
  } else {
    return static_cast<scalar_t>(static_cast<opmath_t>((opmath_t(0) < a) - (a < opmath_t(0))));
  }
}

void sign_kernel_cuda(TensorIteratorBase& iter) {
  if (iter.common_dtype() == kBool) {
    gpu_kernel(iter, [] GPU_LAMBDA(bool a) -> bool { return a; });
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "sign_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t { return sign_one(a); });
  });
}

// The iterator leaves both dtypes free (UnaryOps.cpp): the dispatch is on the input's, and the
// bool result is converted to the output's by gpu_kernel's store (bool for logical_not(x),
// x's own dtype for x.logical_not_()).
void logical_not_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, iter.dtype(1), "logical_not_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> bool { return !static_cast<bool>(a); });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(neg_stub, &neg_kernel_cuda);
REGISTER_CUDA_DISPATCH(sign_stub, &sign_kernel_cuda);
REGISTER_CUDA_DISPATCH(logical_not_stub, &logical_not_kernel_cuda);

}  // namespace at::native
