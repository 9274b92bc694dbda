// torch/csrc/api/include/torch/expanding_array.h - ExpandingArray<D>: D sizes given as one
// number (3 -> {3, 3}) or as D numbers. Mirrors PyTorch's torch/csrc/api/include/torch/expanding_array.h.
// Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <c10/util/ArrayRef.h>
#include <c10/util/Exception.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <vector>

namespace torch {

// Why a type and not a std::vector: Conv2dOptions(1, 8, 3) must mean a 3x3 kernel, and
// a wrong count ({3, 3, 3} for a 2-d conv) must fail where the option is set.
template <size_t D, typename T = int64_t>
class ExpandingArray {
 public:
  /*implicit*/ ExpandingArray(std::initializer_list<T> list) : ExpandingArray(c10::ArrayRef<T>(list)) {}
  /*implicit*/ ExpandingArray(std::vector<T> vec) : ExpandingArray(c10::ArrayRef<T>(vec)) {}
  /*implicit*/ ExpandingArray(c10::ArrayRef<T> values) {
    TORCH_CHECK(values.size() == D, "Expected ", D, " values, but instead got ", values.size());
    std::copy(values.begin(), values.end(), values_.begin());
  }
  /*implicit*/ ExpandingArray(T single_size) { values_.fill(single_size); }
  /*implicit*/ ExpandingArray(const std::array<T, D>& values) : values_(values) {}

  std::array<T, D>& operator*() { return values_; }
  const std::array<T, D>& operator*() const { return values_; }
  std::array<T, D>* operator->() { return &values_; }
  const std::array<T, D>* operator->() const { return &values_; }
  // What at::conv2d takes (IntArrayRef stride, padding, ...).
  operator c10::ArrayRef<T>() const { return c10::ArrayRef<T>(values_.data(), D); }
  size_t size() const noexcept { return D; }

 protected:
  std::array<T, D> values_;
};

template <size_t D, typename T>
std::ostream& operator<<(std::ostream& stream, const ExpandingArray<D, T>& array) {
  if (array.size() == 1) return stream << array->at(0);
  stream << "[";
  for (size_t i = 0; i < D; ++i) stream << (i ? ", " : "") << array->at(i);
  return stream << "]";
}

}  // namespace torch
