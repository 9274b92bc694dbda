// aten/src/ATen/native/Lerp.h - lerp's stubs and the formula both forms share.
// Mirrors PyTorch's aten/src/ATen/native/Lerp.h. Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <ATen/native/cpu/fmadd.h>

#include <ATen/native/DispatchStub.h>
#include <c10/core/Scalar.h>
#include <c10/macros/Macros.h>

#include <cmath>

namespace at {
struct TensorIteratorBase;
}

namespace at::native {

// self + weight * (end - self), computed from whichever end is nearer so that weight == 1
// gives exactly `end` (PyTorch's formula). C10_HOST_DEVICE: cuda/Lerp.cu calls it too.
template <typename scalar_t, typename weight_t>
C10_HOST_DEVICE inline scalar_t lerp(scalar_t self_, scalar_t end_, weight_t weight_) {
  using opmath_t = weight_t;
  const opmath_t self = self_, end = end_, weight = weight_;
  // Each branch is one multiply-add, rounded once as in PyTorch's FMA-compiled kernels.
  return std::abs(weight) < opmath_t(0.5) ? fmadd<opmath_t>(weight, end - self, self)
                                          : fmadd<opmath_t>(-(end - self), opmath_t(1) - weight, end);
}

DECLARE_DISPATCH(void (*)(TensorIteratorBase&, const Scalar& weight), lerp_kernel_scalar_weight);
DECLARE_DISPATCH(void (*)(TensorIteratorBase&), lerp_kernel_tensor_weight);

}  // namespace at::native
