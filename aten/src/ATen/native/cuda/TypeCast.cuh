// aten/src/ATen/native/cuda/TypeCast.cuh - fetch_and_cast / cast_and_store: read or write one
// element of a dtype known only at run time, converting to or from a C++ type; what CUDA
// kernels do instead of TensorIterator's copies to a common dtype. Mirrors PyTorch's
// c10/util/TypeCast.h. Guide: docs/source/internals/cuda_simulated_device.rst.
#pragma once

#include <ATen/native/cpu/TypeCast.h>
#include <c10/core/ScalarType.h>

namespace c10 {

// [marker: fetch_and_cast]
template <typename dest_t>
__host__ __device__ inline dest_t fetch_and_cast(const ScalarType src_type, const void* ptr) {
  switch (src_type) {
#define FETCH_AND_CAST_CASE(type, scalartype) \
  case ScalarType::scalartype:                \
    return c10::convert<dest_t>(*static_cast<const type*>(ptr));
    AT_FORALL_SCALAR_TYPES_WITH_COMPLEX(FETCH_AND_CAST_CASE)
#undef FETCH_AND_CAST_CASE
    default:
      CUDA_KERNEL_ASSERT(false && "fetch_and_cast: unexpected dtype");
      return dest_t(0);
  }
}

template <typename src_t>
__host__ __device__ inline void cast_and_store(const ScalarType dest_type, void* ptr, src_t value) {
  switch (dest_type) {
#define CAST_AND_STORE_CASE(type, scalartype)                  \
  case ScalarType::scalartype:                                 \
    *static_cast<type*>(ptr) = c10::convert<type>(value);      \
    return;
    AT_FORALL_SCALAR_TYPES_WITH_COMPLEX(CAST_AND_STORE_CASE)
#undef CAST_AND_STORE_CASE
    default:
      CUDA_KERNEL_ASSERT(false && "cast_and_store: unexpected dtype");
  }
}
// [end marker: fetch_and_cast]

}  // namespace c10
