// aten/src/ATen/cuda/Atomic.cuh - gpuAtomicAdd and gpuAtomicMul for every dtype a scatter or an
// index_put_(accumulate=True) may meet. CUDA's atomicAdd covers int, unsigned long long, float and
// double; everything else is a compare-and-swap loop on the 32- or 64-bit word that holds the
// value (a one- or two-byte value is updated inside its aligned 32-bit word), and a complex
// number is two atomic adds, one per part. Mirrors PyTorch's aten/src/ATen/cuda/Atomic.cuh.
// Guide: docs/source/internals/cuda_training.rst.
#pragma once

#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>
#include <c10/util/complex.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace at::cuda::detail {

// [marker: atomic_cas_update]
// *address = f(*address) as one indivisible update: read the word, compute, and write it back
// only if nobody changed it meanwhile (atomicCAS returns what it found); otherwise try again.
template <typename T, typename F>
__device__ __forceinline__ T atomic_cas_update(T* address, F f) {
  if constexpr (sizeof(T) == 8) {
    auto* word = reinterpret_cast<unsigned long long*>(address);
    unsigned long long old = *word, assumed;
    T value;
    do {
      assumed = old;
      std::memcpy(&value, &assumed, sizeof(T));
      const T updated = f(value);
      unsigned long long bits;
      std::memcpy(&bits, &updated, sizeof(T));
      old = atomicCAS(word, assumed, bits);
    } while (assumed != old);
    return value;
  } else if constexpr (sizeof(T) == 4) {
    auto* word = reinterpret_cast<unsigned int*>(address);
    unsigned int old = *word, assumed;
    T value;
    do {
      assumed = old;
      std::memcpy(&value, &assumed, sizeof(T));
      const T updated = f(value);
      unsigned int bits;
      std::memcpy(&bits, &updated, sizeof(T));
      old = atomicCAS(word, assumed, bits);
    } while (assumed != old);
    return value;
  } else {
    // One or two bytes: update them inside the aligned 32-bit word, leaving its other bytes be.
    static_assert(sizeof(T) == 1 || sizeof(T) == 2, "atomic_cas_update: unsupported size");
    const auto addr = reinterpret_cast<uintptr_t>(address);
    auto* word = reinterpret_cast<unsigned int*>(addr & ~uintptr_t(3));
    const unsigned shift = static_cast<unsigned>(addr & 3) * 8;
    const unsigned int mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
    unsigned int old = *word, assumed;
    T value;
    do {
      assumed = old;
      const auto part = static_cast<std::conditional_t<sizeof(T) == 1, uint8_t, uint16_t>>((assumed & mask) >> shift);
      std::memcpy(&value, &part, sizeof(T));
      const T updated = f(value);
      std::conditional_t<sizeof(T) == 1, uint8_t, uint16_t> updated_bits;
      std::memcpy(&updated_bits, &updated, sizeof(T));
      const unsigned int replaced = (assumed & ~mask) | (static_cast<unsigned int>(updated_bits) << shift);
      old = atomicCAS(word, assumed, replaced);
    } while (assumed != old);
    return value;
  }
}
// [end marker: atomic_cas_update]

template <typename T>
__device__ __forceinline__ void gpuAtomicAdd(T* address, T value) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int>) {
    atomicAdd(address, value);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    // Two's complement: adding the same bits as unsigned is adding the signed values.
    atomicAdd(reinterpret_cast<unsigned long long*>(address), static_cast<unsigned long long>(value));
  } else if constexpr (c10::is_complex<T>::value) {
    using real_t = typename T::value_type;
    gpuAtomicAdd(reinterpret_cast<real_t*>(address), value.real());
    gpuAtomicAdd(reinterpret_cast<real_t*>(address) + 1, value.imag());
  } else if constexpr (std::is_same_v<T, bool>) {
    atomic_cas_update(address, [value](bool v) { return v || value; });
  } else {
    atomic_cas_update(address, [value](T v) { return static_cast<T>(v + value); });
  }
}

template <typename T>
__device__ __forceinline__ void gpuAtomicMul(T* address, T value) {
  static_assert(!c10::is_complex<T>::value, "gpuAtomicMul: a complex product is not one atomic update");
  if constexpr (std::is_same_v<T, bool>) {
    atomic_cas_update(address, [value](bool v) { return v && value; });
  } else {
    atomic_cas_update(address, [value](T v) { return static_cast<T>(v * value); });
  }
}

}  // namespace at::cuda::detail
