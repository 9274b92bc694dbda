// c10/core/impl/SizesAndStrides.h - a tensor's sizes and strides, stored together.
// Mirrors PyTorch's c10/core/impl/SizesAndStrides.h. Guide: docs/source/internals/tensors.rst.
//
// Almost every tensor has at most 5 dimensions, so both arrays live inside the TensorImpl
// (no heap allocation); beyond 5, one heap block holds sizes followed by strides.
#pragma once

#include <c10/util/ArrayRef.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#define C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE 5

namespace c10 {
namespace impl {

class C10_API SizesAndStrides {
 public:
  // A fresh tensor is 1-D of size 0, stride 1 (as PyTorch's default TensorImpl).
  SizesAndStrides() {
    size_at_unchecked(0) = 0;
    stride_at_unchecked(0) = 1;
  }
  ~SizesAndStrides() {
    if (!isInline()) {
      std::free(outOfLineStorage_);
    }
  }
  SizesAndStrides(const SizesAndStrides& rhs) : size_(rhs.size_) {
    if (rhs.isInline()) {
      std::memcpy(inlineStorage_, rhs.inlineStorage_, sizeof(inlineStorage_));
    } else {
      allocateOutOfLineStorage(size_);
      std::memcpy(outOfLineStorage_, rhs.outOfLineStorage_, storageBytes(size_));
    }
  }
  SizesAndStrides& operator=(const SizesAndStrides& rhs) {
    if (this == &rhs) {
      return *this;
    }
    resize(rhs.size_);
    std::memcpy(sizes_data(), rhs.sizes_data(), size_ * sizeof(int64_t));
    std::memcpy(strides_data(), rhs.strides_data(), size_ * sizeof(int64_t));
    return *this;
  }

  size_t size() const noexcept { return size_; }
  bool isInline() const noexcept { return size_ <= C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE; }

  const int64_t* sizes_data() const noexcept {
    return isInline() ? &inlineStorage_[0] : &outOfLineStorage_[0];
  }
  int64_t* sizes_data() noexcept { return isInline() ? &inlineStorage_[0] : &outOfLineStorage_[0]; }
  const int64_t* strides_data() const noexcept {
    return isInline() ? &inlineStorage_[C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE] : &outOfLineStorage_[size_];
  }
  int64_t* strides_data() noexcept {
    return isInline() ? &inlineStorage_[C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE] : &outOfLineStorage_[size_];
  }

  IntArrayRef sizes_arrayref() const noexcept { return IntArrayRef{sizes_data(), size()}; }
  IntArrayRef strides_arrayref() const noexcept { return IntArrayRef{strides_data(), size()}; }

  int64_t& size_at_unchecked(size_t idx) noexcept { return sizes_data()[idx]; }
  int64_t size_at_unchecked(size_t idx) const noexcept { return sizes_data()[idx]; }
  int64_t& stride_at_unchecked(size_t idx) noexcept { return strides_data()[idx]; }
  int64_t stride_at_unchecked(size_t idx) const noexcept { return strides_data()[idx]; }

  void set_sizes(IntArrayRef newSizes) {
    resize(newSizes.size());
    std::copy(newSizes.begin(), newSizes.end(), sizes_data());
  }
  void set_strides(IntArrayRef strides) {
    TORCH_INTERNAL_ASSERT(strides.size() == size());
    std::copy(strides.begin(), strides.end(), strides_data());
  }

  // Change the number of dimensions, keeping the values of the dimensions that remain.
  void resize(size_t newSize) {
    const auto oldSize = size();
    if (newSize == oldSize) {
      return;
    }
    const bool wasInline = isInline();
    const bool willBeInline = newSize <= C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE;
    if (wasInline && willBeInline) {
      // Strides start at a fixed offset inline, so only the unused tail needs clearing.
      if (newSize > oldSize) {
        std::fill(&inlineStorage_[oldSize], &inlineStorage_[newSize], 0);
        std::fill(&inlineStorage_[C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE + oldSize],
                  &inlineStorage_[C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE + newSize], 0);
      }
    } else if (!wasInline && willBeInline) {
      int64_t* old = outOfLineStorage_;
      std::memcpy(&inlineStorage_[0], old, newSize * sizeof(int64_t));
      std::memcpy(&inlineStorage_[C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE], old + oldSize,
                  newSize * sizeof(int64_t));
      std::free(old);
    } else if (wasInline && !willBeInline) {
      int64_t tmp[C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE * 2];
      std::memcpy(tmp, inlineStorage_, sizeof(inlineStorage_));
      allocateOutOfLineStorage(newSize);
      std::fill(outOfLineStorage_, outOfLineStorage_ + 2 * newSize, 0);
      std::memcpy(outOfLineStorage_, tmp, oldSize * sizeof(int64_t));
      std::memcpy(outOfLineStorage_ + newSize, tmp + C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE,
                  oldSize * sizeof(int64_t));
    } else {
      // Out of line both before and after: strides move because they follow the sizes.
      auto* fresh = static_cast<int64_t*>(std::malloc(storageBytes(newSize)));
      TORCH_CHECK(fresh, "Could not allocate memory for Tensor SizesAndStrides!");
      std::fill(fresh, fresh + 2 * newSize, 0);
      const size_t keep = std::min(oldSize, newSize);
      std::memcpy(fresh, outOfLineStorage_, keep * sizeof(int64_t));
      std::memcpy(fresh + newSize, outOfLineStorage_ + oldSize, keep * sizeof(int64_t));
      std::free(outOfLineStorage_);
      outOfLineStorage_ = fresh;
    }
    size_ = newSize;
  }

 private:
  static size_t storageBytes(size_t size) noexcept { return size * 2 * sizeof(int64_t); }
  void allocateOutOfLineStorage(size_t size) {
    outOfLineStorage_ = static_cast<int64_t*>(std::malloc(storageBytes(size)));
    TORCH_CHECK(outOfLineStorage_, "Could not allocate memory for Tensor SizesAndStrides!");
  }

  size_t size_{1};
  union {
    int64_t* outOfLineStorage_;
    int64_t inlineStorage_[C10_SIZES_AND_STRIDES_MAX_INLINE_SIZE * 2]{};
  };
};

}  // namespace impl
}  // namespace c10
