// c10/util/ArrayRef.h - a non-owning view of a contiguous array (pointer + length).
// Mirrors PyTorch's c10/util/ArrayRef.h. Guide: docs/source/internals/tensors.rst.
//
// Sizes and strides travel as IntArrayRef: whoever owns the vector keeps it alive, the
// callee only reads. An ArrayRef never outlives what it points at, so never store one.
#pragma once

#include <c10/util/Exception.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <ostream>
#include <vector>

namespace c10 {

template <typename T>
class ArrayRef final {
 public:
  using iterator = const T*;
  using const_iterator = const T*;
  using size_type = size_t;
  using value_type = T;
  using reverse_iterator = std::reverse_iterator<iterator>;

  constexpr ArrayRef() : data_(nullptr), length_(0) {}
  // One element, viewed as an array of length 1.
  constexpr ArrayRef(const T& one_elt) : data_(&one_elt), length_(1) {}
  constexpr ArrayRef(const T* data, size_t length) : data_(data), length_(length) {}
  constexpr ArrayRef(const T* begin, const T* end) : data_(begin), length_(end - begin) {}
  template <typename A>
  ArrayRef(const std::vector<T, A>& vec) : data_(vec.data()), length_(vec.size()) {}
  template <size_t N>
  constexpr ArrayRef(const std::array<T, N>& arr) : data_(arr.data()), length_(N) {}
  template <size_t N>
  constexpr ArrayRef(const T (&arr)[N]) : data_(arr), length_(N) {}
  constexpr ArrayRef(const std::initializer_list<T>& vec)
      : data_(std::begin(vec) == std::end(vec) ? nullptr : std::begin(vec)), length_(vec.size()) {}

  constexpr iterator begin() const { return data_; }
  constexpr iterator end() const { return data_ + length_; }
  constexpr reverse_iterator rbegin() const { return reverse_iterator(end()); }
  constexpr reverse_iterator rend() const { return reverse_iterator(begin()); }
  constexpr bool empty() const { return length_ == 0; }
  constexpr const T* data() const { return data_; }
  constexpr size_t size() const { return length_; }

  const T& front() const {
    TORCH_CHECK(!empty(), "ArrayRef: attempted to access front() of empty list");
    return data_[0];
  }
  const T& back() const {
    TORCH_CHECK(!empty(), "ArrayRef: attempted to access back() of empty list");
    return data_[length_ - 1];
  }
  bool equals(ArrayRef rhs) const {
    return length_ == rhs.length_ && std::equal(begin(), end(), rhs.begin());
  }
  // Elements [N, M).
  ArrayRef<T> slice(size_t N, size_t M) const {
    TORCH_CHECK(N <= M && M <= size(), "ArrayRef: invalid slice, N = ", N, "; M = ", M,
                "; size = ", size());
    return ArrayRef<T>(data() + N, M - N);
  }
  ArrayRef<T> slice(size_t N) const { return slice(N, size()); }

  constexpr const T& operator[](size_t index) const { return data_[index]; }
  const T& at(size_t index) const {
    TORCH_CHECK(index < length_, "ArrayRef: invalid index Index = ", index,
                "; Length = ", length_);
    return data_[index];
  }
  std::vector<T> vec() const { return std::vector<T>(data_, data_ + length_); }

 private:
  const T* data_;
  size_type length_;
};

// Printed as PyTorch prints sizes in messages: [2, 3].
template <typename T>
std::ostream& operator<<(std::ostream& out, ArrayRef<T> list) {
  out << "[";
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) out << ", ";
    out << list[i];
  }
  out << "]";
  return out;
}

template <typename T>
bool operator==(ArrayRef<T> a, ArrayRef<T> b) {
  return a.equals(b);
}
template <typename T>
bool operator!=(ArrayRef<T> a, ArrayRef<T> b) {
  return !a.equals(b);
}
template <typename T>
bool operator==(const std::vector<T>& a, ArrayRef<T> b) {
  return ArrayRef<T>(a).equals(b);
}
template <typename T>
bool operator==(ArrayRef<T> a, const std::vector<T>& b) {
  return a.equals(ArrayRef<T>(b));
}

using IntArrayRef = ArrayRef<int64_t>;

}  // namespace c10

namespace at {
using c10::ArrayRef;
using c10::IntArrayRef;
}  // namespace at
