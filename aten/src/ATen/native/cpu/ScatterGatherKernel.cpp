// aten/src/ATen/native/cpu/ScatterGatherKernel.cpp - the CPU loops of gather, scatter and
// scatter_add. Mirrors PyTorch's aten/src/ATen/native/cpu/ScatterGatherKernel.cpp (which
// loops over the index's dimensions by hand; here TensorIterator walks the index's shape
// and the scattered dimension is a computed offset, as in IndexKernel.cpp).
// Guide: docs/source/internals/tensors.rst.
#include <ATen/Dispatch.h>
#include <ATen/native/TensorAdvancedIndexing.h>
#include <ATen/native/cpu/Loops.h>

#include <ATen/Parallel.h>

#include <type_traits>

namespace at::native {
namespace {

[[noreturn]] C10_NOINLINE void index_out_of_bounds(int64_t idx, int64_t dim, int64_t size) {
  TORCH_CHECK(false, "index ", idx, " is out of bounds for dimension ", dim, " with size ", size);
}

// idx must be in [0, size): gather and scatter do not wrap negative indices. The check is
// one compare in the loop; building the message lives out of line, so that this function
// inlines (called per element, it was a quarter of gather's time as a call).
C10_ALWAYS_INLINE int64_t checked_index(const char* ptr, int64_t dim, int64_t size) {
  const int64_t idx = *reinterpret_cast<const int64_t*>(ptr);
  if (C10_UNLIKELY(idx < 0 || idx >= size)) {
    index_out_of_bounds(idx, dim, size);
  }
  return idx;
}

// out[i][j] = self[i][index[i][j]] (dim 1): operand 1 is self with stride 0 along dim.
void gather_kernel(TensorIterator& iter, int64_t dim, int64_t dim_size, int64_t dim_stride) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "gather", [&] {
    iter.for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
      char *out = data[0], *src = data[1], *index = data[2];
      // Gathering along the innermost dimension: out and index are contiguous and self's
      // row is fixed (stride 0), so the loop indexes typed pointers with no stride products.
      const bool along_row = strides[0] == sizeof(scalar_t) && strides[1] == 0 && strides[2] == sizeof(int64_t);
      for (int64_t j = 0; j < n1; j++) {
        if (along_row) {
          scalar_t* o = reinterpret_cast<scalar_t*>(out);
          const int64_t* ix = reinterpret_cast<const int64_t*>(index);
          for (int64_t i = 0; i < n0; i++) {
            const int64_t idx = checked_index(reinterpret_cast<const char*>(ix + i), dim, dim_size);
            o[i] = *reinterpret_cast<const scalar_t*>(src + idx * dim_stride);
          }
        } else {
          for (int64_t i = 0; i < n0; i++) {
            const int64_t idx = checked_index(index + i * strides[2], dim, dim_size);
            *reinterpret_cast<scalar_t*>(out + i * strides[0]) =
                *reinterpret_cast<scalar_t*>(src + i * strides[1] + idx * dim_stride);
          }
        }
        out += strides[3];
        src += strides[4];
        index += strides[5];
      }
    });
  });
}

template <ReductionType reduce, typename scalar_t>
C10_ALWAYS_INLINE void apply_reduce(scalar_t* dst, scalar_t value) {
  if constexpr (reduce == ReductionType::NONE) {
    *dst = value;
  } else if constexpr (reduce == ReductionType::ADD) {
    *dst = static_cast<scalar_t>(*dst + value);
  } else {
    *dst = static_cast<scalar_t>(*dst * value);
  }
}

// Runs f with the reduction as a compile-time constant: one loop per reduction, no switch
// per element.
template <typename F>
void with_reduction(ReductionType reduce, const F& f) {
  switch (reduce) {
    case ReductionType::NONE: f(std::integral_constant<ReductionType, ReductionType::NONE>{}); break;
    case ReductionType::ADD: f(std::integral_constant<ReductionType, ReductionType::ADD>{}); break;
    case ReductionType::MULTIPLY: f(std::integral_constant<ReductionType, ReductionType::MULTIPLY>{}); break;
  }
}

// [marker: scatter_parallel]
// Two index entries collide only when they differ along `dim` alone: self's coordinates in
// every other dimension are the entry's own. In the iterator, `dim` is where self (operand 0)
// has stride 0, so when the outermost iterated dimension is not one of those, whole slices
// of it go to threads, each slice holding every entry it can collide with (PyTorch's
// scatter parallelizes over all dimensions but `dim` the same way). Otherwise it runs serially.
void for_each_without_collisions(const TensorIterator& iter, const loop2d_t& loop) {
  const int64_t numel = iter.numel();
  const int last = iter.ndim() - 1;
  if (last < 1 || iter.strides(0)[last] == 0 || at::get_num_threads() == 1 || numel < at::internal::GRAIN_SIZE) {
    iter.serial_for_each(loop, {0, numel});
    return;
  }
  const int64_t outer = iter.shape()[last], inner = numel / outer;
  at::parallel_for(0, outer, std::max<int64_t>(1, at::internal::GRAIN_SIZE / inner), [&](int64_t begin, int64_t end) {
    iter.serial_for_each(loop, {begin * inner, end * inner});
  });
}
// [end marker: scatter_parallel]

// self[i][index[i][j]] (op)= src[i][j] (dim 1), in slices that cannot collide.
void scatter_kernel(TensorIterator& iter, int64_t dim, int64_t dim_size, int64_t dim_stride, ReductionType reduce) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "scatter", [&] {
    with_reduction(reduce, [&](auto r) {
      for_each_without_collisions(iter, [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
        char *self = data[0], *src = data[1], *index = data[2];
        // Scattering along the innermost dimension: src and index contiguous, self's row fixed.
        const bool along_row = strides[0] == 0 && strides[1] == sizeof(scalar_t) && strides[2] == sizeof(int64_t);
        for (int64_t j = 0; j < n1; j++) {
          if (along_row) {
            const scalar_t* sv = reinterpret_cast<const scalar_t*>(src);
            const int64_t* ix = reinterpret_cast<const int64_t*>(index);
            for (int64_t i = 0; i < n0; i++) {
              const int64_t idx = checked_index(reinterpret_cast<const char*>(ix + i), dim, dim_size);
              apply_reduce<decltype(r)::value>(reinterpret_cast<scalar_t*>(self + idx * dim_stride), sv[i]);
            }
          } else {
            for (int64_t i = 0; i < n0; i++) {
              const int64_t idx = checked_index(index + i * strides[2], dim, dim_size);
              apply_reduce<decltype(r)::value>(reinterpret_cast<scalar_t*>(self + i * strides[0] + idx * dim_stride),
                                               *reinterpret_cast<scalar_t*>(src + i * strides[1]));
            }
          }
          self += strides[3];
          src += strides[4];
          index += strides[5];
        }
      });
    });
  });
}

void scatter_fill_kernel(TensorIterator& iter, int64_t dim, int64_t dim_size, int64_t dim_stride,
                         const Scalar& value, ReductionType reduce) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "scatter_fill", [&] {
    const auto value_ = value.to<scalar_t>();
    with_reduction(reduce, [&](auto r) {
      for_each_without_collisions(iter, [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
        char *self = data[0], *index = data[1];
        for (int64_t j = 0; j < n1; j++) {
          for (int64_t i = 0; i < n0; i++) {
            const int64_t idx = checked_index(index + i * strides[1], dim, dim_size);
            apply_reduce<decltype(r)::value>(reinterpret_cast<scalar_t*>(self + i * strides[0] + idx * dim_stride),
                                             value_);
          }
          self += strides[2];
          index += strides[3];
        }
      });
    });
  });
}

}  // namespace

REGISTER_DISPATCH(gather_stub, &gather_kernel);
REGISTER_DISPATCH(scatter_stub, &scatter_kernel);
REGISTER_DISPATCH(scatter_fill_stub, &scatter_fill_kernel);

}  // namespace at::native
