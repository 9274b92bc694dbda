// torch/csrc/api/include/torch/arg.h - TORCH_ARG, the builder-style option setter of every
// *Options struct: LinearOptions(3, 4).bias(false). Mirrors PyTorch's torch/csrc/api/include/torch/arg.h.
// Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <utility>

// TORCH_ARG(double, lr) declares a private member lr_ and three methods: lr(value) sets it
// and returns *this (so setters chain), lr() reads it, and a non-const lr() gives a reference.
#define TORCH_ARG(T, name)                                          \
 public:                                                            \
  inline auto name(const T& new_##name) -> decltype(*this) {        \
    this->name##_ = new_##name;                                     \
    return *this;                                                   \
  }                                                                 \
  inline auto name(T&& new_##name) -> decltype(*this) {             \
    this->name##_ = std::move(new_##name);                          \
    return *this;                                                   \
  }                                                                 \
  inline const T& name() const noexcept { return this->name##_; }   \
  inline T& name() noexcept { return this->name##_; }               \
                                                                    \
 private:                                                           \
  T name##_
