// aten/src/ATen/native/Fill.cpp - fill_ and zero_: write one value to every element.
// Mirrors PyTorch's aten/src/ATen/native/Fill.cpp. Guide: docs/source/internals/one_call.rst.
#include <ATen/Dispatch.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>

#include <algorithm>
#include <vector>

namespace at::native {
namespace {

// Visit every element of a strided tensor: a contiguous tensor is one flat loop, anything
// else walks an index counter over the dimensions (innermost fastest).
template <typename scalar_t>
void fill_strided(const Tensor& self, scalar_t value) {
  scalar_t* data = self.data_ptr<scalar_t>();
  const int64_t numel = self.numel();
  if (self.is_contiguous()) {
    std::fill(data, data + numel, value);
    return;
  }
  const auto sizes = self.sizes();
  const auto strides = self.strides();
  const int64_t ndim = self.dim();
  std::vector<int64_t> counter(static_cast<size_t>(ndim), 0);
  int64_t offset = 0;
  for (int64_t i = 0; i < numel; ++i) {
    data[offset] = value;
    for (int64_t d = ndim - 1; d >= 0; --d) {
      if (++counter[d] < sizes[d]) {
        offset += strides[d];
        break;
      }
      offset -= strides[d] * (sizes[d] - 1);
      counter[d] = 0;
    }
  }
}

}  // namespace

// [marker: fill_]
Tensor& fill_(Tensor& self, const Scalar& value) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND4(kBool, kHalf, kBFloat16, kComplexHalf, self.scalar_type(), "fill_cpu", [&] {
    if constexpr (std::is_same_v<scalar_t, c10::Half> || std::is_same_v<scalar_t, c10::BFloat16>) {
      // PyTorch's one-element fast path (scalar_fill) converts through float without the
      // range check its vectorized fill makes: one element of 1e308 becomes inf, two raise.
      if (self.numel() == 1) {
        fill_strided<scalar_t>(self, scalar_t(static_cast<float>(value.toDouble())));
        return;
      }
    }
    fill_strided<scalar_t>(self, value.to<scalar_t>());
  });
  return self;
}
// [end marker: fill_]

Tensor& fill_(Tensor& self, const Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ", value.dim(),
              " dimensions.");
  // Unlike fill_.Scalar, the tensor overload goes through PyTorch's overlap check.
  at::assert_no_internal_overlap(self);
  if (self.is_meta()) {
    return self;
  }
  // The Scalar overload, through the dispatcher: the kernel of self's device (CPU or CUDA).
  return at::fill_(self, value.item());
}

Tensor& fill_meta_(Tensor& self, const Scalar& value) {
  return self;  // no data to write
}

Tensor& zero_(Tensor& self) {
  return self.fill_(0);
}

}  // namespace at::native
