// aten/src/ATen/native/TensorShape.cpp - views: new sizes, strides and offset over the same storage.
// Mirrors PyTorch's aten/src/ATen/native/TensorShape.cpp. Guide: docs/source/internals/tensors.rst.
//
// Seed 000, "Understand Parameters": a view copies no data. It is a new TensorImpl that
// shares the base's StorageImpl (one more reference) and its version counter, and reads it
// with other sizes, strides and storage_offset. transpose swaps two strides; select drops a
// dimension and moves the offset; expand gives a broadcast dimension stride 0.
#include <ATen/EmptyTensor.h>
#include <ATen/ExpandUtils.h>
#include <ATen/Functions.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/NativeFunctions.h>
#include <ATen/Parallel.h>
#include <ATen/native/Resize.h>
#include <ATen/native/TypeProperties.h>
#include <c10/core/WrapDimMinimal.h>

#include <algorithm>
#include <cstring>
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
  at::native::checkInBoundsForStorage(size, stride, offset, self.dtype(), self.storage());
  c10::Storage storage = self.storage();
  auto impl = c10::make_intrusive<TensorImpl>(std::move(storage), self.key_set(), self.dtype());
  impl->set_sizes_and_strides(size, stride, offset);
  impl->set_version_counter(self.unsafeGetTensorImpl()->version_counter());
  return Tensor(std::move(impl));
}

Tensor alias(const Tensor& self) {
  return alias_with_sizes_and_strides(self, self.sizes(), self.strides(), self.storage_offset());
}

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
      TORCH_CHECK(shape[dim] >= 0, "invalid shape dimension ", shape[dim], " at index ", dim, " of shape ", shape);
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
    // A new leading dimension steps over everything inside it (1 past the last one).
    const int64_t cur_stride =
        dim >= 0 ? self.stride(dim) : (i + 1 < ndim ? expandedSizes[i + 1] * expandedStrides[i + 1] : 1);
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
  std::vector<bool> drop(std::max<int64_t>(self.dim(), 1), false);
  for (auto d : dims) {
    const int64_t wrapped = c10::maybe_wrap_dim(d, self.dim());
    TORCH_CHECK(!drop[wrapped], "dim ", wrapped, " appears multiple times in the list of dims");
    drop[wrapped] = true;
  }
  drop.resize(self.dim());
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
  // Like split, except that chunks of an empty dimension are all empty. Through the
  // dispatcher (at::split, not at::native::split), so that autograd sees one SplitBackward0
  // node: its backward writes every chunk's gradient into one tensor, where one SliceBackward0
  // per chunk would each allocate a zero tensor of the input's size.
  if (split_size == 0 && self.size(dim) == 0) {
    std::vector<int64_t> sizes(chunks, 0);
    return at::split_with_sizes(self, sizes, dim);
  }
  return at::split(self, split_size, dim);
}

std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  std::vector<Tensor> tensors;
  for (int64_t i = 0; i < self.size(dim); ++i) {
    tensors.push_back(self.select(dim, i));
  }
  return tensors;
}

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

Tensor movedim(const Tensor& self, IntArrayRef src, IntArrayRef dst) {
  TORCH_CHECK(src.size() == dst.size(), "movedim: Invalid source or destination dims: source (", src,
              " dims) should contain the same number of dims as destination (", dst, " dims)");
  const int64_t nDims = self.dim();
  if (nDims == 0) {
    // A 0-d tensor has one place a dimension can be (0 or -1): moving it is a no-op.
    for (size_t i = 0; i < src.size(); ++i) {
      c10::maybe_wrap_dim(src[i], nDims);
      c10::maybe_wrap_dim(dst[i], nDims);
    }
    return self.alias();
  }
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

// ---- reshape: a view when the strides allow one, a copy otherwise ----

// PyTorch's rule: if computeStride finds strides that read the same elements in the new
// shape, reshape is a view (it shares the storage; writes through it reach self).
// Otherwise the data is copied into a contiguous tensor first, and that one is viewed.
// So whether reshape copies depends on the layout, not on the call: x.reshape(6) of a
// contiguous [2, 3] is a view; of its transpose, a copy.
// Every branch goes back through the dispatcher (view, _reshape_alias, _unsafe_view): reshape is
// CompositeImplicitAutograd, so the ops it calls are what autograd records. Building the
// alias here directly would hand back a view with no grad_fn.
Tensor reshape(const Tensor& self, IntArrayRef proposed_shape) {
  if (self.is_contiguous()) {
    return self.view(proposed_shape);
  }
  const auto shape = infer_size(proposed_shape, self.numel());
  if (auto stride = computeStride(self.sizes(), self.strides(), shape)) {
    return at::_reshape_alias(self, shape, *stride);
  }
  return at::_unsafe_view(self.clone(MemoryFormat::Contiguous), shape);
}

Tensor _reshape_alias(const Tensor& self, IntArrayRef size, IntArrayRef stride) {
  return alias_with_sizes_and_strides(self, size, stride, self.storage_offset());
}

// A view of a tensor no one else holds (reshape's fresh copy): autograd treats the result
// as a new tensor, not as a view. Here it is a plain view.
Tensor _unsafe_view(const Tensor& self, IntArrayRef size) {
  return at::native::view(self, size);
}

Tensor reshape_as(const Tensor& self, const Tensor& other) {
  return self.reshape(other.sizes());
}

Tensor view_as(const Tensor& self, const Tensor& other) {
  return self.view(other.sizes());
}

// Dimensions start_dim..end_dim become one; the rest stay. The merged size is computed, not
// inferred with -1 ([0, 1, 3, 0] flattened over 1..2 must be [0, 3, 0]).
Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  start_dim = c10::maybe_wrap_dim(start_dim, self.dim());
  end_dim = c10::maybe_wrap_dim(end_dim, self.dim());
  TORCH_CHECK(start_dim <= end_dim, "flatten() has invalid args: start_dim cannot come after end_dim");
  if (self.dim() == 0) {
    return self.reshape({1});
  }
  if (start_dim == end_dim) {
    return self;
  }
  std::vector<int64_t> shape(self.sizes().begin(), self.sizes().begin() + start_dim);
  int64_t slice_numel = 1;
  for (int64_t d = start_dim; d <= end_dim; d++) slice_numel *= self.size(d);
  shape.push_back(slice_numel);
  shape.insert(shape.end(), self.sizes().begin() + end_dim + 1, self.sizes().end());
  return self.reshape(shape);
}

Tensor ravel(const Tensor& self) {
  return self.contiguous().view(-1);
}

// The same bytes read as another dtype. With a smaller element the last dimension grows
// (float32 -> int16: [2, 3] becomes [2, 6]); with a larger one it shrinks, which needs the
// last dimension contiguous and the other strides and the offset divisible.
Tensor view_dtype(const Tensor& self, ScalarType dtype) {
  if (self.scalar_type() == dtype) {
    return at::native::alias(self);  // a new view, as autograd's view wrapping gives in PyTorch
  }
  const int64_t self_element_size = self.element_size();
  const int64_t new_element_size = static_cast<int64_t>(c10::elementSize(dtype));
  std::vector<int64_t> new_size = self.sizes().vec();
  std::vector<int64_t> new_stride = self.strides().vec();
  int64_t new_storage_offset = self.storage_offset();
  if (self_element_size != new_element_size) {
    TORCH_CHECK(self.dim() != 0, "self.dim() cannot be 0 to view ", self.scalar_type(), " as ", dtype,
                " (different element sizes)");
    const int64_t last = self.dim() - 1;
    if (self_element_size > new_element_size) {
      const int64_t ratio = self_element_size / new_element_size;
      for (int64_t d = 0; d < last; d++) new_stride[d] *= ratio;
      TORCH_CHECK(self.stride(-1) == 1, "self.stride(-1) must be 1 to view ", self.scalar_type(), " as ", dtype,
                  " (different element sizes), but got ", self.stride(-1));
      new_size[last] *= ratio;
      new_storage_offset *= ratio;
    } else {
      const int64_t ratio = new_element_size / self_element_size;
      TORCH_CHECK(self.size(-1) % ratio == 0, "self.size(-1) must be divisible by ", ratio, " to view ",
                  self.scalar_type(), " as ", dtype, " (different element sizes), but got ", self.size(-1));
      TORCH_CHECK(self.stride(-1) == 1, "self.stride(-1) must be 1 to view ", self.scalar_type(), " as ", dtype,
                  " (different element sizes), but got ", self.stride(-1));
      TORCH_CHECK(self.storage_offset() % ratio == 0, "self.storage_offset() must be divisible by ", ratio,
                  " to view ", self.scalar_type(), " as ", dtype, " (different element sizes), but got ",
                  self.storage_offset());
      for (int64_t d = 0; d < last; d++) {
        TORCH_CHECK(new_stride[d] % ratio == 0, "self.stride(", d, ") must be divisible by ", ratio, " to view ",
                    self.scalar_type(), " as ", dtype, " (different element sizes), but got ", self.stride(d));
        new_stride[d] /= ratio;
      }
      new_size[last] /= ratio;
      new_storage_offset /= ratio;
    }
  }
  auto impl = c10::make_intrusive<TensorImpl>(c10::Storage(self.storage()), self.key_set(),
                                              c10::scalarTypeToTypeMeta(dtype));
  impl->set_sizes_and_strides(new_size, new_stride, new_storage_offset);
  impl->set_version_counter(self.unsafeGetTensorImpl()->version_counter());
  return Tensor(std::move(impl));
}

// Windows of `size` elements every `step` along one dimension, as a new last dimension:
// a view, since window w starts step * stride further on.
Tensor unfold(const Tensor& self, int64_t d, int64_t size, int64_t step) {
  const int64_t ndim = self.dim();
  d = c10::maybe_wrap_dim(d, ndim, /*wrap_scalar=*/true);
  std::vector<int64_t> sizes = self.sizes().vec();
  std::vector<int64_t> strides = self.strides().vec();
  const int64_t max_size = ndim == 0 ? 1 : sizes[d];
  TORCH_CHECK(size <= max_size, "maximum size for tensor at dimension ", d, " is ", max_size, " but size is ", size);
  TORCH_CHECK(size >= 0, "size is ", size, " but must be >= 0");
  TORCH_CHECK(step > 0, "step is ", step, " but must be > 0");
  sizes.push_back(size);
  strides.push_back(ndim == 0 ? 1 : strides[d]);
  if (d < ndim) {
    sizes[d] = (sizes[d] - size) / step + 1;
    strides[d] *= step;
  }
  return alias_with_sizes_and_strides(self, sizes, strides, self.storage_offset());
}

// ---- T, mT, mH, H (Tensor properties in Python) ----

Tensor numpy_T(const Tensor& self) {
  const int64_t n = self.dim();
  if (n != 2 && n != 0) {
    TORCH_WARN_ONCE("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and "
                    "it will throw an error in a future release. Consider `x.mT` to transpose batches of matrices "
                    "or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.");
  }
  std::vector<int64_t> dims(self.dim());
  std::iota(dims.rbegin(), dims.rend(), 0);
  return self.permute(dims);
}

namespace {
Tensor _adjoint(const Tensor& self, bool transpose, const char* name) {
  const int64_t ndim = self.dim();
  TORCH_CHECK(ndim != 1, "tensor.", name, " is only supported on matrices or batches of matrices. Got 1-D tensor.");
  // PyTorch conjugates lazily (a conj bit on the view); this tree has no conj yet.
  TORCH_CHECK_NOT_IMPLEMENTED(transpose || !c10::isComplexType(self.scalar_type()), "tensor.", name,
                              " of a complex tensor needs conj(), which this build does not have yet");
  return ndim == 0 ? self : self.transpose(-2, -1);
}
}  // namespace

Tensor mT(const Tensor& self) {
  return _adjoint(self, /*transpose=*/true, "mT");
}

Tensor mH(const Tensor& self) {
  return _adjoint(self, /*transpose=*/false, "mH");
}

Tensor adjoint(const Tensor& self) {
  return _adjoint(self, /*transpose=*/false, "adjoint()");
}

Tensor matrix_H(const Tensor& self) {
  TORCH_CHECK_NOT_IMPLEMENTED(!c10::isComplexType(self.scalar_type()), "tensor.H of a complex tensor needs conj(), which this build does not have yet");
  return self.dim() == 0 ? self : self.transpose(-2, -1);
}

// ---- cat and stack ----

namespace {

// A 1-D tensor with no elements was the only empty tensor before PyTorch had empty
// dimensions of size 0 elsewhere; cat still lets it join anything (it is skipped).
bool cat_should_skip_tensor(const Tensor& t) {
  return t.numel() == 0 && t.dim() == 1;
}

void cat_check_no_zero_dim(TensorList tensors) {
  for (size_t i = 0; i < tensors.size(); i++) {
    TORCH_CHECK(tensors[i].dim() > 0, "zero-dimensional tensor (at position ", i, ") cannot be concatenated");
  }
}

// dim is wrapped against the first tensor that is not a legacy empty one.
int64_t legacy_cat_wrap_dim(int64_t dim, TensorList tensors) {
  for (const Tensor& t : tensors) {
    if (t.dim() == 1 && t.size(0) == 0) continue;
    return c10::maybe_wrap_dim(dim, t.dim());
  }
  return dim;
}

void check_cat_shape_except_dim(const Tensor& first, const Tensor& second, int64_t dimension, int64_t index) {
  const int64_t first_dims = first.dim();
  const int64_t second_dims = second.dim();
  TORCH_CHECK(first_dims == second_dims, "Tensors must have same number of dimensions: got ", first_dims, " and ",
              second_dims);
  for (int64_t dim = 0; dim < first_dims; dim++) {
    if (dim == dimension) continue;
    TORCH_CHECK(first.size(dim) == second.size(dim), "Sizes of tensors must match except in dimension ", dimension,
                ". Expected size ", first.size(dim), " but got size ", second.size(dim), " for tensor number ", index,
                " in the list.");
  }
}

ScalarType result_type(TensorList tensors) {
  ResultTypeState state;
  for (const Tensor& t : tensors) state = update_result_type_state(t, state);
  return at::native::result_type(state);
}

// What cat's meta function computes (TORCH_PRECOMPUTE_META_FUNC(cat) in PyTorch): the
// checks, the wrapped dim, the result's sizes, dtype and device.
struct CatPlan {
  int64_t dim;
  std::vector<int64_t> sizes;
  TensorOptions options;
};

CatPlan cat_meta(TensorList tensors, int64_t dim, const Tensor* out) {
  cat_check_no_zero_dim(tensors);
  dim = legacy_cat_wrap_dim(dim, tensors);
  TORCH_CHECK_VALUE(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  size_t valid = tensors.size();
  for (size_t i = 0; i < tensors.size(); i++) {
    if (!cat_should_skip_tensor(tensors[i])) {
      valid = i;
      break;
    }
  }
  // Every input takes part in type promotion, skipped ones too.
  ScalarType out_dtype = result_type(tensors);
  if (out != nullptr) {
    TORCH_CHECK_TYPE(c10::canCast(out_dtype, out->scalar_type()),
                     "torch.cat(): input types can't be cast to the desired output type ", out->scalar_type());
    out_dtype = out->scalar_type();
  }
  CatPlan plan{dim, {0}, tensors[0].options().dtype(out_dtype)};
  if (valid < tensors.size()) {
    const Tensor& ref = tensors[valid];
    TORCH_CHECK(dim <= ref.dim(), "torch.cat(): dimension ", dim, "out of range");
    int64_t size_at_dim = 0;
    for (size_t i = 0; i < tensors.size(); i++) {
      if (!cat_should_skip_tensor(tensors[i])) {
        check_cat_shape_except_dim(ref, tensors[i], dim, static_cast<int64_t>(i));
        size_at_dim += tensors[i].size(dim);
      }
    }
    plan.sizes = ref.sizes().vec();
    plan.sizes[dim] = size_at_dim;
    plan.options = ref.options().dtype(out_dtype);
  }
  return plan;
}

// The common case, contiguous CPU inputs of the result's dtype (torch.stack of a sequence's
// steps, say): the result is `outer` rows, and each input fills a block of every row, one
// memcpy per block. PyTorch's cpu/CatKernel.cpp (cat_serial_kernel) takes this path for small
// results or one thread; a copy_ per input costs a TensorIterator each, which for 32 pieces of
// 8 KiB was more than the copying.
bool cat_serial_ok(TensorList tensors, const Tensor& result) {
  if (!result.device().is_cpu() || !result.is_contiguous() ||
      (result.numel() >= at::internal::GRAIN_SIZE && at::get_num_threads() > 1)) {
    return false;
  }
  for (const Tensor& t : tensors) {
    if (cat_should_skip_tensor(t)) continue;
    if (!t.device().is_cpu() || t.scalar_type() != result.scalar_type() || !t.is_contiguous() ||
        get_overlap_status(result, t) != MemOverlapStatus::No) {
      return false;
    }
  }
  return true;
}

void cat_serial_kernel(TensorList tensors, int64_t dim, const Tensor& result) {
  const auto sizes = result.sizes();
  int64_t outer = 1, inner_bytes = static_cast<int64_t>(result.element_size());
  for (int64_t d = 0; d < static_cast<int64_t>(sizes.size()); d++) {
    if (d < dim) outer *= sizes[d];
    if (d > dim) inner_bytes *= sizes[d];
  }
  const int64_t row_bytes = sizes[dim] * inner_bytes;
  char* out = static_cast<char*>(result.data_ptr());
  int64_t offset = 0;  // where this input's block starts in a row of the result, in bytes
  for (const Tensor& t : tensors) {
    if (cat_should_skip_tensor(t)) continue;
    const int64_t block = t.size(dim) * inner_bytes;
    const char* in = static_cast<const char*>(t.const_data_ptr());
    for (int64_t o = 0; o < outer; o++) {
      std::memcpy(out + o * row_bytes + offset, in + o * block, static_cast<size_t>(block));
    }
    offset += block;
  }
}

// Each input is copied into its slice of the result: result.narrow(dim, offset, size_i).
// copy_ converts the dtype (to the promoted one) and handles any input layout.
void cat_impl(TensorList tensors, const CatPlan& plan, const Tensor& result) {
  if (result.numel() == 0) {
    return;
  }
  if (cat_serial_ok(tensors, result)) {
    cat_serial_kernel(tensors, plan.dim, result);
    return;
  }
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if (cat_should_skip_tensor(t)) continue;
    const int64_t size = t.size(plan.dim);
    result.narrow(plan.dim, offset, size).copy_(t);
    offset += size;
  }
}

}  // namespace

Tensor cat(TensorList tensors, int64_t dim) {
  const CatPlan plan = cat_meta(tensors, dim, nullptr);
  Tensor result = at::empty(plan.sizes, plan.options.dtype(), std::nullopt, plan.options.device(), std::nullopt, std::nullopt);
  cat_impl(tensors, plan, result);
  return result;
}

Tensor& cat_out(TensorList tensors, int64_t dim, Tensor& out) {
  const CatPlan plan = cat_meta(tensors, dim, &out);
  if (!out.sizes().equals(plan.sizes)) {
    out.resize_(plan.sizes);
  }
  cat_impl(tensors, plan, out);
  return out;
}

Tensor concat(TensorList tensors, int64_t dim) {
  return at::cat(tensors, dim);
}

Tensor concatenate(TensorList tensors, int64_t dim) {
  return at::cat(tensors, dim);
}

namespace {
void check_stack_inputs(TensorList tensors, int64_t dim) {
  (void)dim;
  const auto entry_shape = tensors[0].sizes();
  for (size_t i = 1; i < tensors.size(); i++) {
    TORCH_CHECK(tensors[i].sizes() == entry_shape, "stack expects each tensor to be equal size, but got ",
                entry_shape, " at entry 0 and ", tensors[i].sizes(), " at entry ", i);
  }
}
}  // namespace

// stack is cat along a new dimension. Inside the existing dimensions PyTorch cats along
// `dim` and splits it with view (always possible for a fresh contiguous result); at the end,
// every input gets the new dimension with unsqueeze and cat joins them there.
Tensor stack(TensorList tensors, int64_t dim) {
  TORCH_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  const int64_t wrapped_dim = c10::maybe_wrap_dim(dim, tensors[0].dim() + 1);
  check_stack_inputs(tensors, wrapped_dim);
  if (wrapped_dim < tensors[0].dim()) {
    std::vector<int64_t> result_sizes = tensors[0].sizes().vec();
    result_sizes.insert(result_sizes.begin() + wrapped_dim, static_cast<int64_t>(tensors.size()));
    return at::cat(tensors, wrapped_dim).view(result_sizes);
  }
  std::vector<Tensor> inputs;
  for (const Tensor& t : tensors) inputs.push_back(t.unsqueeze(wrapped_dim));
  return at::cat(inputs, wrapped_dim);
}

Tensor atleast_1d(const Tensor& self) {
  return self.dim() == 0 ? self.reshape({1}) : self;
}

Tensor atleast_2d(const Tensor& self) {
  if (self.dim() == 0) return self.reshape({1, 1});
  if (self.dim() == 1) return self.unsqueeze(0);
  return self;
}

Tensor atleast_3d(const Tensor& self) {
  if (self.dim() == 0) return self.reshape({1, 1, 1});
  if (self.dim() == 1) return self.unsqueeze(0).unsqueeze(-1);
  if (self.dim() == 2) return self.unsqueeze(-1);
  return self;
}

namespace {
template <typename F>
std::vector<Tensor> map_tensors(TensorList tensors, F f) {
  std::vector<Tensor> out;
  for (const Tensor& t : tensors) out.push_back(f(t));
  return out;
}
}  // namespace

// hstack: along the columns (dim 1), or dim 0 for 1-D inputs; vstack: rows; dstack: depth.
Tensor hstack(TensorList tensors) {
  TORCH_CHECK(!tensors.empty(), "hstack expects a non-empty TensorList");
  auto rep = map_tensors(tensors, [](const Tensor& t) { return at::atleast_1d(t); });
  return at::cat(rep, rep[0].dim() == 1 ? 0 : 1);
}

Tensor vstack(TensorList tensors) {
  TORCH_CHECK(!tensors.empty(), "vstack expects a non-empty TensorList");
  return at::cat(map_tensors(tensors, [](const Tensor& t) { return at::atleast_2d(t); }), 0);
}

Tensor dstack(TensorList tensors) {
  TORCH_CHECK(!tensors.empty(), "dstack expects a non-empty TensorList");
  return at::cat(map_tensors(tensors, [](const Tensor& t) { return at::atleast_3d(t); }), 2);
}

// ---- repeat and tile ----

// repeat copies: result has size size[d] * repeats[d]. PyTorch's trick: unfold the result
// in every dimension into blocks of the input's size, so that result viewed as
// [repeats..., sizes...] is the input expanded over the leading repeat dimensions; one
// copy_ fills it all.
Tensor repeat(const Tensor& self, IntArrayRef repeats) {
  TORCH_CHECK(static_cast<int64_t>(repeats.size()) >= self.dim(),
              "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  const int64_t num_new_dimensions = static_cast<int64_t>(repeats.size()) - self.dim();
  std::vector<int64_t> padded_size(num_new_dimensions, 1);
  padded_size.insert(padded_size.end(), self.sizes().begin(), self.sizes().end());
  std::vector<int64_t> target_size(repeats.size());
  bool zero_tensor = false;
  for (size_t idx = 0; idx < repeats.size(); idx++) {
    if (repeats[idx] == 0) zero_tensor = true;
    target_size[idx] = padded_size[idx] * repeats[idx];
  }
  Tensor xtensor = self.expand(padded_size);
  Tensor result = at::empty(target_size, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  if (zero_tensor) {
    return result;
  }
  Tensor urtensor = at::alias(result);
  for (int64_t i = 0; i < xtensor.dim(); i++) {
    // unfold needs step >= 1; with size 0 nothing is read anyway.
    const int64_t size_i = xtensor.size(i);
    urtensor = urtensor.unfold(i, size_i, std::max<int64_t>(size_i, 1));
  }
  urtensor.copy_(xtensor.expand_as(urtensor));
  return result;
}

// numpy.tile: fewer reps than dimensions means leading 1s (then it is repeat).
Tensor tile(const Tensor& self, IntArrayRef reps) {
  const int64_t size_diff = self.dim() - static_cast<int64_t>(reps.size());
  if (size_diff > 0) {
    std::vector<int64_t> new_reps(size_diff, 1);
    new_reps.insert(new_reps.end(), reps.begin(), reps.end());
    return self.repeat(new_reps);
  }
  return self.repeat(reps);
}

}  // namespace at::native

// ---- detach (native_functions.yaml, autograd section) ----
// Below autograd, detach is an alias; what makes it "detached" is its Autograd kernel
// (torch/csrc/autograd/VariableTypeManual.cpp), which gives the result no history.
namespace at::native {

Tensor detach(const Tensor& self) {
  return at::native::alias(self);
}

Tensor& detach_(Tensor& self) {
  return self;
}

}  // namespace at::native

// ---- broadcast_to, broadcast_tensors, column_stack, tensor_split, meshgrid, block_diag, diag,
// swapaxes, the in-place views (t_, transpose_, squeeze_, unsqueeze_), where(condition) ----
namespace at::native {

Tensor broadcast_to(const Tensor& self, IntArrayRef size) {
  return self.expand(size);
}

// Every tensor expanded to the shape they broadcast to (views; nothing is copied).
std::vector<Tensor> broadcast_tensors(TensorList tensors) {
  std::vector<int64_t> shape;
  bool first = true;
  for (const auto& t : tensors) {
    shape = first ? t.sizes().vec() : at::infer_size(shape, t.sizes());
    first = false;
  }
  std::vector<Tensor> result;
  result.reserve(tensors.size());
  for (const auto& t : tensors) {
    result.push_back(t.sizes().equals(shape) ? t : t.expand(shape));
  }
  return result;
}

// 0-D and 1-D tensors become columns (n x 1), then everything is hstack-ed.
Tensor column_stack(TensorList tensors) {
  TORCH_CHECK(!tensors.empty(), "column_stack expects a non-empty TensorList");
  std::vector<Tensor> columns;
  columns.reserve(tensors.size());
  for (const auto& t : tensors) {
    columns.push_back(t.dim() <= 1 ? t.reshape({t.numel(), 1}) : t);
  }
  return at::hstack(columns);
}

Tensor& column_stack(TensorList tensors, Tensor& out) {
  auto result = at::native::column_stack(tensors);
  at::native::resize_output(out, result.sizes());
  return out.copy_(result);
}

// tensor_split(x, n): n pieces whose sizes differ by at most one (the first size % n pieces
// are one longer); unlike split, n need not divide the size. Each piece is a slice (a view).
std::vector<Tensor> tensor_split(const Tensor& self, int64_t sections, int64_t dim) {
  TORCH_CHECK(self.dim() > 0, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with ",
              self.dim(), " dims");
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(sections > 0, "number of sections must be larger than 0, got ", sections);
  const int64_t dim_size = self.size(d);
  const int64_t min_size = dim_size / sections;
  const int64_t one_extra = dim_size % sections;
  std::vector<Tensor> splits;
  splits.reserve(sections);
  int64_t start = 0;
  for (int64_t i = 0; i < sections; ++i) {
    const int64_t size = i < one_extra ? min_size + 1 : min_size;
    splits.push_back(at::slice(self, d, start, start + size));
    start += size;
  }
  return splits;
}

// tensor_split(x, [i, j]): x[:i], x[i:j], x[j:] along dim.
std::vector<Tensor> tensor_split(const Tensor& self, IntArrayRef indices, int64_t dim) {
  TORCH_CHECK(self.dim() > 0, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with ",
              self.dim(), " dims");
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  std::vector<Tensor> splits;
  splits.reserve(indices.size() + 1);
  int64_t start = 0;
  for (const int64_t end : indices) {
    splits.push_back(at::slice(self, d, start, end));
    start = end;
  }
  splits.push_back(at::slice(self, d, start, self.size(d)));
  return splits;
}

// A 0-D tensor is a number of sections, a 1-D tensor a list of indices.
std::vector<Tensor> tensor_split(const Tensor& self, const Tensor& tensor_indices_or_sections, int64_t dim) {
  TORCH_CHECK(self.dim() > 0, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with ",
              self.dim(), " dims");
  TORCH_CHECK(tensor_indices_or_sections.device().is_cpu(),
              "tensor_split expected tensor_indices_or_sections to be on cpu, but it's on ",
              tensor_indices_or_sections.device());
  TORCH_CHECK(tensor_indices_or_sections.scalar_type() == kLong,
              "tensor_split expected tensor_indices_or_sections to have dtype of long, but got ",
              tensor_indices_or_sections.scalar_type());
  const int64_t split_dim = tensor_indices_or_sections.dim();
  TORCH_CHECK(split_dim == 1 || split_dim == 0,
              "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional "
              "tensor, but got a tensor with ",
              split_dim, " dims");
  if (split_dim == 0) {
    return at::native::tensor_split(self, tensor_indices_or_sections.item<int64_t>(), dim);
  }
  auto contiguous = tensor_indices_or_sections.contiguous();
  const int64_t* data = contiguous.const_data_ptr<int64_t>();
  std::vector<int64_t> indices(data, data + contiguous.numel());
  return at::native::tensor_split(self, IntArrayRef(indices), dim);
}

// meshgrid: grid i is tensor i viewed along dimension i and expanded to the full grid (a view).
// indexing="xy" swaps the first two dimensions (NumPy's default, for plotting).
std::vector<Tensor> meshgrid(TensorList tensors, c10::string_view indexing) {
  const size_t size = tensors.size();
  TORCH_CHECK(size > 0, "meshgrid expects a non-empty TensorList");
  for (size_t i = 0; i + 1 < size; ++i) {
    TORCH_CHECK(tensors[i].dtype() == tensors[i + 1].dtype(), "meshgrid expects all tensors to have the same dtype");
    TORCH_CHECK(tensors[i].device() == tensors[i + 1].device(),
                "meshgrid expects all tensors to have the same device");
  }
  bool swap_first_two = false;
  if (indexing == "xy") {
    swap_first_two = size >= 2;
  } else {
    TORCH_CHECK(indexing == "ij", "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ",
                indexing);
  }
  std::vector<Tensor> inputs(tensors.begin(), tensors.end());
  if (swap_first_two) {
    std::swap(inputs[0], inputs[1]);
  }
  std::vector<int64_t> shape(size);
  for (size_t i = 0; i < size; ++i) {
    TORCH_CHECK(inputs[i].dim() <= 1,
                "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a tensor with ",
                inputs[i].dim(), " dimensions");
    shape[i] = inputs[i].numel();
  }
  std::vector<Tensor> grids;
  grids.reserve(size);
  for (size_t i = 0; i < size; ++i) {
    std::vector<int64_t> view_shape(size, 1);
    view_shape[i] = -1;
    grids.push_back(inputs[i].view(view_shape).expand(shape));
  }
  if (swap_first_two) {
    std::swap(grids[0], grids[1]);
  }
  return grids;
}

std::vector<Tensor> meshgrid(TensorList tensors) {
  TORCH_WARN_ONCE("torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.");
  return at::native::meshgrid(tensors, "ij");
}

// The tensors (0-D: 1 x 1, 1-D: 1 x n, 2-D as they are) as diagonal blocks of a zero matrix
// of their promoted dtype.
Tensor block_diag(TensorList tensors) {
  if (tensors.empty()) {
    return at::empty({1, 0}, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::nullopt);
  }
  const Device device = tensors[0].device();
  ScalarType dtype = tensors[0].scalar_type();
  int64_t rows = 0, cols = 0;
  std::vector<Tensor> blocks;
  blocks.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const auto& t = tensors[i];
    TORCH_CHECK(t.dim() <= 2, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input ", i,
                " has ", t.dim(), " dimensions");
    TORCH_CHECK(t.device() == device, "torch.block_diag: input tensors must all be on the same device. Input 0 is on device ",
                device, " and input ", i, " is on device ", t.device());
    dtype = at::promote_types(dtype, t.scalar_type());
    auto block = t.dim() == 0 ? t.reshape({1, 1}) : (t.dim() == 1 ? t.reshape({1, t.size(0)}) : t);
    rows += block.size(0);
    cols += block.size(1);
    blocks.push_back(block);
  }
  Tensor result = at::zeros({rows, cols}, dtype, std::nullopt, device, std::nullopt);
  int64_t row = 0, col = 0;
  for (const auto& block : blocks) {
    result.slice(0, row, row + block.size(0)).slice(1, col, col + block.size(1)).copy_(block);
    row += block.size(0);
    col += block.size(1);
  }
  return result;
}

// diag(vector, k): the square matrix with the vector on diagonal k; diag(matrix, k): a copy
// of diagonal k. The matrix is assembled with where() and cat() so that autograd (this is
// CompositeImplicitAutograd) differentiates through it.
Tensor diag(const Tensor& self, int64_t diagonal) {
  const int64_t ndim = self.dim();
  TORCH_CHECK(ndim == 1 || ndim == 2, "diag(): Supports 1D or 2D tensors. Got ", ndim, "D");
  if (ndim == 2) {
    return self.diagonal(diagonal).clone();
  }
  const int64_t m = self.size(0);
  const int64_t k = diagonal >= 0 ? diagonal : -diagonal;
  auto eye = at::eye(m, m, kBool, std::nullopt, self.device(), std::nullopt);
  auto square = at::where(eye, self.unsqueeze(0).expand({m, m}), at::zeros(IntArrayRef{}, self.scalar_type(), std::nullopt,
                                                                             self.device(), std::nullopt));
  if (k == 0) {
    return square;
  }
  auto side = at::zeros({m, k}, self.scalar_type(), std::nullopt, self.device(), std::nullopt);
  auto band = at::zeros({k, m + k}, self.scalar_type(), std::nullopt, self.device(), std::nullopt);
  if (diagonal > 0) {  // above the main diagonal: k zero columns on the left, k zero rows below
    return at::cat({at::cat({side, square}, 1), band}, 0);
  }
  return at::cat({band, at::cat({square, side}, 1)}, 0);
}

Tensor& diag(const Tensor& self, int64_t diagonal, Tensor& out) {
  auto result = at::native::diag(self, diagonal);
  at::native::resize_output(out, result.sizes());
  return out.copy_(result);
}

// NumPy's names for transpose.
Tensor swapaxes(const Tensor& self, int64_t axis0, int64_t axis1) {
  return self.transpose(axis0, axis1);
}
Tensor& swapaxes_(Tensor& self, int64_t axis0, int64_t axis1) {
  return self.transpose_(axis0, axis1);
}
Tensor swapdims(const Tensor& self, int64_t dim0, int64_t dim1) {
  return self.transpose(dim0, dim1);
}
Tensor& swapdims_(Tensor& self, int64_t dim0, int64_t dim1) {
  return self.transpose_(dim0, dim1);
}

// The in-place views give self the sizes and strides of the view the functional form would
// return; storage, offset and data are untouched. (ADInplaceOrView bumps the version counter;
// autograd records TBackward1 etc. with the formula of derivatives.yaml.)
namespace {
Tensor& restride_as(Tensor& self, const Tensor& view) {
  self.unsafeGetTensorImpl()->set_sizes_and_strides(view.sizes(), view.strides());
  return self;
}
}  // namespace

Tensor& t_(Tensor& self) {
  TORCH_CHECK(self.dim() <= 2, "t_() expects a tensor with <= 2 dimensions, but self is ", self.dim(), "D");
  return restride_as(self, at::t(self));
}
Tensor& transpose_(Tensor& self, int64_t dim0, int64_t dim1) {
  return restride_as(self, at::transpose(self, dim0, dim1));
}
Tensor& squeeze_(Tensor& self) {
  return restride_as(self, at::squeeze(self));
}
Tensor& squeeze_(Tensor& self, int64_t dim) {
  return restride_as(self, at::squeeze(self, dim));
}
Tensor& squeeze_(Tensor& self, IntArrayRef dim) {
  return restride_as(self, at::squeeze(self, dim));
}
Tensor& unsqueeze_(Tensor& self, int64_t dim) {
  return restride_as(self, at::unsqueeze(self, dim));
}

// where(condition) with one argument is nonzero(condition, as_tuple=True).
std::vector<Tensor> where(const Tensor& condition) {
  return condition.nonzero_numpy();
}

}  // namespace at::native
