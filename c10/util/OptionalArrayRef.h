// c10/util/OptionalArrayRef.h - an optional ArrayRef that is safe to build from one value.
// Mirrors PyTorch's c10/util/OptionalArrayRef.h. Guide: docs/source/internals/cpp_extensions.rst.
//
// Why not std::optional<IntArrayRef>: x.sum(0) passes the int 0 for `int[1]? dim`. With
// std::optional, the int is turned into an int64_t *inside* optional's constructor, the
// ArrayRef points at that temporary, and the temporary is gone when the constructor returns:
// sum then reads a dead value. Here the one-value constructor takes `const T&`, so the
// conversion to int64_t happens at the call site, where the temporary lives until the call
// (the whole expression) is over.
#pragma once

#include <c10/util/ArrayRef.h>

#include <initializer_list>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace c10 {

template <typename T>
class OptionalArrayRef final {
 public:
  constexpr OptionalArrayRef() noexcept = default;
  constexpr OptionalArrayRef(std::nullopt_t) noexcept {}
  OptionalArrayRef(const OptionalArrayRef& other) = default;
  OptionalArrayRef& operator=(const OptionalArrayRef& other) = default;

  // One value: sum(0) is sum({0}).
  constexpr OptionalArrayRef(const T& value) noexcept : wrapped_(ArrayRef<T>(value)) {}
  constexpr OptionalArrayRef(std::initializer_list<T> values) noexcept : wrapped_(ArrayRef<T>(values)) {}
  // What converts to an ArrayRef (a vector, an IntArrayRef, ...), except what is a single
  // value, which the constructor above takes.
  template <typename U, std::enable_if_t<!std::is_same_v<std::decay_t<U>, OptionalArrayRef> &&
                                             std::is_convertible_v<U&&, ArrayRef<T>> &&
                                             !std::is_convertible_v<U&&, T>,
                                         int> = 0>
  constexpr OptionalArrayRef(U&& value) noexcept : wrapped_(ArrayRef<T>(std::forward<U>(value))) {}
  constexpr OptionalArrayRef(const std::optional<ArrayRef<T>>& other) noexcept : wrapped_(other) {}

  constexpr bool has_value() const noexcept { return wrapped_.has_value(); }
  constexpr explicit operator bool() const noexcept { return has_value(); }
  constexpr const ArrayRef<T>& value() const& { return wrapped_.value(); }
  constexpr const ArrayRef<T>& operator*() const& noexcept { return *wrapped_; }
  constexpr const ArrayRef<T>* operator->() const noexcept { return &*wrapped_; }
  template <typename U>
  constexpr ArrayRef<T> value_or(U&& default_value) const {
    return has_value() ? *wrapped_ : ArrayRef<T>(std::forward<U>(default_value));
  }
  void reset() noexcept { wrapped_.reset(); }

 private:
  std::optional<ArrayRef<T>> wrapped_;
};

using OptionalIntArrayRef = OptionalArrayRef<int64_t>;

}  // namespace c10
