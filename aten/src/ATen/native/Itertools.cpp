// aten/src/ATen/native/Itertools.cpp - cartesian_prod: Python's itertools.product of 1-D tensors,
// one row per combination. Mirrors PyTorch's aten/src/ATen/native/Itertools.cpp.
// Guide: docs/source/internals/programs/native_ops.rst.
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>

namespace at::native {

// The meshgrid ("ij") of the inputs, each grid flattened into a column.
Tensor cartesian_prod(TensorList tensors) {
  for (const auto& t : tensors) {
    TORCH_CHECK(t.dim() == 1, "Expect a 1D vector, but got shape ", t.sizes());
  }
  if (tensors.size() == 1) {
    return tensors[0];
  }
  std::vector<Tensor> grids = at::meshgrid(tensors, "ij");
  for (auto& grid : grids) {
    grid = grid.flatten();
  }
  return at::stack(grids, 1);
}

}  // namespace at::native
