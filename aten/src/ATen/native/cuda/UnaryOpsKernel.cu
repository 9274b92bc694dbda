// aten/src/ATen/native/cuda/UnaryOpsKernel.cu - exp, sqrt, rsqrt, bitwise_not and nan_to_num on
// CUDA tensors. Mirrors PyTorch's aten/src/ATen/native/cuda/UnaryOpsKernel.cu; the semantics are
// those of this tree's cpu/UnaryOpsKernel.cpp.
// Guide: docs/source/internals/cuda_simulated_device.rst.
//
// The floating kernels compute in opmath_t (float for Half and BFloat16) and round once, as the
// CPU does. An integer input was promoted to the default float dtype by the iterator
// (unary_float_op); gpu_kernel converts each element as it loads it. Complex dtypes use
// c10::complex's std::exp, std::sqrt ... (c10/util/complex.h: thrust's under nvcc).
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/Math.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

namespace at::native {
namespace {

void exp_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "exp_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t {
      return static_cast<scalar_t>(std::exp(static_cast<opmath_t>(a)));
    });
  });
}

void sqrt_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "sqrt_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t {
      return static_cast<scalar_t>(std::sqrt(static_cast<opmath_t>(a)));
    });
  });
}

// 1 / sqrt(a), divided as the CPU does (not CUDA's rsqrt intrinsic, which is not correctly
// rounded), so both devices agree.
void rsqrt_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "rsqrt_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t {
      return static_cast<scalar_t>(opmath_t(1) / std::sqrt(static_cast<opmath_t>(a)));
    });
  });
}

void bitwise_not_kernel_cuda(TensorIteratorBase& iter) {
  if (iter.dtype() == kBool) {
    gpu_kernel(iter, [] GPU_LAMBDA(bool a) -> bool { return !a; });
    return;
  }
  AT_DISPATCH_INTEGRAL_TYPES(iter.dtype(), "bitwise_not_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t { return static_cast<scalar_t>(~a); });
  });
}

// The replacements are computed on the host, once, in the tensor's dtype (the CPU kernel's
// expressions), and captured by the lambda. (Integer tensors never get here: UnaryOps.cpp copies
// them, they hold no NaN or infinity.)
void nan_to_num_kernel_cuda(TensorIteratorBase& iter, std::optional<double> nan, std::optional<double> pos_inf,
                            std::optional<double> neg_inf) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.dtype(), "nan_to_num_cuda", [&] {
    const auto replacements = nan_to_num_replacements<scalar_t>(nan, pos_inf, neg_inf);
    gpu_kernel(iter, [=] GPU_LAMBDA(scalar_t a) -> scalar_t { return nan_to_num_value(a, replacements); });
  });
}

// e^x - 1 and 2^x; complex: e^z - 1 as expm1(x) cos y - 2 sin^2(y / 2) + i e^x sin y, and
// 2^z as e^(z ln 2) (as on the CPU).
template <typename T>
C10_HOST_DEVICE T expm1_cuda_impl(T a) {
  return std::expm1(a);
}
template <typename T>
C10_HOST_DEVICE c10::complex<T> expm1_cuda_impl(c10::complex<T> z) {
  const T x = z.real(), y = z.imag();
  const T half_sin = std::sin(y / 2);
  return c10::complex<T>(std::expm1(x) * std::cos(y) - 2 * half_sin * half_sin, std::exp(x) * std::sin(y));
}
template <typename T>
C10_HOST_DEVICE T exp2_cuda_impl(T a) {
  return std::exp2(a);
}
template <typename T>
C10_HOST_DEVICE c10::complex<T> exp2_cuda_impl(c10::complex<T> z) {
  const T ln2 = static_cast<T>(M_LN2);
  return std::exp(c10::complex<T>(ln2 * z.real(), ln2 * z.imag()));
}

void expm1_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "expm1_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t {
      return static_cast<scalar_t>(expm1_cuda_impl(static_cast<opmath_t>(a)));
    });
  });
}

void exp2_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "exp2_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t {
      return static_cast<scalar_t>(exp2_cuda_impl(static_cast<opmath_t>(a)));
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(exp_stub, &exp_kernel_cuda);
REGISTER_CUDA_DISPATCH(sqrt_stub, &sqrt_kernel_cuda);
REGISTER_CUDA_DISPATCH(rsqrt_stub, &rsqrt_kernel_cuda);
REGISTER_CUDA_DISPATCH(bitwise_not_stub, &bitwise_not_kernel_cuda);
REGISTER_CUDA_DISPATCH(nan_to_num_stub, &nan_to_num_kernel_cuda);
REGISTER_CUDA_DISPATCH(expm1_stub, &expm1_kernel_cuda);
REGISTER_CUDA_DISPATCH(exp2_stub, &exp2_kernel_cuda);

}  // namespace at::native
