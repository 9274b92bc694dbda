// aten/src/ATen/TensorGeometry.h - a tensor's sizes, strides and offset without its data.
// Mirrors PyTorch's aten/src/ATen/TensorGeometry.h. Guide: docs/source/internals/autograd.rst.
//
// Backward nodes of views keep the geometry of their input (not the input itself, which
// would keep its memory alive) to lay the gradient out the same way.
#pragma once

#include <ATen/core/TensorBase.h>

#include <vector>

namespace at {

struct TensorGeometry {
  TensorGeometry() = default;
  explicit TensorGeometry(const TensorBase& t)
      : sizes_(t.sizes().vec()), strides_(t.strides().vec()), storage_offset_(t.storage_offset()), numel_(t.numel()) {}

  IntArrayRef sizes() const { return sizes_; }
  IntArrayRef strides() const { return strides_; }
  int64_t storage_offset() const { return storage_offset_; }
  int64_t numel() const { return numel_; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }

 private:
  std::vector<int64_t> sizes_, strides_;
  int64_t storage_offset_ = 0;
  int64_t numel_ = 0;
};

}  // namespace at
