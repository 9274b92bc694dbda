// aten/src/ATen/native/cuda/UnarySignKernels.cu - neg (also the backward of sub and div), sign,
// sgn, angle and logical_not on CUDA tensors. Mirrors PyTorch's aten/src/ATen/native/cuda/UnarySignKernels.cu;
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

// sgn(z) = z / |z| (0 at 0) for complex tensors; real dtypes go to sign (UnaryOps.cpp).
void sgn_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_COMPLEX_TYPES(iter.common_dtype(), "sgn_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t z) -> scalar_t {
      const auto r = std::abs(z);
      return r == 0 ? scalar_t(0) : z / scalar_t(r);
    });
  });
}

// angle: arg(z) for complex (a real result); for real x, pi if x < 0 else 0, NaN kept.
void angle_kernel_cuda(TensorIteratorBase& iter) {
  const ScalarType in_dtype = iter.input_dtype();
  if (isComplexType(in_dtype)) {
    AT_DISPATCH_COMPLEX_TYPES(in_dtype, "angle_cuda", [&] {
      using real_t = typename scalar_t::value_type;
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t z) -> real_t { return std::arg(z); });
    });
    return;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "angle_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a_) -> scalar_t {
      const opmath_t a = a_;
      if (a != a) {
        return a_;  // NaN
      }
      return static_cast<scalar_t>(a < 0 ? static_cast<opmath_t>(3.14159265358979323846) : opmath_t(0));
    });
  });
}

// signbit: bool output, the switch is over the input's dtype (bool inputs never reach here).
void signbit_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_ALL_TYPES_AND2(kBFloat16, kHalf, iter.input_dtype(), "signbit_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> bool {
      if constexpr (std::is_integral_v<scalar_t>) {
        return std::is_signed_v<scalar_t> && a < scalar_t(0);
      } else {
        return std::signbit(static_cast<opmath_t>(a));
      }
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(sgn_stub, &sgn_kernel_cuda);
REGISTER_CUDA_DISPATCH(angle_stub, &angle_kernel_cuda);
REGISTER_CUDA_DISPATCH(neg_stub, &neg_kernel_cuda);
REGISTER_CUDA_DISPATCH(sign_stub, &sign_kernel_cuda);
REGISTER_CUDA_DISPATCH(logical_not_stub, &logical_not_kernel_cuda);
REGISTER_CUDA_DISPATCH(signbit_stub, &signbit_kernel_cuda);

}  // namespace at::native
