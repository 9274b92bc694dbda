// aten/src/ATen/native/cpu/Loops.h - cpu_kernel: turn a lambda over values into a loop over
// a TensorIterator's raw bytes. Mirrors PyTorch's aten/src/ATen/native/cpu/Loops.h.
// Guide: docs/source/internals/tensor_iterator.rst ("The loop").
//
//   cpu_kernel(iter, [](float a, float b) -> float { return a + b; });
//
// The lambda's argument types say how to read each input, its return type how to write the
// output; function_traits reads them off the lambda. TensorIterator::for_each calls the
// loop below once per 2-D chunk (possibly on several threads), giving a pointer and a byte
// stride per operand. For each row of the chunk the loop picks one of three inner loops:
//
//   * contiguous: every operand moves by exactly one element - a plain indexed loop the
//     compiler can vectorise. cpu_kernel_vec adds `#pragma omp simd`, promising the compiler
//     that elements are independent even when out aliases an input (a.add_(b)); PyTorch's
//     cpu_kernel_vec instead takes a second lambda written with at::vec::Vectorized<T>
//     intrinsics. A lambda that may throw (integer division by zero) must use cpu_kernel:
//     an exception cannot leave a simd loop;
//   * one scalar input: one input has stride 0 (a broadcast number, a + 2) and the rest are
//     contiguous - the number is loaded once and the loop is again vectorisable;
//   * anything else (transposed, broadcast rows, mixed strides): one element at a time, each
//     address computed from its byte stride.
#pragma once

#include <ATen/Parallel.h>
#include <ATen/TensorIterator.h>
#include <ATen/detail/FunctionTraits.h>
#include <ATen/native/TensorIteratorDynamicCasting.h>
#include <c10/util/complex.h>

#include <cstdint>
#include <type_traits>
#include <utility>

#if defined(_OPENMP)
#define AT_PRAGMA_SIMD _Pragma("omp simd")
#elif defined(__GNUC__) && !defined(__clang__)
#define AT_PRAGMA_SIMD _Pragma("GCC ivdep")
#else
#define AT_PRAGMA_SIMD
#endif

namespace at::native {

namespace loops_detail {

template <typename traits, std::size_t I>
using arg_t = std::decay_t<typename traits::template arg<I>::type>;

// An input seen as an array: either moving one element per step, or one value repeated.
template <typename T>
struct ContiguousInput {
  const T* ptr;
  T operator[](int64_t i) const { return ptr[i]; }
};
template <typename T>
struct ScalarInput {
  T value;
  T operator[](int64_t) const { return value; }
};

template <bool is_scalar, typename T>
auto make_input(char* data) {
  if constexpr (is_scalar) {
    return ScalarInput<T>{*reinterpret_cast<const T*>(data)};
  } else {
    return ContiguousInput<T>{reinterpret_cast<const T*>(data)};
  }
}

// [marker: vectorized_inner_loop]
// All operands contiguous (S == 0), or input S-1 a scalar and the rest contiguous. Each
// element's result depends only on the same element's inputs, so the loop has no carried
// dependence even when out is also an input (a.add_(b)): `omp simd` says so to the compiler.
template <bool simd, std::size_t S, typename func_t, std::size_t... I>
inline void vectorizable_loop(char** data, int64_t n, const func_t& op, std::index_sequence<I...>) {
  using traits = function_traits<func_t>;
  using result_t = typename traits::result_type;
  result_t* out = reinterpret_cast<result_t*>(data[0]);
  auto run = [&](auto... in) {
    if constexpr (simd) {
      AT_PRAGMA_SIMD
      for (int64_t i = 0; i < n; i++) {
        out[i] = op(in[i]...);
      }
    } else {
      for (int64_t i = 0; i < n; i++) {
        out[i] = op(in[i]...);
      }
    }
  };
  run(make_input<(I + 1 == S), arg_t<traits, I>>(data[I + 1])...);
}
// [end marker: vectorized_inner_loop]

// [marker: basic_loop]
// Any strides: read each input at data + i * stride, write the output likewise.
template <typename func_t, std::size_t... I>
inline void basic_loop(char** data, const int64_t* strides, int64_t n, const func_t& op, std::index_sequence<I...>) {
  using traits = function_traits<func_t>;
  using result_t = typename traits::result_type;
  for (int64_t i = 0; i < n; i++) {
    *reinterpret_cast<result_t*>(data[0] + i * strides[0]) =
        op(*reinterpret_cast<const arg_t<traits, I>*>(data[I + 1] + i * strides[I + 1])...);
  }
}
// [end marker: basic_loop]

template <typename func_t, std::size_t... I>
inline bool is_contiguous(const int64_t* strides, std::index_sequence<I...>) {
  using traits = function_traits<func_t>;
  return strides[0] == sizeof(typename traits::result_type) && ((strides[I + 1] == sizeof(arg_t<traits, I>)) && ...);
}

// Input S-1 has stride 0, every other operand is contiguous.
template <std::size_t S, typename func_t, std::size_t... I>
inline bool is_contiguous_scalar(const int64_t* strides, std::index_sequence<I...>) {
  using traits = function_traits<func_t>;
  return strides[0] == sizeof(typename traits::result_type) &&
         ((I + 1 == S ? strides[I + 1] == 0 : strides[I + 1] == sizeof(arg_t<traits, I>)) && ...);
}

// Try "input S-1 is the scalar" for S = 1..arity; true if one of them ran. A kernel with no
// inputs (a random fill) has no S, and then no parameter is read.
template <bool simd, typename func_t, std::size_t... I, std::size_t... S>
inline bool try_scalar_loops([[maybe_unused]] char** data, [[maybe_unused]] const int64_t* strides,
                             [[maybe_unused]] int64_t n, [[maybe_unused]] const func_t& op,
                             [[maybe_unused]] std::index_sequence<I...> args, std::index_sequence<S...>) {
  return ((is_contiguous_scalar<S + 1, func_t>(strides, args) &&
           (vectorizable_loop<simd, S + 1>(data, n, op, args), true)) ||
          ...);
}

#ifdef CPU_CAPABILITY_AVX2
// GCC 12's vectorizer recognises a complex product's (ac - bd, ad + bc) and emits it as
// fused multiply-add/subtract (vfmaddsub), even under -ffp-contract=off: the AVX2 build of
// complex mul would then round differently from the portable build and from PyTorch. Loops
// with a complex result are therefore left unvectorized in the AVX2 build (DispatchStub.h).
template <typename func_t, std::size_t... I>
__attribute__((optimize("no-tree-vectorize"))) void complex_loop(char** data, const int64_t* strides, int64_t n,
                                                                 const func_t& op, std::index_sequence<I...> args) {
  basic_loop(data, strides, n, op, args);
}
#endif

template <bool simd, typename func_t>
inline void inner_loop(char** data, const int64_t* strides, int64_t n, const func_t& op) {
  using traits = function_traits<func_t>;
  constexpr auto args = std::make_index_sequence<traits::arity>{};
#ifdef CPU_CAPABILITY_AVX2
  if constexpr (c10::is_complex<typename traits::result_type>::value) {
    complex_loop(data, strides, n, op, args);
    return;
  }
#endif
  if (is_contiguous<func_t>(strides, args)) {
    vectorizable_loop<simd, 0>(data, n, op, args);
  } else if (!try_scalar_loops<simd>(data, strides, n, op, args, args)) {
    basic_loop(data, strides, n, op, args);
  }
}

}  // namespace loops_detail

// The 2-D loop for_each calls: size1 rows of size0 elements; after each row, every pointer
// moves by its outer stride (strides[ntensors + k]).
template <bool simd = false, typename func_t>
auto make_basic_loop_closure(const func_t& op) {
  return [&op](char** base, const int64_t* strides, int64_t size0, int64_t size1) {
    constexpr int ntensors = function_traits<func_t>::arity + 1;
    char* data[ntensors];
    for (int k = 0; k < ntensors; k++) {
      data[k] = base[k];
    }
    const int64_t* outer_strides = strides + ntensors;
    for (int64_t j = 0; j < size1; j++) {
      if (j > 0) {
        for (int k = 0; k < ntensors; k++) {
          data[k] += outer_strides[k];
        }
      }
      loops_detail::inner_loop<simd>(data, strides, size0, op);
    }
  };
}

// [marker: cpu_kernel]
template <typename func_t>
void cpu_kernel(TensorIteratorBase& iter, const func_t& op, int64_t grain_size = at::internal::GRAIN_SIZE) {
  using traits = function_traits<func_t>;
  TORCH_INTERNAL_ASSERT(iter.ninputs() == static_cast<int>(traits::arity));
  TORCH_INTERNAL_ASSERT(iter.noutputs() == 1);
  // The lambda's types must be the operands' dtypes: the bytes are reinterpreted, not converted.
  TORCH_INTERNAL_ASSERT(!needs_dynamic_casting<func_t>::check(iter),
                        "cpu_kernel: the lambda's argument/result types do not match the operands' dtypes");
  iter.for_each(make_basic_loop_closure(op), grain_size);
  iter.cast_outputs();
}
// [end marker: cpu_kernel]

// As cpu_kernel, with the contiguous loops marked `omp simd` (see the top of this file).
// The lambda must not throw.
template <typename func_t>
void cpu_kernel_vec(TensorIteratorBase& iter, const func_t& op, int64_t grain_size = at::internal::GRAIN_SIZE) {
  using traits = function_traits<func_t>;
  TORCH_INTERNAL_ASSERT(iter.ninputs() == static_cast<int>(traits::arity));
  TORCH_INTERNAL_ASSERT(iter.noutputs() == 1);
  TORCH_INTERNAL_ASSERT(!needs_dynamic_casting<func_t>::check(iter),
                        "cpu_kernel_vec: the lambda's argument/result types do not match the operands' dtypes");
  iter.for_each(make_basic_loop_closure</*simd=*/true>(op), grain_size);
  iter.cast_outputs();
}

// As cpu_kernel, on the calling thread only.
template <typename func_t>
void cpu_serial_kernel(TensorIteratorBase& iter, const func_t& op) {
  using traits = function_traits<func_t>;
  TORCH_INTERNAL_ASSERT(iter.ninputs() == static_cast<int>(traits::arity));
  TORCH_INTERNAL_ASSERT(!needs_dynamic_casting<func_t>::check(iter));
  iter.serial_for_each(make_basic_loop_closure(op), {0, iter.numel()});
  iter.cast_outputs();
}

}  // namespace at::native
