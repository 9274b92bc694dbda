// aten/src/ATen/native/BinaryOps.h - the stubs of the binary elementwise operators.
// Mirrors PyTorch's aten/src/ATen/native/BinaryOps.h (and Pow.h). Guide: docs/source/internals/one_call.rst.
#pragma once

#include <ATen/native/DispatchStub.h>
#include <c10/core/Scalar.h>

namespace at {
struct TensorIteratorBase;
}

namespace at::native {

using structured_binary_fn_alpha = void (*)(TensorIteratorBase&, const Scalar& alpha);
using structured_binary_fn = void (*)(TensorIteratorBase&);
using binary_fn_scalar = void (*)(TensorIteratorBase&, const Scalar&);

DECLARE_DISPATCH(structured_binary_fn_alpha, add_stub);  // sub is add with -alpha
DECLARE_DISPATCH(structured_binary_fn, mul_stub);
DECLARE_DISPATCH(structured_binary_fn, div_true_stub);
DECLARE_DISPATCH(structured_binary_fn, div_trunc_stub);
DECLARE_DISPATCH(structured_binary_fn, div_floor_stub);
DECLARE_DISPATCH(structured_binary_fn, remainder_stub);
DECLARE_DISPATCH(structured_binary_fn, fmod_stub);
DECLARE_DISPATCH(structured_binary_fn, atan2_stub);
DECLARE_DISPATCH(structured_binary_fn, mse_stub);
// The backwards of sigmoid and tanh from their outputs (inputs: grad_output, output).
DECLARE_DISPATCH(structured_binary_fn, sigmoid_backward_stub);
DECLARE_DISPATCH(structured_binary_fn, tanh_backward_stub);  // (a - b)^2, mse_loss's elementwise part
DECLARE_DISPATCH(structured_binary_fn, maximum_stub);
DECLARE_DISPATCH(structured_binary_fn, minimum_stub);
DECLARE_DISPATCH(structured_binary_fn, bitwise_and_stub);
DECLARE_DISPATCH(structured_binary_fn, bitwise_or_stub);
DECLARE_DISPATCH(structured_binary_fn, bitwise_xor_stub);
DECLARE_DISPATCH(structured_binary_fn, logical_and_stub);
DECLARE_DISPATCH(structured_binary_fn, logical_or_stub);
DECLARE_DISPATCH(structured_binary_fn, logical_xor_stub);
DECLARE_DISPATCH(structured_binary_fn, lt_stub);
DECLARE_DISPATCH(structured_binary_fn, le_stub);
DECLARE_DISPATCH(structured_binary_fn, gt_stub);
DECLARE_DISPATCH(structured_binary_fn, ge_stub);
DECLARE_DISPATCH(structured_binary_fn, eq_stub);
DECLARE_DISPATCH(structured_binary_fn, ne_stub);
DECLARE_DISPATCH(structured_binary_fn, copysign_stub);
DECLARE_DISPATCH(structured_binary_fn, gcd_stub);
DECLARE_DISPATCH(structured_binary_fn, lcm_stub);
DECLARE_DISPATCH(structured_binary_fn, heaviside_stub);
DECLARE_DISPATCH(structured_binary_fn, hypot_stub);
DECLARE_DISPATCH(structured_binary_fn, logaddexp_stub);
DECLARE_DISPATCH(structured_binary_fn, logaddexp2_stub);
DECLARE_DISPATCH(structured_binary_fn, fmax_stub);
DECLARE_DISPATCH(structured_binary_fn, fmin_stub);
// PyTorch keeps these two in Pow.h / cpu/PowKernel.cpp.
DECLARE_DISPATCH(structured_binary_fn, pow_tensor_tensor_stub);
DECLARE_DISPATCH(binary_fn_scalar, pow_tensor_scalar_stub);

}  // namespace at::native
