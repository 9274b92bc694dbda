// aten/src/ATen/core/TensorAccessor.h - typed, dimension-checked views of a tensor's data for
// kernels: t.accessor<float, 2>()[i][j] on the CPU, t.packed_accessor32<float, 3>() passed by
// value into a CUDA kernel. Mirrors PyTorch's aten/src/ATen/core/TensorAccessor.h.
// Guide: docs/source/internals/cpp_extensions.rst.
//
// An accessor is a pointer plus sizes and strides. Indexing with [] peels one dimension off
// and returns an accessor of one dimension less; at the last dimension it returns a
// reference to the element. A TensorAccessor borrows the tensor's size and stride arrays (it
// must not outlive the tensor); a PackedTensorAccessor copies them into itself, so it can be
// passed by value to a kernel on another device. The 32-bit form indexes with int32_t,
// which GPUs compute faster, and is only for tensors of fewer than 2^31 elements.
#pragma once

#include <c10/macros/Macros.h>

#include <cstddef>
#include <cstdint>

namespace at {

// How the accessor holds its pointer: plainly, or __restrict__ (promising the compiler that
// no other pointer in the kernel aliases it, so loads can be reordered and cached).
template <typename T>
struct DefaultPtrTraits {
  typedef T* PtrType;
};

#if defined(__CUDACC__) || defined(__HIPCC__)
template <typename T>
struct RestrictPtrTraits {
  typedef T* __restrict__ PtrType;
};
#else
template <typename T>
struct RestrictPtrTraits {
  typedef T* PtrType;
};
#endif

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class TensorAccessorBase {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  C10_HOST_DEVICE TensorAccessorBase(PtrType data, const index_t* sizes, const index_t* strides)
      : data_(data), sizes_(sizes), strides_(strides) {}
  C10_HOST_DEVICE index_t stride(index_t i) const { return strides_[i]; }
  C10_HOST_DEVICE index_t size(index_t i) const { return sizes_[i]; }
  C10_HOST_DEVICE PtrType data() { return data_; }
  C10_HOST_DEVICE const PtrType data() const { return data_; }

 protected:
  PtrType data_;
  const index_t* sizes_;
  const index_t* strides_;
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class TensorAccessor : public TensorAccessorBase<T, N, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  C10_HOST_DEVICE TensorAccessor(PtrType data, const index_t* sizes, const index_t* strides)
      : TensorAccessorBase<T, N, PtrTraits, index_t>(data, sizes, strides) {}

  C10_HOST_DEVICE TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i, this->sizes_ + 1,
                                                        this->strides_ + 1);
  }
  C10_HOST_DEVICE const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i, this->sizes_ + 1,
                                                        this->strides_ + 1);
  }
};

// The last dimension: [] is the element itself.
template <typename T, template <typename U> class PtrTraits, typename index_t>
class TensorAccessor<T, 1, PtrTraits, index_t> : public TensorAccessorBase<T, 1, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  C10_HOST_DEVICE TensorAccessor(PtrType data, const index_t* sizes, const index_t* strides)
      : TensorAccessorBase<T, 1, PtrTraits, index_t>(data, sizes, strides) {}
  C10_HOST_DEVICE T& operator[](index_t i) { return this->data_[this->strides_[0] * i]; }
  C10_HOST_DEVICE const T& operator[](index_t i) const { return this->data_[this->strides_[0] * i]; }
};

// The packed form owns copies of its sizes and strides (N of each), so a kernel gets them
// in its argument buffer rather than through a host pointer it cannot read.
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class GenericPackedTensorAccessorBase {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  C10_HOST GenericPackedTensorAccessorBase(PtrType data, const int64_t* sizes, const int64_t* strides)
      : data_(data) {
    for (size_t i = 0; i < N; ++i) {
      sizes_[i] = static_cast<index_t>(sizes[i]);
      strides_[i] = static_cast<index_t>(strides[i]);
    }
  }
  C10_HOST_DEVICE index_t stride(index_t i) const { return strides_[i]; }
  C10_HOST_DEVICE index_t size(index_t i) const { return sizes_[i]; }
  C10_HOST_DEVICE PtrType data() { return data_; }
  C10_HOST_DEVICE const PtrType data() const { return data_; }

 protected:
  PtrType data_;
  index_t sizes_[N];
  index_t strides_[N];
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class GenericPackedTensorAccessor : public GenericPackedTensorAccessorBase<T, N, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  C10_HOST GenericPackedTensorAccessor(PtrType data, const int64_t* sizes, const int64_t* strides)
      : GenericPackedTensorAccessorBase<T, N, PtrTraits, index_t>(data, sizes, strides) {}

  // Indexing hands out a TensorAccessor over this object's own size and stride arrays.
  C10_DEVICE TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) {
    index_t* new_sizes = this->sizes_ + 1;
    index_t* new_strides = this->strides_ + 1;
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i, new_sizes, new_strides);
  }
  C10_DEVICE const TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const {
    const index_t* new_sizes = this->sizes_ + 1;
    const index_t* new_strides = this->strides_ + 1;
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i, new_sizes, new_strides);
  }
};

template <typename T, template <typename U> class PtrTraits, typename index_t>
class GenericPackedTensorAccessor<T, 1, PtrTraits, index_t>
    : public GenericPackedTensorAccessorBase<T, 1, PtrTraits, index_t> {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  C10_HOST GenericPackedTensorAccessor(PtrType data, const int64_t* sizes, const int64_t* strides)
      : GenericPackedTensorAccessorBase<T, 1, PtrTraits, index_t>(data, sizes, strides) {}
  C10_DEVICE T& operator[](index_t i) { return this->data_[this->strides_[0] * i]; }
  C10_DEVICE const T& operator[](index_t i) const { return this->data_[this->strides_[0] * i]; }
};

template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;

}  // namespace at
