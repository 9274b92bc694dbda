// aten/src/ATen/native/cpu/SumKernel.h - the cascade sum of float and double reductions
// (sum, mean, nansum). Mirrors PyTorch's aten/src/ATen/native/cpu/SumKernel.cpp.
// Guide: docs/source/internals/programs/random_streams.rst ("The cascade sum").
#pragma once

#include <ATen/TensorIterator.h>

namespace at::native {

// Sums iter's input into its output (float or double, both of one dtype) with PyTorch's
// summation order. Returns false, doing nothing, for other dtypes.
bool cascade_sum_cpu(TensorIteratorBase& iter);

}  // namespace at::native
