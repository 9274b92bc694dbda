// aten/src/ATen/TensorIndexing.cpp - t[...] lowered to views, at::index and at::index_put_.
// Mirrors PyTorch's aten/src/ATen/TensorIndexing.{h,cpp} (applySlicing and
// handleDimInMultiDimIndexing live in its header). Guide: docs/source/internals/tensors.rst.
#include <ATen/TensorIndexing.h>

#include <ATen/Functions.h>

#include <cstring>

namespace at::indexing {

const EllipsisIndexType Ellipsis = EllipsisIndexType();

TensorIndex::TensorIndex(const char* str) : TensorIndex(at::indexing::Ellipsis) {
  TORCH_CHECK_VALUE(std::strcmp(str, "...") == 0, "Expected \"...\" to represent an ellipsis index, but got \"",
                    str, "\"");
}

namespace impl {

Tensor applySelect(const Tensor& self, int64_t dim, int64_t index, int64_t real_dim) {
  TORCH_CHECK_INDEX(self.dim() > 0, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                    "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
  const int64_t size = self.size(dim);
  TORCH_CHECK_INDEX(index >= -size && index < size, "index ", index, " is out of bounds for dimension ", real_dim,
                    " with size ", size);
  return self.select(dim, index);
}

Tensor applySlice(const Tensor& self, int64_t dim, int64_t start, int64_t stop, int64_t step) {
  TORCH_CHECK_VALUE(step > 0, "step must be greater than zero");
  const int64_t length = self.size(dim);
  // t[:] and friends: nothing to slice (PyTorch skips the slice op too).
  if (start == 0 && stop >= length && step == 1) return self;
  return self.slice(dim, start, stop, step);
}

namespace {

// A bool index: True is a new dimension of size 1 indexed by [0], False one indexed by [].
Tensor boolToIndexingTensor(const Tensor& self, bool value) {
  if (value) return at::zeros({1}, kLong, std::nullopt, self.device(), std::nullopt);
  return at::empty({0}, kLong, std::nullopt, self.device(), std::nullopt, std::nullopt);
}

// The tensor index goes to slot *dim; a mask covers mask.dim() dimensions.
void recordTensorIndex(const Tensor& tensor, std::vector<Tensor>& outIndices, int64_t* dim) {
  if (static_cast<int64_t>(outIndices.size()) <= *dim) outIndices.resize(*dim + 1);
  outIndices[*dim] = tensor;
  const auto st = tensor.scalar_type();
  *dim += (st == kBool || st == kByte) ? tensor.dim() : 1;
}

// How many dimensions of self the indices consume (None, Ellipsis and bools consume none).
int64_t count_specified_dimensions(ArrayRef<TensorIndex> indices) {
  int64_t count = 0;
  for (const auto& obj : indices) {
    if (obj.is_tensor()) {
      const auto st = obj.tensor().scalar_type();
      count += (st == kByte || st == kBool) ? obj.tensor().dim() : 1;
    } else if (obj.is_slice() || obj.is_integer()) {
      count++;
    }
  }
  return count;
}

}  // namespace

Tensor applySlicing(const Tensor& self, ArrayRef<TensorIndex> indices, std::vector<Tensor>& outIndices) {
  int64_t dim = 0;
  const int64_t specified_dims = count_specified_dimensions(indices);
  TORCH_CHECK_INDEX(specified_dims <= self.dim(), "too many indices for tensor of dimension ", self.dim());
  Tensor result = self;
  for (int64_t i = 0; i < static_cast<int64_t>(indices.size()); i++) {
    const auto& obj = indices[i];
    if (obj.is_integer()) {
      result = applySelect(result, dim, obj.integer(), i);  // the dimension goes away
    } else if (obj.is_slice()) {
      result = applySlice(result, dim, obj.slice().start(), obj.slice().stop(), obj.slice().step());
      dim++;
    } else if (obj.is_ellipsis()) {
      dim += self.dim() - specified_dims;
    } else if (obj.is_none()) {
      result = result.unsqueeze(dim);
      dim++;
    } else if (obj.is_boolean()) {
      result = result.unsqueeze(dim);
      recordTensorIndex(boolToIndexingTensor(result, obj.boolean()), outIndices, &dim);
    } else {
      const Tensor& tensor = obj.tensor();
      const auto st = tensor.scalar_type();
      if (tensor.dim() == 0 && c10::isIntegralType(st, /*includeBool=*/true)) {
        if (st != kByte && st != kBool) {
          // t[torch.tensor(1)] is t[1]: a view
          result = applySelect(result, dim, tensor.item().to<int64_t>(), i);
        } else {
          result = result.unsqueeze(dim);
          recordTensorIndex(boolToIndexingTensor(result, tensor.item().to<bool>()), outIndices, &dim);
        }
      } else {
        recordTensorIndex(tensor, outIndices, &dim);
      }
    }
  }
  return result;
}

}  // namespace impl

namespace {

std::vector<std::optional<Tensor>> typeConvertIndices(const std::vector<Tensor>& indices) {
  std::vector<std::optional<Tensor>> converted;
  for (const auto& i : indices) {
    converted.push_back(i.defined() ? std::optional<Tensor>(i) : std::nullopt);
  }
  return converted;
}

// Leading 1s of the value's shape are dropped, so t[0] = ones(1, 3) works (PyTorch's
// value.view(slicePrefix1sSize(value.sizes())), as views that work for any strides).
Tensor slicePrefix1s(const Tensor& value) {
  Tensor v = value;
  while (v.dim() > 0 && v.size(0) == 1) v = v.select(0, 0);
  return v;
}

void copy_to(const Tensor& dst, const Tensor& src) {
  if (dst.sizes().equals(src.sizes())) {
    const_cast<Tensor&>(dst).copy_(src);
    return;
  }
  if (src.dim() == 0) {
    // fill_.Tensor: refuses an expanded destination, and autograd sees the value tensor.
    const_cast<Tensor&>(dst).fill_(src);
    return;
  }
  const_cast<Tensor&>(dst).copy_(slicePrefix1s(src).expand(dst.sizes()));
}

}  // namespace

Tensor get_item(const Tensor& self, ArrayRef<TensorIndex> indices, bool single_index) {
  // One basic index: straight to its view (no "too many indices" count - t[0] on a 0-d
  // tensor says "invalid index of a 0-dim tensor").
  if (single_index && indices.size() == 1) {
    const auto& obj = indices[0];
    if (obj.is_integer()) return impl::applySelect(self, 0, obj.integer(), 0);
    if (obj.is_none()) return self.unsqueeze(0);
    if (obj.is_ellipsis()) return at::alias(self);
  }
  std::vector<Tensor> tensorIndices;
  Tensor sliced = impl::applySlicing(self, indices, tensorIndices);
  if (tensorIndices.empty()) {
    // A new tensor object even for t[:], sharing the storage.
    return sliced.is_same(self) ? at::alias(sliced) : sliced;
  }
  return at::index(sliced, typeConvertIndices(tensorIndices));
}

void set_item(const Tensor& self, ArrayRef<TensorIndex> indices, const Tensor& value, bool single_index) {
  std::vector<Tensor> tensorIndices;
  Tensor sliced;
  if (single_index && indices.size() == 1 && indices[0].is_integer()) {
    sliced = impl::applySelect(self, 0, indices[0].integer(), 0);
  } else {
    sliced = impl::applySlicing(self, indices, tensorIndices);
  }
  if (tensorIndices.empty()) {
    copy_to(sliced, value);
  } else {
    Tensor valuesSliced = slicePrefix1s(value);
    Tensor dst = sliced;
    dst.index_put_(typeConvertIndices(tensorIndices), valuesSliced);
  }
  // The write is counted once, by the ADInplaceOrView kernel of copy_ or index_put_
  // (generated ADInplaceOrViewType.cpp), on the version counter self shares with its views.
}

void set_item(const Tensor& self, ArrayRef<TensorIndex> indices, const Scalar& value) {
  Tensor v = at::empty({}, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  v.fill_(value);
  set_item(self, indices, v);
}

}  // namespace at::indexing
