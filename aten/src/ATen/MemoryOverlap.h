// aten/src/ATen/MemoryOverlap.h - may a write through one tensor change what another reads?
// Mirrors PyTorch's aten/src/ATen/MemoryOverlap.h. Guide: docs/source/internals/hardening.rst.
//
// Two kinds of overlap make an in-place or out= operator's result depend on the order its
// loop runs in, so PyTorch refuses them:
// - internal: one memory location is several elements of the output (an expanded tensor:
//   zeros(3, 1).expand(3, 4).add_(1) would add 4 times to each location);
// - partial: the output and an input share some, but not all, of their memory
//   (x[1:].copy_(x[:-1]) reads elements it has already overwritten).
// Full overlap (the same elements, as in x.add_(1)) is fine: each element is read before it
// is written.
#pragma once

#include <ATen/core/TensorBase.h>

namespace at {

// Yes / No, or TooHard when the layout is too irregular to decide cheaply (then PyTorch
// lets the operation through, and so does this tree).
enum class MemOverlap { No, Yes, TooHard };
enum class MemOverlapStatus { Full, Partial, No, TooHard };

TORCH_API MemOverlap has_internal_overlap(const TensorBase& t);
TORCH_API void assert_no_internal_overlap(const TensorBase& t);

TORCH_API MemOverlapStatus get_overlap_status(const TensorBase& a, const TensorBase& b);
// Partial overlap is an error; full overlap (in-place) is allowed.
TORCH_API void assert_no_partial_overlap(const TensorBase& a, const TensorBase& b);
// Any overlap is an error (index_add_'s source, gather's index...).
TORCH_API void assert_no_overlap(const TensorBase& a, const TensorBase& b);

}  // namespace at
