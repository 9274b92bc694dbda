// aten/src/ATen/native/DistributionTemplates.h - what the random fills of every device share:
// a complex tensor is filled through its real and imaginary parts. Mirrors PyTorch's
// aten/src/ATen/native/DistributionTemplates.h (normal_impl_ and uniform_impl_, which fill
// at::view_as_real(self)). Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <ATen/Functions.h>
#include <ATen/core/Tensor.h>
#include <c10/core/ScalarType.h>

namespace at::native::templates {

// For a complex self, call fill(parts) with a real view of the same numbers and return true;
// for a real self, return false. parts is at::view_as_real(self): a last dimension of 2 (the
// real and imaginary parts) with every other stride doubled, made as x.unsqueeze(-1) (a last
// stride of 1) viewed as the real dtype. It has self's memory order, so a seed fills the
// numbers in PyTorch's order, contiguous or not.
template <typename fill_t>
bool fill_complex_as_real(const Tensor& self, const fill_t& fill) {
  if (!c10::isComplexType(self.scalar_type())) {
    return false;
  }
  Tensor parts = self.unsqueeze(-1).view(c10::toRealValueType(self.scalar_type()));
  fill(parts);
  return true;
}

}  // namespace at::native::templates
