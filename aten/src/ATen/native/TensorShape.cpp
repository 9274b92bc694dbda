// aten/src/ATen/native/TensorShape.cpp - views: new sizes, strides and offset over the same storage.
// Mirrors PyTorch's aten/src/ATen/native/TensorShape.cpp. Guide: docs/source/internals/tensors.rst.
//
// Seed 000, "Understand Parameters": a view copies no data. It is a new TensorImpl that
// shares the base's StorageImpl (one more reference) and its version counter, and reads it
// with other sizes, strides and storage_offset. transpose swaps two strides; select drops a
// dimension and moves the offset; expand gives a broadcast dimension stride 0.
#include <ATen/EmptyTensor.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <c10/core/WrapDimMinimal.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

namespace at::native {
namespace {

int64_t prod(IntArrayRef sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), int64_t{1}, std::multiplies<int64_t>());
}

}  // namespace

// [marker: alias_with_sizes_and_strides]
// The one way every view is made: same storage, same version counter, same dtype and keys.
Tensor alias_with_sizes_and_strides(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                                    std::optional<int64_t> storage_offset) {
  auto impl = c10::make_intrusive<TensorImpl>(c10::Storage(self.storage()), self.key_set(), self.dtype());
  impl->set_sizes_and_strides(sizes, strides, storage_offset.value_or(self.storage_offset()));
  // In-place writes through the view must be seen by autograd as writes to the base.
  impl->set_version_counter(self.unsafeGetTensorImpl()->version_counter());
  return Tensor(std::move(impl));
}
// [end marker: alias_with_sizes_and_strides]

// [marker: as_strided]
// The most general view: any sizes and strides over the same bytes (transposes, expands,
// diagonals are all special cases). The view shares its base's version counter, so an
// in-place write through either is seen by autograd's checks on both.
Tensor as_strided_tensorimpl(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                             std::optional<int64_t> storage_offset) {
  const int64_t offset = storage_offset.value_or(self.storage_offset());
  TORCH_CHECK(size.size() == stride.size(), "mismatch in length of strides and shape");
  for (size_t i = 0; i < size.size(); i++) {
    TORCH_CHECK(size[i] >= 0, "as_strided: Negative sizes are not allowed, got ", size[i]);
    TORCH_CHECK(stride[i] >= 0, "as_strided: Negative strides are not supported at the moment, got strides: ", stride);
  }
  TORCH_CHECK(offset >= 0, "Tensor: invalid storage offset ", offset);
  const size_t needed = at::detail::computeStorageNbytes(size, stride, self.itemsize());
  TORCH_CHECK(needed == 0 || needed + static_cast<size_t>(offset) * self.itemsize() <= self.storage().nbytes(),
              "setStorage: sizes ", size, ", strides ", stride, ", storage offset ", offset,
              ", and itemsize ", self.itemsize(), " requiring a storage size of ",
              needed + static_cast<size_t>(offset) * self.itemsize(), " are out of bounds for storage of size ",
              self.storage().nbytes());
  c10::Storage storage = self.storage();
  auto impl = c10::make_intrusive<TensorImpl>(std::move(storage), self.key_set(), self.dtype());
  impl->set_sizes_and_strides(size, stride, offset);
  impl->set_version_counter(self.unsafeGetTensorImpl()->version_counter());
  return Tensor(std::move(impl));
}
// [end marker: as_strided]

Tensor alias(const Tensor& self) {
  return alias_with_sizes_and_strides(self, self.sizes(), self.strides(), self.storage_offset());
}

// [marker: infer_size]
// Replace one -1 by what the number of elements leaves for it.
std::vector<int64_t> infer_size(IntArrayRef shape, int64_t numel) {
  std::vector<int64_t> res = shape.vec();
  int64_t newsize = 1;
  std::optional<int64_t> infer_dim;
  for (int64_t dim = 0; dim < static_cast<int64_t>(shape.size()); dim++) {
    if (shape[dim] == -1) {
      TORCH_CHECK(!infer_dim.has_value(), "only one dimension can be inferred");
      infer_dim = dim;
    } else {
      TORCH_CHECK(shape[dim] >= 0, "invalid shape dimension ", shape[dim]);
      newsize *= shape[dim];
    }
  }
  if (numel == newsize || (infer_dim && newsize > 0 && numel % newsize == 0)) {
    if (infer_dim) {
      // -1 with other dimensions of product 0 is ambiguous.
      TORCH_CHECK(newsize != 0, "cannot reshape tensor of 0 elements into shape ", shape,
                  " because the unspecified dimension size -1 can be any value and is ambiguous");
      res[*infer_dim] = numel / newsize;
    }
    return res;
  }
  TORCH_CHECK(false, "shape '", shape, "' is invalid for input of size ", numel);
}
// [end marker: infer_size]

// [marker: computeStride]
// Strides for viewing (oldshape, oldstride) as newshape without copying, or nullopt if
// impossible. The old dimensions are grouped into chunks that are contiguous among
// themselves (stride[d] == size[d+1] * stride[d+1]); each new dimension must fall inside
// one chunk, whose elements it then walks with the chunk's innermost stride.
std::optional<std::vector<int64_t>> computeStride(IntArrayRef oldshape, IntArrayRef oldstride,
                                                  IntArrayRef newshape) {
  if (oldshape.empty()) {
    return std::vector<int64_t>(newshape.size(), 1);
  }
  const int64_t numel = prod(oldshape);
  if (numel == 0 && oldshape.equals(newshape)) {
    return oldstride.vec();
  }
  std::vector<int64_t> newstride(newshape.size());
  if (numel == 0) {
    // Any strides work for an empty tensor: use contiguous ones, as resize would.
    for (int64_t view_d = static_cast<int64_t>(newshape.size()) - 1; view_d >= 0; view_d--) {
      newstride[view_d] = view_d == static_cast<int64_t>(newshape.size()) - 1
                              ? 1
                              : std::max<int64_t>(newshape[view_d + 1], 1) * newstride[view_d + 1];
    }
    return newstride;
  }
  int64_t view_d = static_cast<int64_t>(newshape.size()) - 1;
  int64_t chunk_base_stride = oldstride.back();  // the innermost stride of the current chunk
  int64_t tensor_numel = 1;                      // elements of the chunk seen so far
  int64_t view_numel = 1;                        // elements of the new dims placed in it
  for (int64_t tensor_d = static_cast<int64_t>(oldshape.size()) - 1; tensor_d >= 0; tensor_d--) {
    tensor_numel *= oldshape[tensor_d];
    const bool chunk_ends = tensor_d == 0 || (oldshape[tensor_d - 1] != 1 &&
                                              oldstride[tensor_d - 1] != tensor_numel * chunk_base_stride);
    if (chunk_ends) {
      while (view_d >= 0 && (view_numel < tensor_numel || newshape[view_d] == 1)) {
        newstride[view_d] = view_numel * chunk_base_stride;
        view_numel *= newshape[view_d];
        view_d--;
      }
      if (view_numel != tensor_numel) {
        return std::nullopt;  // a new dimension would straddle two chunks
      }
      if (tensor_d > 0) {
        chunk_base_stride = oldstride[tensor_d - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) {
    return std::nullopt;
  }
  return newstride;
}
// [end marker: computeStride]

Tensor view(const Tensor& self, IntArrayRef size) {
  const auto inferred = infer_size(size, self.numel());
  auto stride = computeStride(self.sizes(), self.strides(), inferred);
  TORCH_CHECK(stride.has_value(),
              "view size is not compatible with input tensor's size and stride (at least one dimension spans "
              "across two contiguous subspaces). Use .reshape(...) instead.");
  return alias_with_sizes_and_strides(self, inferred, *stride, self.storage_offset());
}

// [marker: transpose]
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  const int64_t ndims = self.dim();
  dim0 = c10::maybe_wrap_dim(dim0, ndims);
  dim1 = c10::maybe_wrap_dim(dim1, ndims);
  if (dim0 == dim1 || ndims == 0) {
    return at::native::alias(self);
  }
  std::vector<int64_t> sizes = self.sizes().vec();
  std::vector<int64_t> strides = self.strides().vec();
  std::swap(sizes[dim0], sizes[dim1]);
  std::swap(strides[dim0], strides[dim1]);
  return alias_with_sizes_and_strides(self, sizes, strides, self.storage_offset());
}
// [end marker: transpose]

Tensor t(const Tensor& self) {
  TORCH_CHECK(self.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", self.dim(), "D");
  return self.dim() < 2 ? at::native::alias(self) : at::native::transpose(self, 0, 1);
}

Tensor permute(const Tensor& self, IntArrayRef dims) {
  const int64_t nDims = self.dim();
  TORCH_CHECK(static_cast<int64_t>(dims.size()) == nDims,
              "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
              "desired ordering of dimensions i.e. input.dim() = ",
              nDims, " is not equal to len(dims) = ", dims.size());
  std::vector<int64_t> sizes(nDims), strides(nDims);
  std::vector<bool> seen(nDims, false);
  for (int64_t i = 0; i < nDims; i++) {
    const int64_t dim = c10::maybe_wrap_dim(dims[i], nDims);
    TORCH_CHECK(!seen[dim], "permute(): duplicate dims are not allowed.");
    seen[dim] = true;
    sizes[i] = self.size(dim);
    strides[i] = self.stride(dim);
  }
  return alias_with_sizes_and_strides(self, sizes, strides, self.storage_offset());
}

// [marker: expand]
// A dimension of size 1 (or a new leading one) becomes size n with stride 0: all n indices
// read the same element. Nothing is copied, which is why an expanded tensor must not be
// written to in place.
Tensor expand(const Tensor& self, IntArrayRef size, bool implicit) {
  TORCH_CHECK(static_cast<int64_t>(size.size()) >= self.dim(), "expand(", self.toString(), "{", self.sizes(),
              "}, size=", size,
              "): the number of sizes provided (", size.size(), ") ",
              "must be greater or equal to the number of dimensions in the tensor (", self.dim(), ")");
  const int64_t ndim = static_cast<int64_t>(size.size());
  const int64_t tensor_dim = self.dim();
  std::vector<int64_t> expandedSizes(ndim), expandedStrides(ndim);
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t offset = ndim - 1 - i;
    const int64_t dim = tensor_dim - 1 - offset;
    const int64_t cur_size = dim >= 0 ? self.size(dim) : 1;
    const int64_t cur_stride = dim >= 0 ? self.stride(dim) : expandedSizes[i + 1] * expandedStrides[i + 1];
    int64_t target = size[i];
    if (target == -1) {
      TORCH_CHECK(dim >= 0, "The expanded size of the tensor (", target,
                  ") isn't allowed in a leading, non-existing dimension ", i);
      target = cur_size;
    }
    if (cur_size != target) {
      TORCH_CHECK(cur_size == 1, "The expanded size of the tensor (", target,
                  ") must match the existing size (", cur_size, ") at non-singleton dimension ", i,
                  ".  Target sizes: ", size, ".  Tensor sizes: ", self.sizes());
      expandedSizes[i] = target;
      expandedStrides[i] = 0;
    } else {
      expandedSizes[i] = cur_size;
      expandedStrides[i] = cur_stride;
    }
  }
  return alias_with_sizes_and_strides(self, expandedSizes, expandedStrides, self.storage_offset());
}
// [end marker: expand]

Tensor expand_as(const Tensor& self, const Tensor& other) {
  return self.expand(other.sizes());
}

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  TORCH_CHECK(self.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  TORCH_CHECK(length >= 0, "narrow(): length must be non-negative.");
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t cur_size = self.size(dim);
  TORCH_CHECK_INDEX(-cur_size <= start && start <= cur_size, "start out of range (expected to be in range of [",
                    -cur_size, ", ", cur_size, "], but got ", start, ")");
  if (start < 0) start += cur_size;
  TORCH_CHECK(start <= cur_size - length, "start (", start, ") + length (", length, ") exceeds dimension size (",
              cur_size, ").");
  return self.slice(dim, start, start + length, 1);
}

// [marker: select]
// Drop dimension `dim`, starting `index` elements further into the storage.
Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  const int64_t ndim = self.dim();
  TORCH_CHECK_INDEX(ndim != 0, "select() cannot be applied to a 0-dim tensor.");
  dim = c10::maybe_wrap_dim(dim, ndim);
  const int64_t size = self.size(dim);
  TORCH_CHECK_INDEX(-size <= index && index < size, "select(): index ", index, " out of range for tensor of size ",
                    self.sizes(), " at dimension ", dim);
  if (index < 0) index += size;
  std::vector<int64_t> sizes = self.sizes().vec();
  std::vector<int64_t> strides = self.strides().vec();
  const int64_t storage_offset = self.storage_offset() + index * strides[dim];
  sizes.erase(sizes.begin() + dim);
  strides.erase(strides.begin() + dim);
  return alias_with_sizes_and_strides(self, sizes, strides, storage_offset);
}
// [end marker: select]

// [marker: slice]
// Python's a[start:end:step] on one dimension: clamp the bounds, then size
// ceil((end - start) / step), stride * step, offset + start * stride.
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start_opt, std::optional<int64_t> end_opt,
             int64_t step) {
  const int64_t ndim = self.dim();
  TORCH_CHECK_INDEX(ndim != 0, "slice() cannot be applied to a 0-dim tensor.");
  dim = c10::maybe_wrap_dim(dim, ndim);
  TORCH_CHECK(step > 0, "slice step must be positive");
  const int64_t size = self.size(dim);
  int64_t start = start_opt.value_or(0);
  int64_t end = end_opt.value_or(std::numeric_limits<int64_t>::max());
  if (start < 0) start += size;
  if (end < 0) end += size;
  start = std::clamp<int64_t>(start, 0, size);
  end = std::clamp<int64_t>(end, start, size);
  std::vector<int64_t> sizes = self.sizes().vec();
  std::vector<int64_t> strides = self.strides().vec();
  const int64_t storage_offset = self.storage_offset() + start * strides[dim];
  sizes[dim] = (end - start + step - 1) / step;
  strides[dim] *= step;
  return alias_with_sizes_and_strides(self, sizes, strides, storage_offset);
}
// [end marker: slice]

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  dim = c10::maybe_wrap_dim(dim, self.dim() + 1);
  std::vector<int64_t> sizes = self.sizes().vec();
  std::vector<int64_t> strides = self.strides().vec();
  // The new dimension's stride only has to be consistent; PyTorch uses size*stride of the next.
  const int64_t new_stride = dim >= self.dim() ? 1 : sizes[dim] * strides[dim];
  sizes.insert(sizes.begin() + dim, 1);
  strides.insert(strides.begin() + dim, new_stride);
  return alias_with_sizes_and_strides(self, sizes, strides, self.storage_offset());
}

namespace {
Tensor squeeze_dims(const Tensor& self, const std::vector<bool>& drop) {
  std::vector<int64_t> sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!(drop[d] && self.size(d) == 1)) {
      sizes.push_back(self.size(d));
      strides.push_back(self.stride(d));
    }
  }
  return alias_with_sizes_and_strides(self, sizes, strides, self.storage_offset());
}
}  // namespace

Tensor squeeze(const Tensor& self) {
  return squeeze_dims(self, std::vector<bool>(self.dim(), true));
}

Tensor squeeze(const Tensor& self, int64_t dim) {
  std::vector<bool> drop(self.dim(), false);
  if (self.dim() > 0) drop[c10::maybe_wrap_dim(dim, self.dim())] = true;
  else c10::maybe_wrap_dim(dim, self.dim());
  return squeeze_dims(self, drop);
}

Tensor squeeze(const Tensor& self, IntArrayRef dims) {
  std::vector<bool> drop(self.dim(), false);
  for (auto d : dims) {
    const int64_t wrapped = c10::maybe_wrap_dim(d, self.dim());
    if (self.dim() > 0) drop[wrapped] = true;
  }
  return squeeze_dims(self, drop);
}

Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  const auto inferred = infer_size(sizes, self.size(dim));
  std::vector<int64_t> shape = self.sizes().vec();
  shape.erase(shape.begin() + dim);
  shape.insert(shape.begin() + dim, inferred.begin(), inferred.end());
  return self.view(shape);
}

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  TORCH_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  TORCH_CHECK(split_size >= 0, "split expects split_size be non-negative, but got split_size=", split_size);
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t dim_size = self.size(dim);
  TORCH_CHECK(split_size > 0 || dim_size == 0, "split_size can only be 0 if dimension size is 0, but got dimension size of ",
              dim_size);
  // Empty tensors give one empty piece, as in PyTorch.
  const int64_t num_splits = split_size == 0 ? 1 : std::max<int64_t>((dim_size + split_size - 1) / split_size, 1);
  std::vector<Tensor> splits;
  for (int64_t i = 0; i < num_splits; ++i) {
    const int64_t start = i * split_size;
    const int64_t length = std::min(split_size, dim_size - start);
    splits.push_back(self.narrow(dim, start, length));
  }
  return splits;
}

std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  TORCH_CHECK(self.dim() != 0, "split expects at least a 1-dimensional tensor");
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t dim_size = self.size(dim);
  int64_t total = 0;
  for (auto s : split_sizes) {
    TORCH_CHECK(s >= 0, "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=",
                split_sizes);
    total += s;
  }
  TORCH_CHECK(total == dim_size, "split_with_sizes expects split_sizes to sum exactly to ", dim_size,
              " (input tensor's size at dimension ", dim, "), but got split_sizes=", split_sizes);
  std::vector<Tensor> splits;
  int64_t start = 0;
  for (auto s : split_sizes) {
    splits.push_back(self.narrow(dim, start, s));
    start += s;
  }
  return splits;
}

std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  TORCH_CHECK(self.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  TORCH_CHECK(chunks > 0, "chunk expects `chunks` to be greater than 0, got: ", chunks);
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t split_size = (self.size(dim) + chunks - 1) / chunks;
  // Like split, except that chunks of an empty dimension are all empty.
  if (split_size == 0 && self.size(dim) == 0) {
    std::vector<int64_t> sizes(chunks, 0);
    return at::native::split_with_sizes(self, sizes, dim);
  }
  return at::native::split(self, split_size, dim);
}

std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  std::vector<Tensor> tensors;
  for (int64_t i = 0; i < self.size(dim); ++i) {
    tensors.push_back(self.select(dim, i));
  }
  return tensors;
}

// [marker: diagonal]
// The diagonal of dims (dim1, dim2) is a new last dimension with stride stride1 + stride2.
Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1_, int64_t dim2_) {
  const int64_t nDims = self.dim();
  const int64_t dim1 = c10::maybe_wrap_dim(dim1_, nDims);
  const int64_t dim2 = c10::maybe_wrap_dim(dim2_, nDims);
  TORCH_CHECK(dim1 != dim2, "diagonal dimensions cannot be identical ", dim1_, ", ", dim2_);
  int64_t diag_size;
  int64_t storage_offset = self.storage_offset();
  if (offset >= 0) {
    diag_size = std::max<int64_t>(std::min(self.size(dim1), self.size(dim2) - offset), 0);
  } else {
    diag_size = std::max<int64_t>(std::min(self.size(dim1) + offset, self.size(dim2)), 0);
  }
  if (diag_size > 0) {
    storage_offset += offset >= 0 ? offset * self.stride(dim2) : -offset * self.stride(dim1);
  }
  std::vector<int64_t> sizes, strides;
  for (int64_t d = 0; d < nDims; ++d) {
    if (d != dim1 && d != dim2) {
      sizes.push_back(self.size(d));
      strides.push_back(self.stride(d));
    }
  }
  sizes.push_back(diag_size);
  strides.push_back(self.stride(dim1) + self.stride(dim2));
  return alias_with_sizes_and_strides(self, sizes, strides, storage_offset);
}
// [end marker: diagonal]

Tensor movedim(const Tensor& self, IntArrayRef src, IntArrayRef dst) {
  TORCH_CHECK(src.size() == dst.size(), "movedim: Invalid source or destination dims: source (", src,
              " dims) should contain the same number of dims as destination (", dst, " dims)");
  const int64_t nDims = self.dim();
  std::vector<int64_t> order(nDims, -1);
  std::vector<bool> src_used(nDims, false), dst_used(nDims, false);
  for (size_t i = 0; i < src.size(); ++i) {
    const int64_t s = c10::maybe_wrap_dim(src[i], nDims);
    const int64_t d = c10::maybe_wrap_dim(dst[i], nDims);
    TORCH_CHECK(!src_used[s], "movedim: repeated dim in `source` (", src, ")");
    TORCH_CHECK(!dst_used[d], "movedim: repeated dim in `destination` (", dst, ")");
    src_used[s] = dst_used[d] = true;
    order[d] = s;
  }
  // The remaining dimensions keep their relative order in the free destination slots.
  int64_t next_src = 0;
  for (int64_t d = 0; d < nDims; ++d) {
    if (order[d] != -1) continue;
    while (src_used[next_src]) ++next_src;
    order[d] = next_src++;
  }
  return self.permute(order);
}

Tensor movedim(const Tensor& self, int64_t src, int64_t dst) {
  return at::native::movedim(self, IntArrayRef{src}, IntArrayRef{dst});
}

}  // namespace at::native
