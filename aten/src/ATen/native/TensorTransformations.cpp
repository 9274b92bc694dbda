// aten/src/ATen/native/TensorTransformations.cpp - flip and roll: reorder elements, copying.
// Mirrors PyTorch's aten/src/ATen/native/TensorTransformations.cpp; the argument checks shared
// with cuda/TensorTransformations.cu are in TensorTransformations.h. Guide: docs/source/internals/tensors.rst.
//
// Neither is a view: strides cannot be negative in PyTorch, so a flipped order needs new
// memory. flip walks the input backwards in the flipped dimensions; roll is two narrows of
// the input joined by cat, one dimension at a time.
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/native/TensorTransformations.h>

#include <cstring>
#include <vector>

namespace at::native {

namespace {

// out[i_0, ..., i_n] = self[j_0, ..., j_n] with j_d = size_d - 1 - i_d in flipped dims.
// Every element is moved as itemsize raw bytes, so one loop serves every dtype (PyTorch
// builds a TensorIterator over a restrided input and computes the flipped offsets in the
// kernel). The input is read as if its flipped dimensions had negative strides, starting
// from their last element.
void flip_kernel(const Tensor& result, const Tensor& self, const std::vector<bool>& flip) {
  const int64_t ndim = self.dim();
  const int64_t itemsize = static_cast<int64_t>(self.itemsize());
  std::vector<int64_t> in_strides(ndim);
  int64_t in_offset = 0;  // in elements, from self's first element
  for (int64_t d = 0; d < ndim; d++) {
    in_strides[d] = flip[d] ? -self.stride(d) : self.stride(d);
    if (flip[d] && self.size(d) > 0) in_offset += (self.size(d) - 1) * self.stride(d);
  }
  const auto* in = static_cast<const char*>(self.const_data_ptr()) + in_offset * itemsize;
  auto* out = static_cast<char*>(result.data_ptr());
  const int64_t numel = self.numel();
  std::vector<int64_t> index(ndim, 0);
  int64_t in_pos = 0, out_pos = 0;  // element offsets of the current index
  for (int64_t n = 0; n < numel; n++) {
    std::memcpy(out + out_pos * itemsize, in + in_pos * itemsize, itemsize);
    // Advance the multi-index like an odometer, last dimension fastest.
    for (int64_t d = ndim - 1; d >= 0; d--) {
      if (++index[d] < self.size(d)) {
        in_pos += in_strides[d];
        out_pos += result.stride(d);
        break;
      }
      in_pos -= (index[d] - 1) * in_strides[d];
      out_pos -= (index[d] - 1) * result.stride(d);
      index[d] = 0;
    }
  }
}

}  // namespace

Tensor flip(const Tensor& self, IntArrayRef dims) {
  const auto flip_dims = dim_list_to_bitset(dims, self.dim());
  // Same layout as self where self is dense (memory_format=preserve), as in PyTorch.
  Tensor result = at::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Preserve);
  if (self.is_meta() || self.numel() == 0) {
    return result;
  }
  flip_kernel(result, self, flip_dims);
  return result;
}

Tensor fliplr(const Tensor& self) {
  TORCH_CHECK(self.dim() >= 2, "Input must be >= 2-d.");
  return self.flip({1});
}

Tensor flipud(const Tensor& self) {
  TORCH_CHECK(self.dim() >= 1, "Input must be >= 1-d.");
  return self.flip({0});
}

// Rolling by s along a dimension of size n: the last s elements come first. That is
// cat(self[n - s:], self[:n - s]) along the dimension, with s taken modulo n (roll_dim).
// Several dims, or none, become rolls of one dim in roll_common (TensorTransformations.h).
Tensor roll(const Tensor& self, IntArrayRef shifts, IntArrayRef dims) {
  if (dims.size() != 1 || shifts.size() != 1) {
    return roll_common(self, shifts, dims);
  }
  if (self.numel() == 0) {
    return self.clone(MemoryFormat::Preserve);
  }
  const RollDim r = roll_dim(self, shifts[0], dims[0]);
  auto t0 = self.narrow(r.dim, r.start, r.size - r.start);
  auto t1 = self.narrow(r.dim, 0, r.start);
  return at::cat({t0, t1}, r.dim);
}

}  // namespace at::native

namespace at::native {

// rot90(x, k, dims): k quarter turns from dims[0] towards dims[1], as flips and a transpose.
Tensor rot90(const Tensor& self, int64_t k, IntArrayRef dims) {
  const int64_t total_dims = self.dim(), total_rot_dims = dims.size();
  TORCH_CHECK(total_rot_dims == 2, "expected total rotation dims == 2, but got dims = ", total_rot_dims);
  TORCH_CHECK(total_dims >= 2, "expected total dims >= 2, but got total dims = ", total_dims);
  // out-of-range dims: IndexError "Dimension out of range ..."
  const int64_t d0 = c10::maybe_wrap_dim(dims[0], total_dims), d1 = c10::maybe_wrap_dim(dims[1], total_dims);
  TORCH_CHECK(d0 != d1, "expected rotation dims to be different, but got dim0 = ", dims[0], " and dim1 = ", dims[1]);
  k = (4 + (k % 4)) % 4;  // k mod 4, also for negative k
  switch (k) {
    case 1:
      return self.flip({d1}).transpose_(d0, d1);
    case 2:
      return self.flip({d0, d1});
    case 3:
      return self.flip({d0}).transpose_(d0, d1);
    default:
      return self.clone(at::MemoryFormat::Contiguous);
  }
}

}  // namespace at::native
