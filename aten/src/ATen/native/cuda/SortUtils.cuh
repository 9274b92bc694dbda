// aten/src/ATen/native/cuda/SortUtils.cuh - ordered keys: every dtype that sort, topk, kthvalue
// and unique take on CUDA, mapped to an unsigned integer whose order as an integer is the
// order of the values. Mirrors the TopKTypeConfig<T>::convert of PyTorch's
// aten/src/ATen/native/cuda/SortingRadixSelect.cuh, which its radix sort and radix select use
// too. Guide: docs/source/internals/cuda_training.rst.
//
// One integer compare then orders floats, signed integers, bool and NaN alike, and a radix
// select can look at the key a few bits at a time. The mapping:
//   * unsigned (bool, uint8): the value itself;
//   * signed integers: the sign bit flipped, so -128..127 becomes 0..255;
//   * floats (Half and BFloat16 widened to float, which holds them exactly): a positive float's
//     bits already grow with its value, so set the sign bit to put them above the negatives;
//     a negative float's bits grow as it falls, so flip them all. -0.0 first becomes +0.0 and
//     every NaN becomes the all-ones key, so -0.0 == 0.0, NaN is above +inf and all NaNs are
//     equal: exactly the CPU's comparison (NaN largest), ties broken by index there and here.
#pragma once

#include <c10/macros/Macros.h>
#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <cstdint>
#include <type_traits>

namespace at::native {

// The unsigned type of the key: as wide as the value (Half and BFloat16 go through float).
template <typename scalar_t>
using sort_key_t = std::conditional_t<
    sizeof(scalar_t) == 8, uint64_t,
    std::conditional_t<sizeof(scalar_t) == 4 || std::is_same_v<scalar_t, c10::Half> ||
                           std::is_same_v<scalar_t, c10::BFloat16>,
                       uint32_t, std::conditional_t<sizeof(scalar_t) == 2, uint16_t, uint8_t>>>;

// The largest key: padding that must sort after every real element (and, as a key, NaN).
template <typename key_t>
__host__ __device__ __forceinline__ constexpr key_t max_sort_key() {
  return static_cast<key_t>(~key_t(0));
}

// [marker: to_sort_key]
template <typename scalar_t>
__device__ __forceinline__ sort_key_t<scalar_t> to_sort_key(scalar_t x) {
  using key_t = sort_key_t<scalar_t>;
  if constexpr (std::is_same_v<scalar_t, bool>) {
    return x ? 1 : 0;
  } else if constexpr (std::is_integral_v<scalar_t> && std::is_unsigned_v<scalar_t>) {
    return x;
  } else if constexpr (std::is_integral_v<scalar_t>) {
    constexpr key_t sign = key_t(1) << (8 * sizeof(key_t) - 1);
    return static_cast<key_t>(static_cast<key_t>(x) ^ sign);
  } else if constexpr (std::is_same_v<scalar_t, double>) {
    if (x != x) {
      return max_sort_key<key_t>();
    }
    const uint64_t u = static_cast<uint64_t>(__double_as_longlong(x == 0.0 ? 0.0 : x));
    return (u >> 63) ? ~u : (u | (uint64_t(1) << 63));
  } else {
    const float f = static_cast<float>(x);
    if (f != f) {
      return max_sort_key<key_t>();
    }
    const uint32_t u = __float_as_uint(f == 0.0f ? 0.0f : f);
    return (u >> 31) ? ~u : (u | 0x80000000u);
  }
}
// [end marker: to_sort_key]

// The key for sorting in either direction: a descending sort is an ascending sort of the
// complemented keys, so NaN (the largest key) comes first, as on the CPU.
template <typename scalar_t>
__device__ __forceinline__ sort_key_t<scalar_t> to_sort_key(scalar_t x, bool descending) {
  using key_t = sort_key_t<scalar_t>;
  const key_t key = to_sort_key(x);
  return descending ? static_cast<key_t>(~key) : key;
}

// (key, index) pairs in a strict total order: the index breaks ties, so any correct sort of
// the pairs, stable or not (a bitonic network is not), gives the stable order of the values.
template <typename key_t, typename index_t>
__device__ __forceinline__ bool pair_greater(key_t key_a, index_t index_a, key_t key_b, index_t index_b) {
  return key_a > key_b || (key_a == key_b && index_a > index_b);
}

// Two values the same for unique: == after widening (NaN differs from everything, -0.0 equals
// 0.0), as the CPU compares them.
template <typename scalar_t>
__device__ __forceinline__ bool same_value(scalar_t a, scalar_t b) {
  if constexpr (std::is_same_v<scalar_t, c10::Half> || std::is_same_v<scalar_t, c10::BFloat16>) {
    return static_cast<float>(a) == static_cast<float>(b);
  } else {
    return a == b;
  }
}

}  // namespace at::native
