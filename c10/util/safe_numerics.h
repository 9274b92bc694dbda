// c10/util/safe_numerics.h - overflow-checked arithmetic for sizes and byte counts.
// Mirrors PyTorch's c10/util/safe_numerics.h. Guide: docs/source/internals/hardening.rst.
//
// A tensor's element count and its storage's byte count are products of numbers a user
// chooses (torch.empty(2**62), resize_((2**31, 2**31, 4))). Computed unchecked they wrap
// around to a small number, the storage is allocated that small, and the first write lands
// past its end. Every such product goes through these helpers and fails with an error.
#pragma once

#include <c10/util/ArrayRef.h>

#include <cstdint>

namespace c10 {

// True if a + b does not fit in T; *out holds the wrapped result either way.
template <typename T>
inline bool add_overflows(T a, T b, T* out) {
  return __builtin_add_overflow(a, b, out);
}

// True if a * b does not fit in T; *out holds the wrapped result either way.
template <typename T>
inline bool mul_overflows(T a, T b, T* out) {
  return __builtin_mul_overflow(a, b, out);
}

// The product of a list of sizes, or true (overflowed) if it does not fit in uint64_t.
inline bool safe_multiplies_u64(ArrayRef<int64_t> sizes, uint64_t* out) {
  uint64_t prod = 1;
  bool overflowed = false;
  for (const auto s : sizes) {
    overflowed |= mul_overflows(prod, static_cast<uint64_t>(s), &prod);
  }
  *out = prod;
  return overflowed;
}

}  // namespace c10
