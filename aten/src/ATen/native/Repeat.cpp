// aten/src/ATen/native/Repeat.cpp - repeat_interleave: each element (or slice along dim) repeated
// repeats[i] times. Mirrors PyTorch's aten/src/ATen/native/Repeat.cpp.
// Guide: docs/source/internals/programs/native_ops.rst.
//
// The kernel is repeat_interleave(repeats) alone: it turns counts [2, 0, 1] into the index
// list [0, 0, 2]. x.repeat_interleave(repeats, dim) is then x.index_select(dim, that list),
// so autograd differentiates it through index_select.
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>

#include <vector>

namespace at::native {

Tensor repeat_interleave_cpu(const Tensor& repeats, std::optional<int64_t> output_size) {
  TORCH_CHECK(repeats.dim() == 1, "repeat_interleave only accept 1D vector as repeat");
  TORCH_CHECK_NOT_IMPLEMENTED(repeats.scalar_type() == kLong || repeats.scalar_type() == kInt,
                              "\"repeat_interleave_cpu\" not implemented for '", c10::toString(repeats.scalar_type()),
                              "'");
  auto counts = repeats.to(kLong).contiguous();
  const int64_t* data = counts.const_data_ptr<int64_t>();
  const int64_t n = counts.numel();
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    TORCH_CHECK(data[i] >= 0, "repeats can not be negative");
    total += data[i];
  }
  if (output_size.has_value()) {
    TORCH_CHECK(*output_size == total, "allocated size does not match required size");
  }
  Tensor result = at::empty({total}, kLong, std::nullopt, kCPU, std::nullopt, std::nullopt);
  int64_t* out = result.mutable_data_ptr<int64_t>();
  int64_t pos = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t r = 0; r < data[i]; ++r) {
      out[pos++] = i;
    }
  }
  return result.to(repeats.scalar_type());
}

// The counts are read on the host; the index list goes back to the repeats' device.
Tensor repeat_interleave_cuda(const Tensor& repeats, std::optional<int64_t> output_size) {
  return at::native::repeat_interleave_cpu(repeats.to(Device(kCPU), repeats.scalar_type()), output_size)
      .to(repeats.device(), repeats.scalar_type());
}

Tensor repeat_interleave(const Tensor& self, const Tensor& repeats, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size) {
  Tensor input = self;
  if (!dim.has_value()) {
    input = self.flatten();
    dim = 0;
  }
  Tensor counts = repeats;
  if (repeats.dim() == 0 || (repeats.dim() == 1 && repeats.size(0) == 1)) {
    counts = repeats.reshape({1}).expand({input.size(*dim)});
  } else if (repeats.dim() == 1) {
    TORCH_CHECK(repeats.size(0) == input.size(*dim),
                "repeats must have the same size as input along dim, but got repeats.size(0) = ", repeats.size(0),
                " and input.size(", *dim, ") = ", input.size(*dim));
  } else {
    TORCH_CHECK(false, "repeats must be 0-dim or 1-dim tensor");
  }
  return input.index_select(*dim, at::repeat_interleave(counts, output_size));
}

Tensor repeat_interleave(const Tensor& self, int64_t repeats, std::optional<int64_t> dim,
                         std::optional<int64_t> output_size) {
  Tensor counts = at::full({}, repeats, kLong, std::nullopt, self.device(), std::nullopt);
  return at::native::repeat_interleave(self, counts, dim, output_size);
}

}  // namespace at::native
