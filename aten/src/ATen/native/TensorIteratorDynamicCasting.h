// aten/src/ATen/native/TensorIteratorDynamicCasting.h - does a kernel lambda's signature match
// the iterator's dtypes? Mirrors PyTorch's aten/src/ATen/native/TensorIteratorDynamicCasting.h.
// Guide: docs/source/internals/tensor_iterator.rst.
//
// On CPU, TensorIterator converts operands to the common dtype before the loop, so a
// lambda(float, float) -> float sees float bytes everywhere; this check guards that promise.
// (CUDA kernels instead convert element by element when it fails: "dynamic casting".)
#pragma once

#include <ATen/TensorIterator.h>
#include <ATen/detail/FunctionTraits.h>
#include <c10/core/ScalarType.h>

#include <type_traits>
#include <utility>

namespace at::native {

template <typename func_t>
struct needs_dynamic_casting {
  static bool check(const TensorIteratorBase& iter) {
    using traits = function_traits<func_t>;
    using result_t = std::decay_t<typename traits::result_type>;
    if (iter.dtype(0) != c10::CppTypeToScalarType<result_t>::value) {
      return true;
    }
    return check_inputs(iter, std::make_index_sequence<traits::arity>{});
  }

 private:
  template <std::size_t... I>
  static bool check_inputs(const TensorIteratorBase& iter, std::index_sequence<I...>) {
    using traits = function_traits<func_t>;
    return ((iter.dtype(I + 1) !=
             c10::CppTypeToScalarType<std::decay_t<typename traits::template arg<I>::type>>::value) ||
            ...);
  }
};

}  // namespace at::native
