// aten/src/ATen/core/Reduction.h - the `reduction` argument of the losses as an enum.
// Mirrors PyTorch's aten/src/ATen/core/Reduction.h. Guide: docs/source/internals/cuda_training.rst.
//
// Python passes torch.nn._reduction.get_enum(reduction) ("none" 0, "mean" 1, "sum" 2) as a
// plain int; native_functions.yaml writes its default as `int reduction=Mean`, which the code
// generator spells at::Reduction::Mean in C++ and the argument parser reads as 1.
#pragma once

namespace at::Reduction {

enum Reduction {
  None,  // each element's loss, unreduced
  Mean,  // the sum divided by the number of elements (or, for nll_loss, the summed weights)
  Sum,   // the sum
  END
};

}  // namespace at::Reduction
