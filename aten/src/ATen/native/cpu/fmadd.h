// aten/src/ATen/native/cpu/fmadd.h - a * b + c with one rounding, as PyTorch's CPU kernels give it.
// Mirrors at::vec::fmadd (aten/src/ATen/cpu/vec/). Guide: docs/source/internals/tensor_iterator.rst.
//
// PyTorch compiles its CPU kernels for AVX2/AVX-512 with FMA, so `a + alpha * b` in add,
// addcmul and lerp becomes one fused multiply-add: rounded once, not twice. std::fma gives
// the same bits on any CPU, so results (and optimizer trajectories built on them) match.
// C10_HOST_DEVICE: the CUDA kernels of addcmul and lerp fuse the same way, so that the two
// devices agree to the bit (cuda/PointwiseOpsKernel.cu, cuda/Lerp.cu).
#pragma once

#include <c10/macros/Macros.h>

#include <cmath>
#include <type_traits>

// The CPU kernels are compiled twice (DispatchStub.h, "cpu_capability"): fmadd<float> is an
// fma instruction in the AVX2 build and a call into libm in the portable one, so each build
// keeps its own copy (in PyTorch, at::vec's headers do the same). Code outside cpu/ has no
// CPU_CAPABILITY and gets the portable copy.
#ifndef CPU_CAPABILITY
#define CPU_CAPABILITY DEFAULT
#endif

namespace at::native {
inline namespace CPU_CAPABILITY {

template <typename T>
C10_HOST_DEVICE inline T fmadd(T a, T b, T c) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fma(a, b, c);
  } else {
    return a * b + c;
  }
}

}  // namespace CPU_CAPABILITY
}  // namespace at::native
