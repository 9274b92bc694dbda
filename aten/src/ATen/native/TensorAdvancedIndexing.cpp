// aten/src/ATen/native/TensorAdvancedIndexing.cpp - advanced indexing: index (t[idx]),
// index_put_ (t[idx] = v), index_select, gather, scatter, scatter_add, index_add_,
// index_fill_, masked_fill, masked_select, masked_scatter_, take, nonzero.
// Mirrors PyTorch's aten/src/ATen/native/TensorAdvancedIndexing.cpp (with make_info and
// AdvancedIndex from its TensorAdvancedIndexingUtils.h / IndexingUtils.h).
// Guide: docs/source/internals/tensors.rst.
//
// How t[i, j] with index tensors becomes one TensorIterator loop (make_info + AdvancedIndex):
//   1. bool masks become long indices (mask.nonzero(), one column per masked dimension);
//   2. the index tensors broadcast to one shape B;
//   3. if they are not adjacent (t[i, :, j]) the indexed dimensions move to the front -
//      NumPy's placement rule: separated advanced indices put B first;
//   4. src is "restrided": the indexed dimensions are replaced by B's dimensions with
//      stride 0, so the iterator walks the result's shape over src without moving;
//   5. each index is viewed with 1s around it, to broadcast against that shape;
//   6. the kernel (cpu/IndexKernel.cpp) adds sum(index_k * stride_k) to the src pointer.
#include <ATen/native/IndexKernel.h>
#include <ATen/native/Resize.h>
#include <ATen/native/TensorAdvancedIndexing.h>
#include <ATen/MemoryOverlap.h>

#include <ATen/Dispatch.h>
#include <ATen/ExpandUtils.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/Parallel.h>
#include <ATen/TensorIterator.h>
#include <c10/core/WrapDimMinimal.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <sstream>
#include <optional>
#include <vector>

namespace at::native {

DEFINE_DISPATCH(masked_fill_stub);
DEFINE_DISPATCH(index_stub);
DEFINE_DISPATCH(index_put_stub);
DEFINE_DISPATCH(take_stub);
DEFINE_DISPATCH(gather_stub);
DEFINE_DISPATCH(scatter_stub);
DEFINE_DISPATCH(scatter_fill_stub);

namespace {

// PyTorch's is_expandable_to (ExpandUtils.h): shape broadcasts to desired without changing it.
bool is_expandable_to(IntArrayRef shape, IntArrayRef desired) {
  const size_t ndim = shape.size();
  const size_t target_dim = desired.size();
  if (ndim > target_dim) return false;
  for (size_t i = 0; i < ndim; i++) {
    const int64_t size = shape[ndim - i - 1];
    const int64_t target = desired[target_dim - i - 1];
    if (size != target && size != 1) return false;
  }
  return true;
}

Tensor empty_of(IntArrayRef shape, ScalarType dtype, const Tensor& like) {
  return at::empty(shape, dtype, std::nullopt, like.device(), std::nullopt, std::nullopt);
}

// ---- IndexingUtils.h ---------------------------------------------------------------------

// Bool (and uint8) masks become long indices, one per masked dimension (mask.nonzero()'s
// columns); the mask's shape must match the dimensions it covers.
std::vector<Tensor> expandTensors(const Tensor& self, ArrayRef<std::optional<Tensor>> indices) {
  std::vector<Tensor> result;
  for (const auto& index_opt : indices) {
    if (!index_opt.has_value() || !index_opt->defined()) {
      result.emplace_back();
      continue;
    }
    const Tensor& index = *index_opt;
    const auto st = index.scalar_type();
    TORCH_CHECK_INDEX(st == kLong || st == kInt || st == kByte || st == kBool,
                      "tensors used as indices must be long, int, byte or bool tensors");
    if (st == kByte || st == kBool) {
      for (int64_t j = 0; j < index.dim(); j++) {
        const int64_t srcIdx = static_cast<int64_t>(result.size()) + j;
        TORCH_CHECK_INDEX(srcIdx < self.dim() && index.size(j) == self.size(srcIdx), "The shape of the mask ",
                          index.sizes(), " at index ", j, " does not match the shape of the indexed tensor ",
                          self.sizes(), " at index ", srcIdx);
      }
      Tensor nonzero = (st == kByte ? index.ne(0) : index).nonzero();
      for (int64_t j = 0; j < index.dim(); j++) {
        result.push_back(nonzero.select(1, j));
      }
    } else {
      result.push_back(index.scalar_type() == kLong ? index : index.to(kLong));
    }
  }
  return result;
}

// Broadcast the defined indices to one shape (expand_outplace, with indexing's message).
void broadcastIndices(std::vector<Tensor>& indices) {
  std::optional<std::vector<int64_t>> shape;
  for (const auto& index : indices) {
    if (!index.defined()) continue;
    if (!shape) {
      shape = index.sizes().vec();
      continue;
    }
    try {
      shape = infer_size(*shape, index.sizes());
    } catch (const c10::Error&) {
      std::ostringstream shapes;
      bool first = true;
      for (const auto& i : indices) {
        if (!i.defined()) continue;
        shapes << (first ? "" : ", ") << i.sizes();
        first = false;
      }
      TORCH_CHECK_INDEX(false, "shape mismatch: indexing tensors could not be broadcast together with shapes ",
                        shapes.str());
    }
  }
  for (auto& index : indices) {
    if (index.defined() && index.sizes() != IntArrayRef(*shape)) index = index.expand(*shape);
  }
}

// True if the defined indices are adjacent (t[:, i, j]), false for t[i, :, j].
bool hasContiguousSubspace(const std::vector<Tensor>& tl) {
  auto isDefined = [](const Tensor& t) { return t.defined(); };
  auto start = std::find_if(tl.begin(), tl.end(), isDefined);
  auto stop = std::find_if(tl.rbegin(), tl.rend(), isDefined);
  auto it = std::find_if_not(start, stop.base(), isDefined);
  return it == stop.base();
}

// t[i, :, j] -> t.permute(0, 2, 1)[i, j, :]: the indexed dimensions first, in order.
std::tuple<Tensor, std::vector<Tensor>> transposeToFront(const Tensor& self, const std::vector<Tensor>& indices) {
  std::vector<int64_t> dims;
  std::vector<Tensor> transposedIndices;
  for (int64_t i = 0; i < self.dim(); i++) {
    if (indices[i].defined()) {
      dims.push_back(i);
      transposedIndices.push_back(indices[i]);
    }
  }
  for (int64_t i = 0; i < self.dim(); i++) {
    if (!indices[i].defined()) {
      dims.push_back(i);
      transposedIndices.emplace_back();
    }
  }
  return std::make_tuple(self.permute(dims), std::move(transposedIndices));
}

// ---- AdvancedIndex --------------------------------------------------------------------------

struct AdvancedIndex {
  AdvancedIndex(const Tensor& src, const std::vector<Tensor>& indices_list);

  Tensor src;                    // restrided: indexed dims replaced by the index shape, stride 0
  std::vector<Tensor> indices;   // each viewed with 1s before and after, to broadcast with src
  std::vector<int64_t> indexed_sizes;
  std::vector<int64_t> indexed_strides;  // bytes
  int64_t dims_before = 0;
  int64_t dims_after = 0;
};

AdvancedIndex::AdvancedIndex(const Tensor& src_, const std::vector<Tensor>& indices_list) {
  const int64_t element_size_bytes = src_.element_size();
  int64_t dims_indexed = 0;
  std::vector<int64_t> replacement_shape;
  for (int64_t dim = 0; dim < static_cast<int64_t>(indices_list.size()); dim++) {
    if (!indices_list[dim].defined()) {
      if (dims_indexed == 0) {
        dims_before++;
      } else {
        dims_after++;
      }
    } else {
      dims_indexed++;
      replacement_shape = indices_list[dim].sizes().vec();
      indexed_sizes.push_back(src_.size(dim));
      indexed_strides.push_back(src_.stride(dim) * element_size_bytes);
    }
  }
  // An indexed dimension of size 0 has no valid index: only an empty index can be right.
  if (std::find(indexed_sizes.begin(), indexed_sizes.end(), 0) != indexed_sizes.end() &&
      std::find(replacement_shape.begin(), replacement_shape.end(), 0) == replacement_shape.end()) {
    TORCH_CHECK_INDEX(false, "index is out of bounds for dimension with size 0");
  }
  // restride_src
  std::vector<int64_t> shape = src_.sizes().vec();
  std::vector<int64_t> strides = src_.strides().vec();
  const int64_t end = dims_before + dims_indexed;
  shape.erase(shape.begin() + dims_before, shape.begin() + end);
  strides.erase(strides.begin() + dims_before, strides.begin() + end);
  shape.insert(shape.begin() + dims_before, replacement_shape.begin(), replacement_shape.end());
  strides.insert(strides.begin() + dims_before, replacement_shape.size(), 0);
  src = src_.as_strided(shape, strides, src_.storage_offset());
  // reshape_indexer
  for (const auto& index : indices_list) {
    if (!index.defined()) continue;
    std::vector<int64_t> ishape(dims_before, 1);
    ishape.insert(ishape.end(), index.sizes().begin(), index.sizes().end());
    ishape.insert(ishape.end(), dims_after, 1);
    indices.push_back(index.contiguous().view(ishape));
  }
}

AdvancedIndex make_info(Tensor self, ArrayRef<std::optional<Tensor>> orig) {
  auto indices = expandTensors(self, orig);
  broadcastIndices(indices);
  while (static_cast<int64_t>(indices.size()) < self.dim()) indices.emplace_back();
  if (!hasContiguousSubspace(indices)) {
    std::tie(self, indices) = transposeToFront(self, indices);
  }
  return AdvancedIndex(self, indices);
}

void check_indices_count(const Tensor& self, ArrayRef<std::optional<Tensor>> indices) {
  TORCH_CHECK_INDEX(static_cast<int64_t>(indices.size()) <= self.dim(), "too many indices for tensor of dimension ",
                    self.dim(), " (got ", indices.size(), ")");
}

}  // namespace

Tensor index(const Tensor& self, ArrayRef<std::optional<Tensor>> indices) {
  check_indices_count(self, indices);
  auto info = make_info(self, indices);
  TensorIteratorConfig config;
  config.set_check_mem_overlap(false)
      .check_all_same_dtype(false)
      .declare_static_dtype(self.scalar_type())
      .add_output(Tensor())
      .add_const_input(info.src);
  for (auto& index : info.indices) config.add_const_input(index);
  auto iter = config.build();
  index_stub(iter.device_type(), iter, info.indexed_sizes, info.indexed_strides);
  return iter.output();
}

Tensor& index_put_(Tensor& self, ArrayRef<std::optional<Tensor>> indices, const Tensor& value, bool accumulate) {
  check_indices_count(self, indices);
  TORCH_CHECK(value.scalar_type() == self.scalar_type(), "Index put requires the source and destination dtypes match, got ",
              self.scalar_type(), " for the destination and ", value.scalar_type(), " for the source.");
  auto info = make_info(self, indices);
  // The value must broadcast to the indexing result (src restrided); it is never resized.
  TORCH_CHECK(is_expandable_to(value.sizes(), info.src.sizes()), "shape mismatch: value tensor of shape ", value.sizes(),
              " cannot be broadcast to indexing result of shape ", info.src.sizes());
  TensorIteratorConfig config;
  config.set_check_mem_overlap(false)
      .resize_outputs(false)
      .check_all_same_dtype(false)
      .add_output(info.src)
      .add_const_input(value);
  for (auto& index : info.indices) config.add_const_input(index);
  auto iter = config.build();
  index_put_stub(iter.device_type(), iter, info.indexed_sizes, info.indexed_strides, accumulate);
  return self;
}

Tensor index_put(const Tensor& self, ArrayRef<std::optional<Tensor>> indices, const Tensor& value, bool accumulate) {
  return self.clone().index_put_(indices, value, accumulate);
}

// ---- index_select / index_add_ / index_fill_: whole slices along one dimension ------------

namespace {
Tensor index_as_long_vector(const Tensor& index, const char* op) {
  TORCH_CHECK_INDEX(index.dim() <= 1, op, "(): Index is supposed to be a vector");
  return (index.scalar_type() == kLong ? index : index.to(kLong)).contiguous();
}
}  // namespace

Tensor& index_select_out_cpu_(const Tensor& self, int64_t dim, const Tensor& index, Tensor& result) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(index.scalar_type() == kLong || index.scalar_type() == kInt,
              "index_select(): Expected dtype int32 or int64 for index");
  auto idx = index_as_long_vector(index, "index_select");
  TORCH_CHECK(self.dim() > 0 || idx.numel() == 1, "index_select(): Index to scalar can have only 1 value, got ",
                    idx.numel(), " value(s)");
  at::assert_no_internal_overlap(result);
  at::assert_no_overlap(result, self);
  at::assert_no_overlap(result, index);
  std::vector<int64_t> shape = self.sizes().vec();
  if (self.dim() > 0) shape[dim] = idx.numel();
  const int64_t size = self.dim() > 0 ? self.size(dim) : 1;
  // An empty axis of a tensor of 2 or more dims is its own error; in 0-d and 1-d tensors the
  // bounds check below reports it (an IndexError), as PyTorch's CPU kernel does.
  TORCH_CHECK(self.dim() <= 1 || size > 0 || idx.numel() == 0, "index_select(): self indexing axis dim should be positive");
  const int64_t* p = idx.data_ptr<int64_t>();
  // Every index is checked before the result is touched. PyTorch's CPU kernel words it two
  // ways: along dim 1 of a tensor of 2 or more dims its row-gathering loop raises a
  // RuntimeError, everywhere else an IndexError.
  for (int64_t i = 0; i < idx.numel(); i++) {
    if (self.dim() > 1 && dim == 1) {
      TORCH_CHECK(p[i] >= 0 && p[i] < size, "INDICES element is out of DATA bounds, id=", p[i], " axis_dim=", size);
    }
    TORCH_CHECK_INDEX(p[i] >= 0 && p[i] < size, "index out of range in self");
  }
  result.resize_(shape);
  // A contiguous self into a contiguous result (PyTorch's index_select_out_cpu_ has the same
  // fast path): each selected slice is `inner` consecutive elements, so the whole operation
  // is outer x n memcpys, shared between threads. The general path below builds a
  // TensorIterator per index, about half a microsecond each before any byte moves.
  if (self.dim() > 0 && self.is_contiguous() && result.is_contiguous() && self.device().is_cpu() &&
      result.scalar_type() == self.scalar_type() && result.numel() > 0) {
    const int64_t n = idx.numel();
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; d++) outer *= self.size(d);
    for (int64_t d = dim + 1; d < self.dim(); d++) inner *= self.size(d);
    const size_t item = self.element_size();
    const size_t slice_bytes = static_cast<size_t>(inner) * item;
    const char* src = static_cast<const char*>(self.const_data_ptr());
    char* dst = static_cast<char*>(result.data_ptr());
    at::parallel_for(0, outer * n, std::max<int64_t>(1, at::internal::GRAIN_SIZE / std::max<int64_t>(inner, 1)),
                     [&](int64_t begin, int64_t end) {
                       for (int64_t k = begin; k < end; k++) {
                         const int64_t o = k / n, i = k % n;
                         std::memcpy(dst + static_cast<size_t>(k) * slice_bytes,
                                     src + static_cast<size_t>(o * size + p[i]) * slice_bytes, slice_bytes);
                       }
                     });
    return result;
  }
  for (int64_t i = 0; i < idx.numel(); i++) {
    if (self.dim() == 0) {
      result.copy_(self);
    } else {
      result.select(dim, i).copy_(self.select(dim, p[i]));
    }
  }
  return result;
}

Tensor index_select_cpu_(const Tensor& self, int64_t dim, const Tensor& index) {
  Tensor result = empty_of({0}, self.scalar_type(), self);
  return index_select_out_cpu_(self, dim, index, result);
}

// index_add_'s checks, shared with the CUDA kernel (cuda/IndexKernel.cu); returns dim wrapped.
int64_t index_add_check(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK_INDEX(index.dim() <= 1, "index_add_(): Index is supposed to be a vector, but got dim: ", index.dim(),
                    " with type: ", c10::toString(index.scalar_type()), " and size: ", index.sizes());
  TORCH_CHECK(index.scalar_type() == kLong || index.scalar_type() == kInt,
              "index_add_(): Expected dtype int32/int64 for index but got: ", c10::toString(index.scalar_type()));
  TORCH_CHECK(self.scalar_type() == source.scalar_type(), "index_add_(): self (", c10::toString(self.scalar_type()),
              ") and source (", c10::toString(source.scalar_type()), ") must have the same scalar type");
  at::assert_no_internal_overlap(self);
  at::assert_no_overlap(self, index);
  at::assert_no_overlap(self, source);
  TORCH_CHECK(dim == 0 || dim < source.dim(), "index_add_(): Indexing dim ", dim,
              " is out of bounds of the source tensor with dim ", source.dim());
  const int64_t n = source.dim() > 0 ? source.size(dim) : 1;
  TORCH_CHECK(index.numel() == n, "index_add_(): Number of indices (", index.numel(),
              ") should be equal to source.size(dim): (", n, "), for dim: ", dim);
  // Every dimension but `dim` must match, even when there is nothing to add (PyTorch's
  // index_func_meta_impl).
  std::vector<int64_t> self_sizes = self.sizes().vec();
  std::vector<int64_t> source_sizes = source.sizes().vec();
  if (source.dim() != 0 && self.dim() != 0) {
    self_sizes.erase(self_sizes.begin() + dim);
    source_sizes.erase(source_sizes.begin() + dim);
  }
  TORCH_CHECK(self_sizes == source_sizes,
              "source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = ",
              self.sizes(), " source.shape = ", source.sizes());
  return dim;
}

Tensor& index_add_cpu_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  dim = index_add_check(self, dim, index, source);
  auto idx = index_as_long_vector(index, "index_add_");
  const int64_t size = self.dim() > 0 ? self.size(dim) : 1;
  const int64_t* p = idx.data_ptr<int64_t>();
  for (int64_t i = 0; i < idx.numel(); i++) {
    TORCH_CHECK_INDEX(p[i] >= 0 && p[i] < size, "index out of range in self");
    Tensor dst = self.dim() > 0 ? self.select(dim, p[i]) : self;
    dst.add_(source.dim() > 0 ? source.select(dim, i) : source, alpha);
  }
  return self;
}

Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  return self.clone().index_add_(dim, index, source, alpha);
}

Tensor& index_fill_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK_INDEX(index.scalar_type() == kLong, "index_fill_(): Expected dtype int64 for index.");
  TORCH_CHECK(index.dim() <= 1, "Index has to be a vector/scalar");
  auto idx = index_as_long_vector(index, "index_fill_");
  const int64_t size = self.dim() > 0 ? self.size(dim) : 1;
  const int64_t* p = idx.data_ptr<int64_t>();
  for (int64_t i = 0; i < idx.numel(); i++) {
    int64_t k = p[i];
    TORCH_CHECK_INDEX(k >= -size && k < size, "index ", k, " is out of bounds for dimension ", dim, " with size ", size);
    if (k < 0) k += size;
    (self.dim() > 0 ? self.select(dim, k) : self).fill_(value);
  }
  return self;
}

Tensor& index_fill_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "index_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
  return index_fill_(self, dim, index, value.item());
}

Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return self.clone().index_fill_(dim, index, value);
}

Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  return self.clone().index_fill_(dim, index, value);
}

// ---- gather / scatter ----------------------------------------------------------------------

namespace {

// self viewed in index's shape with stride 0 along dim (PyTorch's restride_dim).
Tensor restride_dim(const Tensor& src, int64_t dim, IntArrayRef replacement_shape) {
  std::vector<int64_t> strides = src.strides().vec();
  if (!strides.empty()) strides[dim] = 0;
  return src.as_strided(replacement_shape, strides, src.storage_offset());
}

int64_t dim_size(const Tensor& t, int64_t dim) {
  return t.dim() == 0 ? 1 : t.size(dim);
}
int64_t dim_stride_bytes(const Tensor& t, int64_t dim) {
  return (t.dim() == 0 ? 0 : t.stride(dim)) * t.element_size();
}

void gather_shape_check(const Tensor& self, int64_t dim, const Tensor& index) {
  TORCH_CHECK(std::max<int64_t>(self.dim(), 1) == std::max<int64_t>(index.dim(), 1),
              "Index tensor must have the same number of dimensions as input tensor");
  for (int64_t d = 0; d < index.dim(); d++) {
    if (d == dim) continue;
    TORCH_CHECK(index.size(d) <= dim_size(self, d), "Size does not match at dimension ", d, " expected index ",
                index.sizes(), " to be no larger than self ", self.sizes(), " apart from dimension ", dim);
  }
}

void scatter_shape_check(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src) {
  TORCH_CHECK(std::max<int64_t>(self.dim(), 1) == std::max<int64_t>(index.dim(), 1),
              "Index tensor must have the same number of dimensions as self tensor");
  if (src) {
    TORCH_CHECK(std::max<int64_t>(src->dim(), 1) == std::max<int64_t>(index.dim(), 1),
                "Index tensor must have the same number of dimensions as src tensor");
  }
  bool ok = true;
  for (int64_t d = 0; d < index.dim(); d++) {
    if (d != dim && index.size(d) > dim_size(self, d)) ok = false;
    if (src && index.size(d) > dim_size(*src, d)) ok = false;
  }
  if (!ok) {
    if (src) {
      TORCH_CHECK(false, "Expected index ", index.sizes(), " to be no larger than self ", self.sizes(),
                  " apart from dimension ", dim, " and to be no larger size than src ", src->sizes());
    }
    TORCH_CHECK(false, "Expected index ", index.sizes(), " to be no larger than self ", self.sizes(),
                " apart from dimension ", dim);
  }
}

ReductionType get_reduction(std::optional<c10::string_view> reduce) {
  if (!reduce) return ReductionType::NONE;
  if (*reduce == "add") return ReductionType::ADD;
  if (*reduce == "multiply") return ReductionType::MULTIPLY;
  TORCH_CHECK(false, "reduce argument must be either add or multiply.");
}

Tensor& scatter_impl(Tensor& self, int64_t dim, const Tensor& index, const Tensor* src,
                     const Scalar* value, ReductionType reduce, const char* name) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(index.scalar_type() == kLong, name, "(): Expected dtype int64 for index");
  if (src) {
    TORCH_CHECK(src->scalar_type() == self.scalar_type(), name, "(): Expected self.dtype to be equal to src.dtype");
  }
  scatter_shape_check(self, dim, index, src);
  // As PyTorch's scatter meta functions: self is written through index, so no two of its
  // elements may share memory, and neither index nor src may be read from what is written.
  at::assert_no_internal_overlap(self);
  at::assert_no_overlap(self, index);
  if (src) {
    at::assert_no_overlap(self, *src);
  }
  if (index.numel() == 0) return self;
  Tensor idx = index.dim() == 0 && self.dim() == 1 ? index.unsqueeze(0) : index;
  Tensor self_restrided = restride_dim(self, dim, idx.sizes());
  TensorIteratorConfig config;
  config.set_check_mem_overlap(false).check_all_same_dtype(false).resize_outputs(false).add_output(self_restrided);
  if (src) {
    Tensor s = src->dim() == 0 && idx.dim() == 1 ? src->unsqueeze(0) : *src;
    config.add_const_input(s.as_strided(idx.sizes(), s.strides(), s.storage_offset()));
  }
  config.add_const_input(idx);
  auto iter = config.build();
  if (src) {
    scatter_stub(iter.device_type(), iter, dim, dim_size(self, dim), dim_stride_bytes(self, dim), reduce);
  } else {
    scatter_fill_stub(iter.device_type(), iter, dim, dim_size(self, dim), dim_stride_bytes(self, dim), *value, reduce);
  }
  return self;
}

}  // namespace

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(index.scalar_type() == kLong || index.scalar_type() == kInt,
              "gather(): Expected dtype int32/int64 for index");
  gather_shape_check(self, dim, index);
  Tensor idx = index.scalar_type() == kLong ? index : index.to(kLong);
  Tensor result = empty_of(idx.sizes(), self.scalar_type(), self);
  if (idx.numel() == 0) return result;
  auto iter = TensorIteratorConfig()
                  .set_check_mem_overlap(false)
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .add_output(result)
                  .add_const_input(restride_dim(self, dim, idx.sizes()))
                  .add_const_input(idx)
                  .build();
  gather_stub(iter.device_type(), iter, dim, dim_size(self, dim), dim_stride_bytes(self, dim));
  return result;
}

Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_impl(self, dim, index, &src, nullptr, ReductionType::NONE, "scatter");
}
Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return scatter_impl(self, dim, index, nullptr, &value, ReductionType::NONE, "scatter");
}
Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, c10::string_view reduce) {
  return scatter_impl(self, dim, index, &src, nullptr, get_reduction(reduce), "scatter");
}
Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value, c10::string_view reduce) {
  return scatter_impl(self, dim, index, nullptr, &value, get_reduction(reduce), "scatter");
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return self.clone().scatter_(dim, index, src);
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return self.clone().scatter_(dim, index, value);
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, c10::string_view reduce) {
  return self.clone().scatter_(dim, index, src, reduce);
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value, c10::string_view reduce) {
  return self.clone().scatter_(dim, index, value, reduce);
}
Tensor& scatter_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return scatter_impl(self, dim, index, &src, nullptr, ReductionType::ADD, "scatter_add");
}
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return self.clone().scatter_add_(dim, index, src);
}

// ---- masks -------------------------------------------------------------------------------------

// self[mask] = value. The iterator's output is self (never resized) and its input the bool
// mask, broadcast to self's shape; the kernel writes only where the mask is true.
Tensor& masked_fill__cpu(Tensor& self, const Tensor& mask, const Scalar& value) {
  TORCH_CHECK(mask.scalar_type() == ScalarType::Bool, "masked_fill_ only supports boolean masks, but got mask with dtype ",
              mask.dtype());
  auto iter = TensorIteratorConfig()
                  .set_check_mem_overlap(false)
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .add_output(self)
                  .add_const_input(mask)
                  .build();
  masked_fill_stub(iter.device_type(), iter, value);
  return self;
}

Tensor& masked_fill__cpu(Tensor& self, const Tensor& mask, const Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
  return masked_fill__cpu(self, mask, value.item());
}

// Out of place: a copy of self in the broadcast shape of self and mask, then filled.
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& source) {
  auto shape = infer_size(self.sizes(), mask.sizes());
  Tensor result = at::empty(shape, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  result.copy_(self);
  result.masked_fill_(mask, source);
  return result;
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& source) {
  auto shape = infer_size(self.sizes(), mask.sizes());
  Tensor result = at::empty(shape, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  result.copy_(self);
  result.masked_fill_(mask, source);
  return result;
}

// self and mask broadcast together; the selected elements in row-major order, 1-D.
Tensor masked_select_cpu(const Tensor& self, const Tensor& mask) {
  TORCH_CHECK(mask.scalar_type() == kBool, "masked_select: expected BoolTensor for mask");
  auto shape = infer_size(self.sizes(), mask.sizes());
  Tensor s = self.expand(shape);
  Tensor m = mask.expand(shape);
  if (s.dim() == 0) {
    s = s.unsqueeze(0);
    m = m.unsqueeze(0);
  }
  return at::index(s, {std::optional<Tensor>(m)});
}

// Where mask is true, the next element of source (row-major): self[mask] = source[:count].
Tensor& masked_scatter__cpu(Tensor& self, const Tensor& mask, const Tensor& source) {
  TORCH_CHECK(mask.scalar_type() == kBool, "masked_scatter_ only supports boolean masks, but got mask with dtype ",
              mask.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(),
              "masked_scatter: expected self and source to have same dtypes but got", self.scalar_type(), " and ",
              source.scalar_type());
  Tensor m = mask.expand(self.sizes());
  if (self.dim() == 0) {
    if (m.item().to<bool>()) self.copy_(source.contiguous().view({-1}).select(0, 0));
    return self;
  }
  Tensor positions = m.nonzero();
  const int64_t count = positions.size(0);
  TORCH_CHECK(source.numel() >= count, "Number of elements of source < number of ones in mask");
  Tensor flat = source.contiguous().view({-1}).narrow(0, 0, count);
  self.index_put_({std::optional<Tensor>(m)}, flat);
  return self;
}

Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  auto shape = infer_size(self.sizes(), mask.sizes());
  Tensor result = at::empty(shape, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  result.copy_(self);
  return result.masked_scatter_(mask, source);
}

// ---- take / nonzero ---------------------------------------------------------------------------

Tensor take(const Tensor& self, const Tensor& index) {
  TORCH_CHECK(index.scalar_type() == kLong, "take(): Expected a long tensor for index, but got ", index.scalar_type());
  Tensor result = empty_of(index.sizes(), self.scalar_type(), self);
  if (index.numel() == 0) return result;
  TORCH_CHECK_INDEX(self.numel() > 0, "take(): tried to take from an empty tensor");
  Tensor src = self.contiguous();
  auto iter = TensorIteratorConfig()
                  .set_check_mem_overlap(false)
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .add_output(result)
                  .add_const_input(index)
                  .build();
  take_stub(iter.device_type(), iter, src);
  return result;
}

// The coordinates of the nonzero elements, one row each, in row-major order: [n, self.dim()].
Tensor nonzero_cpu(const Tensor& self) {
  Tensor flags = (self.scalar_type() == kBool ? self : self.ne(0)).contiguous();
  const bool* p = flags.data_ptr<bool>();
  const int64_t numel = flags.numel();
  const int64_t ndim = self.dim();
  int64_t count = 0;
  for (int64_t i = 0; i < numel; i++) count += p[i] ? 1 : 0;
  Tensor result = empty_of({count, ndim}, kLong, self);
  int64_t* out = result.data_ptr<int64_t>();
  std::vector<int64_t> coord(ndim, 0);
  for (int64_t i = 0; i < numel; i++) {
    if (p[i]) {
      std::copy(coord.begin(), coord.end(), out);
      out += ndim;
    }
    // the next coordinate, last dimension fastest
    for (int64_t d = ndim - 1; d >= 0; d--) {
      if (++coord[d] < self.size(d)) break;
      coord[d] = 0;
    }
  }
  return result;
}

// torch.nonzero(t, as_tuple=True): one index tensor per dimension (a 0-d tensor counts as 1-d).
std::vector<Tensor> nonzero_numpy(const Tensor& self) {
  if (self.dim() == 0) return self.unsqueeze(0).nonzero().unbind(1);
  return self.nonzero().unbind(1);
}

Tensor argwhere(const Tensor& self) {
  return self.nonzero();
}

}  // namespace at::native

// ---- take_along_dim, index_copy, put ----
namespace at::native {

// take_along_dim(x, idx, dim): gather after broadcasting x and idx against each other in
// every dimension but dim; without dim, both are flattened.
Tensor take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> opt_dim) {
  TORCH_CHECK(self.device() == indices.device(),
              "torch.take_along_dim(): Expected all tensors to be on the same device, but found at least two devices, ",
              self.device(), " and ", indices.device(), "!");
  if (!opt_dim.has_value()) {
    return self.view(-1).gather(0, indices.view(-1));
  }
  TORCH_CHECK(self.dim() == indices.dim(),
              "torch.take_along_dim(): input and indices should have the same number of dimensions, but got ",
              self.dim(), " dimensions for input, and ", indices.dim(), " dimensions for indices");
  TORCH_CHECK(indices.scalar_type() == kLong, "torch.take_along_dim(): dtype of indices should be Long but got ",
              indices.scalar_type());
  const int64_t dim = c10::maybe_wrap_dim(*opt_dim, self.dim());
  auto self_sizes = self.sizes().vec();
  self_sizes[dim] = indices.size(dim);
  auto indices_broadcasted = indices.expand(at::infer_size(self_sizes, indices.sizes()));
  auto indices_sizes = indices.sizes().vec();
  indices_sizes[dim] = self.size(dim);
  auto self_broadcasted = self.expand(at::infer_size(indices_sizes, self.sizes()));
  return self_broadcasted.gather(dim, indices_broadcasted);
}

Tensor& take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> opt_dim, Tensor& out) {
  auto result = at::native::take_along_dim(self, indices, opt_dim);
  at::native::resize_output(out, result.sizes());
  return out.copy_(result);
}

namespace {
// "2 4" for [2, 4], as PyTorch prints the slice shapes.
std::string sizes_string(const std::vector<int64_t>& sizes) {
  std::ostringstream ss;
  for (size_t i = 0; i < sizes.size(); ++i) {
    ss << (i ? " " : "") << sizes[i];
  }
  return ss.str();
}

void index_copy_check(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  TORCH_CHECK_INDEX(index.dim() < 2, "index_copy_(): Index should have dimension 1 or 0 (got ", index.dim(), ")");
  const int64_t num_indices = index.numel();
  if (source.dim() == 0 && num_indices != 1) {
    TORCH_CHECK_INDEX(false, "index_copy_(): When source is scalar, index should have one element (got ", num_indices,
                      ")");
  } else if (source.dim() != self.dim() && source.dim() != 0 && self.dim() != 0) {
    TORCH_CHECK_INDEX(false,
                      "index_copy_(): When source and destination are not scalars, their dimensionality must match. "
                      "Source dimensionality (",
                      source.dim(), "), destination dimensionality (", self.dim(), ")");
  }
  TORCH_CHECK(index.scalar_type() == kLong, "index_copy_(): Expected a long tensor for index, but got ",
              index.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(),
              "index_copy_(): self and source expected to have the same dtype, but got (self) ", self.scalar_type(),
              " and (source) ", source.scalar_type());
  TORCH_CHECK(self.device() == source.device() && self.device() == index.device(),
              "index_copy_(): self, index and source expected to be in the same device, but got (self) ",
              self.device(), ", (index) ", index.device(), ", and (source) ", source.device());
  auto self_sliced = self.sizes().vec();
  if (!self_sliced.empty()) {
    self_sliced.erase(self_sliced.begin() + dim);
  }
  auto source_sliced = source.sizes().vec();
  if (!source_sliced.empty()) {
    source_sliced.erase(source_sliced.begin() + dim);
  }
  TORCH_CHECK(self_sliced == source_sliced,
              "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: ",
              sizes_string(self_sliced), " at dimension ", dim, " and source slice shape: ", sizes_string(source_sliced),
              " at dimension 0.");
  TORCH_CHECK_INDEX(source.dim() == 0 || num_indices == source.size(dim), "index_copy_(): Number of indices (",
                    num_indices, ") should be equal to source.size(dim) (", source.size(dim), ")");
}
}  // namespace

// self[..., index[i], ...] = source[..., i, ...] along dim, one slice at a time (copy_
// serves every device; the indices are read on the host).
Tensor& index_copy_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  index_copy_check(self, dim, index, source);
  auto idx = index.reshape(-1).to(Device(kCPU), kLong).contiguous();
  const int64_t* data = idx.const_data_ptr<int64_t>();
  const int64_t dim_size = self.dim() == 0 ? 1 : self.size(dim);
  for (int64_t i = 0; i < idx.numel(); ++i) {
    TORCH_CHECK_INDEX(data[i] >= 0 && data[i] < dim_size, "index_copy_(): index ", data[i],
                      " is out of bounds for dimension ", dim, " with size ", dim_size);
  }
  for (int64_t i = 0; i < idx.numel(); ++i) {
    Tensor dst = self.dim() == 0 ? self : self.select(dim, data[i]);
    Tensor src = source.dim() == 0 ? source : source.select(dim, i);
    dst.copy_(src);
  }
  return self;
}

Tensor& index_copy_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, Tensor& out) {
  if (!out.is_same(self)) {
    at::native::resize_output(out, self.sizes());
    out.copy_(self);
  }
  return at::native::index_copy_(out, dim, index, source);
}

Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  Tensor result = self.clone();
  return at::native::index_copy_(result, dim, index, source);
}

// put_: self viewed as 1-D (row-major) takes source at the flat indices; negative indices
// count from the end. accumulate=True adds instead (repeated indices add up).
Tensor& put_(Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  TORCH_CHECK(index.scalar_type() == kLong, "put_(): Expected a long tensor for index, but got ",
              index.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(),
              "put_(): self and source expected to have the same dtype, but got self.dtype = ", self.scalar_type(),
              " and source.dtype = ", source.scalar_type());
  TORCH_CHECK(self.device() == source.device() && self.device() == index.device(),
              "put_(): self, index and source expected to be in the same device, but got self.device = ",
              self.device(), ", index.device = ", index.device(), ", and source.device = ", source.device());
  TORCH_CHECK_INDEX(index.numel() == source.numel(),
                    "put_(): Expected source and index to have the same number of elements, but got source.numel() = ",
                    source.numel(), ", index.numel() = ", index.numel());
  TORCH_CHECK_INDEX(!(self.numel() == 0 && index.numel() != 0), "put_(): Tried to put elements into an empty tensor");
  if (index.numel() == 0) {
    return self;
  }
  const int64_t numel = self.numel();
  auto idx = index.reshape(-1).to(Device(kCPU), kLong).contiguous().clone();
  int64_t* data = idx.mutable_data_ptr<int64_t>();
  for (int64_t i = 0; i < idx.numel(); ++i) {
    TORCH_CHECK_INDEX(data[i] >= -numel && data[i] < numel, "out of range: tried to access index ", data[i],
                      " on a tensor of ", numel, " elements.");
    if (data[i] < 0) {
      data[i] += numel;
    }
  }
  idx = idx.to(self.device(), kLong);
  const bool contiguous = self.is_contiguous();
  Tensor flat = contiguous ? self.view(-1) : self.contiguous().view(-1);
  std::vector<std::optional<Tensor>> indices{idx};
  flat.index_put_(indices, source.reshape(-1), accumulate);
  if (!contiguous) {
    self.copy_(flat.view(self.sizes()));
  }
  return self;
}

Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  return self.clone().put_(index, source, accumulate);
}

// scatter_reduce(dim, index, src, reduce, include_self): out = self, then each src element
// folded into out[... index ...] with sum, prod, mean, amax or amin. For every target the
// contributions come in increasing position along dim, as in PyTorch's CPU loop. Without
// include_self the targets start from the reduction's identity (self is not read there);
// mean divides by the number of contributions (floor division for integers).
namespace {
enum class ScatterReduce { SUM, PROD, MEAN, AMAX, AMIN };

ScatterReduce get_scatter_reduce(c10::string_view reduce) {
  if (reduce == "sum") return ScatterReduce::SUM;
  if (reduce == "prod") return ScatterReduce::PROD;
  if (reduce == "mean") return ScatterReduce::MEAN;
  // PyTorch also takes the older names max and min.
  if (reduce == "amax" || reduce == "max") return ScatterReduce::AMAX;
  if (reduce == "amin" || reduce == "min") return ScatterReduce::AMIN;
  TORCH_CHECK(false, "reduce argument must be either sum, prod, mean, amax or amin, got ",
              std::string(reduce.data(), reduce.size()));
}

// mean's division: floor division for integers (PyTorch's div_(count, rounding_mode="floor")).
template <typename scalar_t>
scalar_t divide_by_count(scalar_t sum, int64_t count) {
  if constexpr (std::is_integral_v<scalar_t>) {
    const scalar_t q = static_cast<scalar_t>(sum / count);
    return (sum % count != 0 && sum < 0) ? static_cast<scalar_t>(q - 1) : q;
  } else {
    return static_cast<scalar_t>(static_cast<double>(sum) / static_cast<double>(count));
  }
}

template <typename scalar_t>
scalar_t scatter_max_or_min(scalar_t target, scalar_t v, bool is_max) {
  if constexpr (!std::is_integral_v<scalar_t>) {
    if (std::isnan(static_cast<double>(v))) return v;
  }
  return is_max ? std::max(target, v) : std::min(target, v);
}

void scatter_reduce_cpu_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, ScatterReduce op,
                         bool include_self) {
  TORCH_CHECK(index.scalar_type() == kLong || index.scalar_type() == kInt,
              "scatter(): Expected dtype int32/int64 for index");
  TORCH_CHECK(src.scalar_type() == self.scalar_type(), "scatter_reduce(): Expected self.dtype to be equal to src.dtype");
  dim = c10::maybe_wrap_dim(dim, self.dim());
  scatter_shape_check(self, dim, index, &src);
  if (index.numel() == 0) return;
  const Tensor idx = index.to(kLong).contiguous();
  const int64_t ndim = std::max<int64_t>(self.dim(), 1);
  const std::vector<int64_t> isizes = idx.dim() == 0 ? std::vector<int64_t>{1} : idx.sizes().vec();
  const Tensor out = self.contiguous();
  const Tensor s = src.contiguous();
  std::vector<int64_t> out_sizes = self.dim() == 0 ? std::vector<int64_t>{1} : self.sizes().vec();
  std::vector<int64_t> src_sizes = src.dim() == 0 ? std::vector<int64_t>{1} : src.sizes().vec();
  auto strides_of = [](const std::vector<int64_t>& sizes) {
    std::vector<int64_t> st(sizes.size(), 1);
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 2; d >= 0; d--) st[d] = st[d + 1] * sizes[d + 1];
    return st;
  };
  const auto out_st = strides_of(out_sizes);
  const auto src_st = strides_of(src_sizes);
  const auto idx_st = strides_of(isizes);
  const int64_t n = idx.numel();
  const int64_t* ip = idx.const_data_ptr<int64_t>();
  const int64_t dim_size = out_sizes[dim];
  Tensor count;
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "scatter_reduce", [&] {
    scalar_t* op_ = out.data_ptr<scalar_t>();
    const scalar_t* sp = s.const_data_ptr<scalar_t>();
    std::vector<int64_t> counts(op == ScatterReduce::MEAN ? out.numel() : 0, include_self ? 1 : 0);
    std::vector<char> touched(include_self ? 0 : out.numel(), 0);
    for (int64_t k = 0; k < n; k++) {
      // Coordinates of index element k; the target replaces coordinate dim by the index.
      int64_t rest = k, out_off = 0, src_off = 0;
      for (int64_t d = 0; d < ndim; d++) {
        const int64_t c = rest / idx_st[d];
        rest %= idx_st[d];
        src_off += c * src_st[d];
        if (d == dim) {
          const int64_t t = ip[k];
          TORCH_CHECK(t >= 0 && t < dim_size, "index ", t, " is out of bounds for dimension ", dim, " with size ",
                      dim_size);
          out_off += t * out_st[d];
        } else {
          out_off += c * out_st[d];
        }
      }
      scalar_t& target = op_[out_off];
      const scalar_t v = sp[src_off];
      if (!include_self && !touched[out_off]) {
        touched[out_off] = 1;
        target = v;
        if (op == ScatterReduce::MEAN) counts[out_off] = 1;
        continue;
      }
      switch (op) {
        case ScatterReduce::SUM:
        case ScatterReduce::MEAN:
          target = target + v;
          break;
        case ScatterReduce::PROD:
          target = target * v;
          break;
        case ScatterReduce::AMAX:
          target = scatter_max_or_min(target, v, /*is_max=*/true);
          break;
        case ScatterReduce::AMIN:
          target = scatter_max_or_min(target, v, /*is_max=*/false);
          break;
      }
      if (op == ScatterReduce::MEAN) counts[out_off]++;
    }
    if (op == ScatterReduce::MEAN) {
      for (int64_t i = 0; i < out.numel(); i++) {
        op_[i] = divide_by_count(op_[i], counts[i] == 0 ? 1 : counts[i]);
      }
    }
  });
  if (!out.is_same(self)) {
    self.copy_(out);
  }
}
}  // namespace

Tensor& scatter_reduce_two_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                            c10::string_view reduce, bool include_self) {
  scatter_reduce_cpu_(self, dim, index, src, get_scatter_reduce(reduce), include_self);
  return self;
}

Tensor& scatter_reduce_two_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                               c10::string_view reduce, bool include_self, Tensor& out) {
  const ScatterReduce op = get_scatter_reduce(reduce);
  at::native::resize_output(out, self.sizes());
  if (!out.is_same(self)) {
    out.copy_(self);
  }
  scatter_reduce_cpu_(out, dim, index, src, op, include_self);
  return out;
}

Tensor scatter_reduce_two(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                          c10::string_view reduce, bool include_self) {
  Tensor out = self.clone();
  scatter_reduce_cpu_(out, dim, index, src, get_scatter_reduce(reduce), include_self);
  return out;
}

}  // namespace at::native
