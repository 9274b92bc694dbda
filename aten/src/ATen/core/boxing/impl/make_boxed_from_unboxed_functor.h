// aten/src/ATen/core/boxing/impl/make_boxed_from_unboxed_functor.h - the boxed form of a kernel
// written with C++ types: pop the arguments off the Stack as the types the kernel takes, call
// it, push what it returns.
// Mirrors PyTorch's aten/src/ATen/core/boxing/impl/make_boxed_from_unboxed_functor.h.
// Guide: docs/source/internals/cpp_extensions.rst.
//
// Each C++ parameter type has an ivalue_to_arg<T> that reads it from an IValue, and each return
// type a push_outputs<T>. A kernel is boxable when all of its types have one; for any other
// kernel (one taking a Generator, say) supports_boxing is false and the kernel is unboxed only,
// callable from C++ but not from torch.ops. Some parameter types are views (IntArrayRef,
// ArrayRef<Tensor>, string_view): they point into the IValue on the stack, which stays there
// until the kernel returns.
#pragma once

#include <ATen/core/stack.h>

#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace c10::impl {

template <class T, class Enable = void>
struct ivalue_to_arg {
  static constexpr bool supported = false;
};

#define C10_BOXING_ARG(cpp_type, expr)                                   \
  template <>                                                            \
  struct ivalue_to_arg<cpp_type> {                                       \
    static constexpr bool supported = true;                              \
    static decltype(auto) call(IValue& v) { return expr; }               \
  };

C10_BOXING_ARG(at::Tensor, v.to<at::Tensor>())
C10_BOXING_ARG(double, v.to<double>())
C10_BOXING_ARG(int64_t, v.toInt())
C10_BOXING_ARG(bool, v.toBool())
C10_BOXING_ARG(c10::Scalar, v.toScalar())
C10_BOXING_ARG(c10::ScalarType, v.toScalarType())
C10_BOXING_ARG(c10::Device, v.toDevice())
C10_BOXING_ARG(std::string, v.toStringRef())
C10_BOXING_ARG(std::string_view, std::string_view(v.toStringRef()))
C10_BOXING_ARG(c10::IntArrayRef, v.toIntList())
C10_BOXING_ARG(std::vector<int64_t>, v.toIntVector())
C10_BOXING_ARG(c10::ArrayRef<double>, c10::ArrayRef<double>(v.toDoubleVector()))
C10_BOXING_ARG(c10::ArrayRef<at::Tensor>, c10::ArrayRef<at::Tensor>(v.toTensorVector()))
C10_BOXING_ARG(std::vector<at::Tensor>, v.toTensorVector())
#undef C10_BOXING_ARG

template <class T>
struct ivalue_to_arg<std::optional<T>, std::enable_if_t<ivalue_to_arg<T>::supported>> {
  static constexpr bool supported = true;
  static std::optional<std::decay_t<decltype(ivalue_to_arg<T>::call(std::declval<IValue&>()))>> call(IValue& v) {
    if (v.isNone()) return std::nullopt;
    return ivalue_to_arg<T>::call(v);
  }
};

// What a kernel returns, pushed onto the stack: nothing, one value, or a tuple's elements.
template <class T, class Enable = void>
struct push_outputs {
  static constexpr bool supported = ivalue_to_arg<T>::supported;
  static void call(T&& output, Stack* stack) { stack->emplace_back(std::move(output)); }
};
template <>
struct push_outputs<void> {
  static constexpr bool supported = true;
};
template <class... Ts>
struct push_outputs<std::tuple<Ts...>> {
  static constexpr bool supported = (push_outputs<Ts>::supported && ...);
  static void call(std::tuple<Ts...>&& output, Stack* stack) {
    std::apply([&](auto&&... xs) { (stack->emplace_back(std::move(xs)), ...); }, std::move(output));
  }
};

// A parameter that is a non-const lvalue reference (Tensor& of an in-place kernel written by
// hand) cannot bind to a value read off the stack: such kernels are unboxed only.
template <class Arg>
constexpr bool arg_supports_boxing() {
  using T = std::remove_cv_t<std::remove_reference_t<Arg>>;
  constexpr bool mutable_ref = std::is_lvalue_reference_v<Arg> && !std::is_const_v<std::remove_reference_t<Arg>>;
  return !mutable_ref && ivalue_to_arg<T>::supported;
}

template <class Return, class... Args>
constexpr bool supports_boxing() {
  return push_outputs<std::decay_t<Return>>::supported && (arg_supports_boxing<Args>() && ...);
}

template <class T>
using arg_reader = ivalue_to_arg<std::remove_cv_t<std::remove_reference_t<T>>>;

template <bool WithKeySet, class Return, class... Args, size_t... I>
Return call_with_arguments(void* functor, DispatchKeySet ks, IValue* args, std::index_sequence<I...>) {
  if constexpr (WithKeySet) {
    return reinterpret_cast<Return (*)(DispatchKeySet, Args...)>(functor)(ks, arg_reader<Args>::call(args[I])...);
  } else {
    return reinterpret_cast<Return (*)(Args...)>(functor)(arg_reader<Args>::call(args[I])...);
  }
}

// The boxed trampoline of an unboxed function pointer (kept as void* in the KernelFunction):
// the operator's n arguments are the top n values of the stack.
template <bool WithKeySet, class Return, class... Args>
void call_unboxed_from_boxed(void* functor, DispatchKeySet ks, Stack* stack) {
  constexpr size_t n = sizeof...(Args);
  TORCH_CHECK(stack->size() >= n, "a boxed call needs ", n, " arguments on the stack, found ", stack->size());
  IValue* args = stack->data() + (stack->size() - n);
  if constexpr (std::is_void_v<Return>) {
    call_with_arguments<WithKeySet, Return, Args...>(functor, ks, args, std::index_sequence_for<Args...>());
    torch::jit::drop(*stack, n);
  } else {
    std::decay_t<Return> output =
        call_with_arguments<WithKeySet, Return, Args...>(functor, ks, args, std::index_sequence_for<Args...>());
    torch::jit::drop(*stack, n);
    push_outputs<std::decay_t<Return>>::call(std::move(output), stack);
  }
}

}  // namespace c10::impl
