// aten/src/ATen/TensorIndexing.h - t[...] in C++: at::indexing::get_item / set_item over
// TensorIndex (an integer, a Slice, None, Ellipsis, a bool or a Tensor), used by Python's
// t[...] (torch/csrc/autograd/python_variable_indexing.cpp) and callable from C++.
// Mirrors PyTorch's aten/src/ATen/TensorIndexing.h. Guide: docs/source/internals/tensors.rst.
//
// Basic indexing (integers, slices, None, Ellipsis) becomes views: select, slice, unsqueeze -
// the result shares the storage. Index tensors (and bools, and masks) are collected, one per
// dimension, and lowered at the end to one at::index (read: a copy) or at::index_put_ (write).
//
//   using namespace at::indexing;
//   get_item(t, {0, Slice(1, None, 2), Ellipsis, None});   // t[0, 1::2, ..., None]
//   set_item(t, {idx_tensor}, 1.0);                        // t[idx] = 1
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace at::indexing {

constexpr int64_t INDEX_MIN = std::numeric_limits<int64_t>::min();
constexpr int64_t INDEX_MAX = std::numeric_limits<int64_t>::max();

enum class TensorIndexType { None, Ellipsis, SymInt, Boolean, Slice, Tensor };

constexpr std::nullopt_t None = std::nullopt;

struct TORCH_API EllipsisIndexType final {
  EllipsisIndexType() = default;
};
TORCH_API extern const EllipsisIndexType Ellipsis;

// start:stop:step; a missing start/stop is the beginning/end (for the positive steps allowed).
struct TORCH_API Slice final {
  Slice(std::optional<int64_t> start_index = std::nullopt, std::optional<int64_t> stop_index = std::nullopt,
        std::optional<int64_t> step_index = std::nullopt)
      : step_(step_index.value_or(1)),
        start_(start_index.value_or(step_ < 0 ? INDEX_MAX : 0)),
        stop_(stop_index.value_or(step_ < 0 ? INDEX_MIN : INDEX_MAX)) {}
  int64_t start() const { return start_; }
  int64_t stop() const { return stop_; }
  int64_t step() const { return step_; }

 private:
  int64_t step_;
  int64_t start_;
  int64_t stop_;
};

// One entry of t[...].
struct TORCH_API TensorIndex final {
  TensorIndex(std::nullopt_t) : type_(TensorIndexType::None) {}
  TensorIndex(EllipsisIndexType) : type_(TensorIndexType::Ellipsis) {}
  TensorIndex(const char* str);  // "..." is Ellipsis, as in PyTorch
  TensorIndex(int64_t integer) : integer_(integer), type_(TensorIndexType::SymInt) {}
  TensorIndex(int integer) : TensorIndex(static_cast<int64_t>(integer)) {}
  TensorIndex(bool boolean) : boolean_(boolean), type_(TensorIndexType::Boolean) {}
  TensorIndex(Slice slice) : slice_(slice), type_(TensorIndexType::Slice) {}
  TensorIndex(Tensor tensor) : tensor_(std::move(tensor)), type_(TensorIndexType::Tensor) {}

  bool is_none() const { return type_ == TensorIndexType::None; }
  bool is_ellipsis() const { return type_ == TensorIndexType::Ellipsis; }
  bool is_integer() const { return type_ == TensorIndexType::SymInt; }
  bool is_boolean() const { return type_ == TensorIndexType::Boolean; }
  bool is_slice() const { return type_ == TensorIndexType::Slice; }
  bool is_tensor() const { return type_ == TensorIndexType::Tensor; }
  int64_t integer() const { return integer_; }
  bool boolean() const { return boolean_; }
  const Slice& slice() const { return slice_; }
  const Tensor& tensor() const { return tensor_; }

 private:
  int64_t integer_ = 0;
  bool boolean_ = false;
  Slice slice_;
  Tensor tensor_;
  TensorIndexType type_;
};

namespace impl {
// t.select(dim, index) with indexing's checks and messages (real_dim: the position in t[...]).
TORCH_API Tensor applySelect(const Tensor& self, int64_t dim, int64_t index, int64_t real_dim);
// t.slice(dim, start, stop, step); step must be positive.
TORCH_API Tensor applySlice(const Tensor& self, int64_t dim, int64_t start, int64_t stop, int64_t step);
// The views of every basic index; the index tensors left for at::index / at::index_put_ go
// to outIndices, one slot per dimension of the result (undefined where none).
TORCH_API Tensor applySlicing(const Tensor& self, ArrayRef<TensorIndex> indices, std::vector<Tensor>& outIndices);
}  // namespace impl

// self[indices]: a view when every index is basic, else a new tensor (at::index).
// single_index: t[i] rather than t[i,] (Python passes false for a tuple), which decides
// whether t[0] on a 0-d tensor says "invalid index of a 0-dim tensor" or "too many indices".
TORCH_API Tensor get_item(const Tensor& self, ArrayRef<TensorIndex> indices, bool single_index = true);
// self[indices] = value (value broadcasts to the indexed shape). Bumps self's version.
TORCH_API void set_item(const Tensor& self, ArrayRef<TensorIndex> indices, const Tensor& value,
                        bool single_index = true);
TORCH_API void set_item(const Tensor& self, ArrayRef<TensorIndex> indices, const Scalar& value);

}  // namespace at::indexing
