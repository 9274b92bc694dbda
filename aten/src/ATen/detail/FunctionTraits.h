// aten/src/ATen/detail/FunctionTraits.h - the argument and result types of a lambda, so that
// cpu_kernel can read `scalar_t a, scalar_t b` from raw bytes and write the result.
// Mirrors PyTorch's aten/src/ATen/detail/FunctionTraits.h. Guide: docs/source/internals/tensor_iterator.rst.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>

// function_traits<F>::arity, ::result_type, ::arg<i>::type for lambdas, function pointers
// and member function pointers.
template <typename T>
struct function_traits : public function_traits<decltype(&T::operator())> {};

template <typename ClassType, typename ReturnType, typename... Args>
struct function_traits<ReturnType (ClassType::*)(Args...) const> : public function_traits<ReturnType(Args...)> {};

template <typename ClassType, typename ReturnType, typename... Args>
struct function_traits<ReturnType (ClassType::*)(Args...)> : public function_traits<ReturnType(Args...)> {};

template <typename ReturnType, typename... Args>
struct function_traits<ReturnType (*)(Args...)> : public function_traits<ReturnType(Args...)> {};

template <typename T>
struct function_traits<T&> : public function_traits<T> {};
template <typename T>
struct function_traits<T*> : public function_traits<T> {};

template <typename ReturnType, typename... Args>
struct function_traits<ReturnType(Args...)> {
  static constexpr std::size_t arity = sizeof...(Args);
  using result_type = ReturnType;
  using ArgsTuple = std::tuple<Args...>;
  template <std::size_t i>
  struct arg {
    using type = typename std::tuple_element<i, std::tuple<Args...>>::type;
  };
};
