// aten/src/ATen/native/cpu/ScatterGatherKernel.cpp - the CPU loops of gather, scatter and
// scatter_add. Mirrors PyTorch's aten/src/ATen/native/cpu/ScatterGatherKernel.cpp (which
// loops over the index's dimensions by hand; here TensorIterator walks the index's shape
// and the scattered dimension is a computed offset, as in IndexKernel.cpp).
// Guide: docs/source/internals/tensors.rst.
#include <ATen/Dispatch.h>
#include <ATen/native/TensorAdvancedIndexing.h>
#include <ATen/native/cpu/Loops.h>

namespace at::native {
namespace {

// idx must be in [0, size): gather and scatter do not wrap negative indices.
inline int64_t checked_index(const char* ptr, int64_t dim, int64_t size) {
  const int64_t idx = *reinterpret_cast<const int64_t*>(ptr);
  TORCH_CHECK(idx >= 0 && idx < size, "index ", idx, " is out of bounds for dimension ", dim, " with size ", size);
  return idx;
}

// [marker: gather_kernel]
// out[i][j] = self[i][index[i][j]] (dim 1): operand 1 is self with stride 0 along dim.
void gather_kernel(TensorIterator& iter, int64_t dim, int64_t dim_size, int64_t dim_stride) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "gather", [&] {
    iter.for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
      char *out = data[0], *src = data[1], *index = data[2];
      for (int64_t j = 0; j < n1; j++) {
        for (int64_t i = 0; i < n0; i++) {
          const int64_t idx = checked_index(index + i * strides[2], dim, dim_size);
          *reinterpret_cast<scalar_t*>(out + i * strides[0]) =
              *reinterpret_cast<scalar_t*>(src + i * strides[1] + idx * dim_stride);
        }
        out += strides[3];
        src += strides[4];
        index += strides[5];
      }
    });
  });
}
// [end marker: gather_kernel]

template <typename scalar_t>
inline void apply_reduce(scalar_t* dst, scalar_t value, ReductionType reduce) {
  switch (reduce) {
    case ReductionType::NONE: *dst = value; break;
    case ReductionType::ADD: *dst = static_cast<scalar_t>(*dst + value); break;
    case ReductionType::MULTIPLY: *dst = static_cast<scalar_t>(*dst * value); break;
  }
}

// self[i][index[i][j]] (op)= src[i][j] (dim 1). Serial: two entries may name one element.
void scatter_kernel(TensorIterator& iter, int64_t dim, int64_t dim_size, int64_t dim_stride, ReductionType reduce) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "scatter", [&] {
    iter.serial_for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
      char *self = data[0], *src = data[1], *index = data[2];
      for (int64_t j = 0; j < n1; j++) {
        for (int64_t i = 0; i < n0; i++) {
          const int64_t idx = checked_index(index + i * strides[2], dim, dim_size);
          apply_reduce(reinterpret_cast<scalar_t*>(self + i * strides[0] + idx * dim_stride),
                       *reinterpret_cast<scalar_t*>(src + i * strides[1]), reduce);
        }
        self += strides[3];
        src += strides[4];
        index += strides[5];
      }
    }, {0, iter.numel()});
  });
}

void scatter_fill_kernel(TensorIterator& iter, int64_t dim, int64_t dim_size, int64_t dim_stride,
                         const Scalar& value, ReductionType reduce) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "scatter_fill", [&] {
    const auto value_ = value.to<scalar_t>();
    iter.serial_for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
      char *self = data[0], *index = data[1];
      for (int64_t j = 0; j < n1; j++) {
        for (int64_t i = 0; i < n0; i++) {
          const int64_t idx = checked_index(index + i * strides[1], dim, dim_size);
          apply_reduce(reinterpret_cast<scalar_t*>(self + i * strides[0] + idx * dim_stride), value_, reduce);
        }
        self += strides[2];
        index += strides[3];
      }
    }, {0, iter.numel()});
  });
}

}  // namespace

REGISTER_DISPATCH(gather_stub, &gather_kernel);
REGISTER_DISPATCH(scatter_stub, &scatter_kernel);
REGISTER_DISPATCH(scatter_fill_stub, &scatter_fill_kernel);

}  // namespace at::native
