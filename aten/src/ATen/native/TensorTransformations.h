// aten/src/ATen/native/TensorTransformations.h - what flip and roll share between the CPU
// (TensorTransformations.cpp) and CUDA (cuda/TensorTransformations.cu): the checks of their
// arguments and the reduction of a roll over several dims to rolls over one. Mirrors PyTorch's
// aten/src/ATen/native/TensorTransformations.h (roll_common) and ATen/WrapDimUtilsMulti.h
// (dim_list_to_bitset). Guide: docs/source/internals/tensors.rst.
//
// Both devices run these, so an argument refused on one is refused on the other, with the same
// error type and message.
#pragma once

#include <ATen/Functions.h>
#include <ATen/core/Tensor.h>
#include <c10/core/WrapDimMinimal.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <vector>

namespace at::native {

// flip's dims as one flag per dimension: each dim wrapped (so -1 is the last), a repeat refused.
inline std::vector<bool> dim_list_to_bitset(IntArrayRef dims, int64_t ndims) {
  // A 0-d tensor accepts dim 0 and -1 (maybe_wrap_dim treats it as 1-d), hence at least one flag.
  std::vector<bool> seen(std::max<int64_t>(ndims, 1), false);
  for (int64_t d : dims) {
    const int64_t dim = c10::maybe_wrap_dim(d, ndims);
    TORCH_CHECK(!seen[dim], "dim ", dim, " appears multiple times in the list of dims");
    seen[dim] = true;
  }
  seen.resize(ndims);
  return seen;
}

// The roll kernels handle one shift along one dim. Several dims: roll the first, then the rest.
// No dims: roll the flattened tensor and give it its shape back. at::roll dispatches again, so
// each step runs on the device of self.
inline Tensor roll_common(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  TORCH_CHECK(!shifts.empty(), "`shifts` required");
  if (dims.empty() && shifts.size() == 1) {
    auto flattened = self.contiguous().view(self.numel());
    return at::roll(flattened, shifts[0], 0).view(self.sizes());
  }
  TORCH_CHECK(shifts.size() == dims.size(), "shifts and dimensions must align. shifts: ", shifts.size(),
              ", dims:", dims.size());
  auto first_dim_rolled = at::roll(self, shifts.slice(0, 1), dims.slice(0, 1));
  return at::roll(first_dim_rolled, shifts.slice(1), dims.slice(1));
}

// Where a roll of one non-empty dim starts: rolling by shift along a dim of size n puts element
// (n - shift) mod n first. The mod is Python's, so a negative shift rolls the other way (C++'s %
// keeps the sign of the dividend). size() refuses a dim out of range, naming the dim as given.
struct RollDim {
  int64_t dim;    // wrapped
  int64_t size;
  int64_t start;  // in [0, size)
};

inline RollDim roll_dim(const Tensor& self, int64_t shift, int64_t dim) {
  const int64_t size = self.size(dim);
  int64_t start = (size - shift) % size;
  if (start < 0) {
    start += size;
  }
  return {c10::maybe_wrap_dim(dim, self.dim()), size, start};
}

}  // namespace at::native
