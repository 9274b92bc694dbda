// aten/src/ATen/MemoryOverlap.cpp - internal and partial overlap checks.
// Mirrors PyTorch's aten/src/ATen/MemoryOverlap.cpp. Guide: docs/source/internals/hardening.rst.
#include <ATen/MemoryOverlap.h>

namespace at {

// [marker: has_internal_overlap]
// A dense layout has no internal overlap; a dimension of size > 1 with stride 0 (expand)
// certainly has. Anything else (as_strided with overlapping strides) is too hard to decide.
MemOverlap has_internal_overlap(const TensorBase& t) {
  const TensorImpl* impl = t.unsafeGetTensorImpl();
  if (impl->is_non_overlapping_and_dense()) {
    return MemOverlap::No;
  }
  const auto sizes = impl->sizes();
  const auto strides = impl->strides();
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] > 1 && strides[d] == 0) {
      return MemOverlap::Yes;
    }
  }
  return MemOverlap::TooHard;
}
// [end marker: has_internal_overlap]

void assert_no_internal_overlap(const TensorBase& t) {
  TORCH_CHECK(has_internal_overlap(t) != MemOverlap::Yes,
              "unsupported operation: more than one element of the written-to tensor "
              "refers to a single memory location. Please clone() the tensor before "
              "performing the operation.");
}

// [marker: get_overlap_status]
// Two dense tensors over one storage overlap when their byte ranges do. The same range
// with the same strides is the same elements (Full); anything else that intersects is
// Partial.
MemOverlapStatus get_overlap_status(const TensorBase& a, const TensorBase& b) {
  const TensorImpl* ai = a.unsafeGetTensorImpl();
  const TensorImpl* bi = b.unsafeGetTensorImpl();
  if (ai == bi) {
    return MemOverlapStatus::Full;
  }
  if (ai->numel() == 0 || bi->numel() == 0) {
    return MemOverlapStatus::No;
  }
  if (!ai->has_storage() || !bi->has_storage() || ai->is_meta() || bi->is_meta()) {
    return MemOverlapStatus::No;
  }
  if (!ai->is_non_overlapping_and_dense() || !bi->is_non_overlapping_and_dense()) {
    return MemOverlapStatus::TooHard;
  }
  if (!ai->storage().is_alias_of(bi->storage())) {
    return MemOverlapStatus::No;
  }
  const auto* a_begin = static_cast<const char*>(ai->data());
  const auto* a_end = a_begin + ai->numel() * ai->itemsize();
  const auto* b_begin = static_cast<const char*>(bi->data());
  const auto* b_end = b_begin + bi->numel() * bi->itemsize();
  if (a_begin == b_begin && a_end == b_end) {
    return ai->strides().equals(bi->strides()) ? MemOverlapStatus::Full : MemOverlapStatus::Partial;
  }
  if (a_begin < b_end && b_begin < a_end) {
    return MemOverlapStatus::Partial;
  }
  return MemOverlapStatus::No;
}
// [end marker: get_overlap_status]

void assert_no_partial_overlap(const TensorBase& a, const TensorBase& b) {
  TORCH_CHECK(get_overlap_status(a, b) != MemOverlapStatus::Partial,
              "unsupported operation: some elements of the input tensor and "
              "the written-to tensor refer to a single memory location. "
              "Please clone() the tensor before performing the operation.");
}

void assert_no_overlap(const TensorBase& a, const TensorBase& b) {
  const auto lap = get_overlap_status(a, b);
  TORCH_CHECK(lap != MemOverlapStatus::Partial && lap != MemOverlapStatus::Full,
              "unsupported operation: some elements of the input tensor and "
              "the written-to tensor refer to a single memory location. "
              "Please clone() the tensor before performing the operation.");
}

}  // namespace at
