// aten/src/ATen/native/cuda/UnaryOpsKernel.cu - exp, sqrt, rsqrt, bitwise_not and nan_to_num on
// CUDA tensors. Mirrors PyTorch's aten/src/ATen/native/cuda/UnaryOpsKernel.cu; the semantics are
// those of this tree's cpu/UnaryOpsKernel.cpp.
// Guide: docs/source/internals/cuda_simulated_device.rst.
//
// The floating kernels compute in opmath_t (float for Half and BFloat16) and round once, as the
// CPU does. An integer input was promoted to the default float dtype by the iterator
// (unary_float_op); gpu_kernel converts each element as it loads it. Complex dtypes are not
// dispatched: c10::complex's exp, log, sqrt ... are host functions in this tree.
#include <ATen/Dispatch.h>
#include <ATen/OpMathType.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

namespace at::native {
namespace {

void exp_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "exp_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t {
      return static_cast<scalar_t>(std::exp(static_cast<opmath_t>(a)));
    });
  });
}

void sqrt_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "sqrt_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t a) -> scalar_t {
      return static_cast<scalar_t>(std::sqrt(static_cast<opmath_t>(a)));
    });
  });
}

// 1 / sqrt(a), divided as the CPU does (not CUDA's rsqrt intrinsic, which is not correctly
// rounded), so both devices agree.
void rsqrt_kernel_cuda(TensorIteratorBase& iter) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.common_dtype(), "rsqrt_cuda", [&] {
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

// std::numeric_limits knows nothing of Half/BFloat16 here: their largest finite values.
template <typename T>
T largest_finite() {
  if constexpr (std::is_same_v<T, c10::Half>) {
    return T(65504.0f);
  } else if constexpr (std::is_same_v<T, c10::BFloat16>) {
    return T(3.38953139e38f);
  } else {
    return std::numeric_limits<T>::max();
  }
}

// The replacements are computed on the host, once, in the tensor's dtype (the CPU kernel's
// expressions), and captured by the lambda. (Integer tensors never get here: UnaryOps.cpp copies
// them, they hold no NaN or infinity.)
void nan_to_num_kernel_cuda(TensorIteratorBase& iter, std::optional<double> nan, std::optional<double> pos_inf,
                            std::optional<double> neg_inf) {
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, iter.dtype(), "nan_to_num_cuda", [&] {
    using opmath_t = at::opmath_type<scalar_t>;
    const scalar_t nan_replacement = static_cast<scalar_t>(nan.value_or(0.));
    const scalar_t pos_inf_replacement =
        pos_inf.has_value() ? static_cast<scalar_t>(pos_inf.value()) : largest_finite<scalar_t>();
    const scalar_t neg_inf_replacement = neg_inf.has_value()
                                             ? static_cast<scalar_t>(neg_inf.value())
                                             : static_cast<scalar_t>(-static_cast<double>(largest_finite<scalar_t>()));
    gpu_kernel(iter, [=] GPU_LAMBDA(scalar_t a) -> scalar_t {
      const opmath_t v = a;
      if (std::isnan(v)) {
        return nan_replacement;
      }
      if (std::isinf(v)) {
        return v > 0 ? pos_inf_replacement : neg_inf_replacement;
      }
      return a;
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(exp_stub, &exp_kernel_cuda);
REGISTER_CUDA_DISPATCH(sqrt_stub, &sqrt_kernel_cuda);
REGISTER_CUDA_DISPATCH(rsqrt_stub, &rsqrt_kernel_cuda);
REGISTER_CUDA_DISPATCH(bitwise_not_stub, &bitwise_not_kernel_cuda);
REGISTER_CUDA_DISPATCH(nan_to_num_stub, &nan_to_num_kernel_cuda);

}  // namespace at::native
