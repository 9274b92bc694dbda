// c10/core/TensorImpl.cpp - sizes/strides bookkeeping and the key set of a new tensor.
// Mirrors PyTorch's c10/core/TensorImpl.cpp. Guide: docs/source/internals/tensors.rst.
#include <c10/core/Contiguity.h>
#include <c10/core/InferenceMode.h>
#include <c10/core/TensorImpl.h>
#include <c10/util/safe_numerics.h>

#include <limits>
#include <c10/core/WrapDimMinimal.h>

namespace c10 {

TensorImpl::TensorImpl(Storage&& storage, DispatchKeySet key_set, const caffe2::TypeMeta data_type)
    : storage_(std::move(storage)),
      numel_(0),
      data_type_(data_type),
      device_opt_(storage_ ? std::optional<Device>(storage_.device()) : std::nullopt) {
  // [marker: key_set]
  // Every tensor of a backend carries that backend's autograd and autocast keys, whether it
  // requires grad or not: the autograd kernel decides at run time whether to record.
  const BackendComponent backend = key_set.highestBackendKey();
  // In torch.inference_mode() a new tensor (one not made as a view of a normal tensor,
  // whose key set would carry autograd keys) is an inference tensor: no autograd keys and
  // no version counter.
  if (InferenceMode::is_enabled() && !key_set.has_any(autograd_dispatch_keyset)) {
    key_set_ = key_set | getAutocastRelatedKeySetFromBackend(backend);
    version_counter_ = VariableVersion(VariableVersion::DISABLED);
  } else {
    key_set_ = key_set | getAutogradRelatedKeySetFromBackend(backend) |
               getAutocastRelatedKeySetFromBackend(backend);
  }
  // [end marker: key_set]
  if (!device_opt_) {
    device_opt_ = Device(dispatchKeyToDeviceType(key_set.highestPriorityTypeId()));
  }
}

TensorImpl::~TensorImpl() = default;

AutogradMetaInterface::~AutogradMetaInterface() = default;

namespace impl {
namespace {
AutogradMetaFactory* meta_factory = nullptr;
}
void SetAutogradMetaFactory(AutogradMetaFactory* factory) {
  meta_factory = factory;
}
AutogradMetaFactory* GetAutogradMetaFactory() {
  TORCH_CHECK(meta_factory, "Support for autograd has not been loaded; have you linked against libtorch_cpu.so?");
  return meta_factory;
}
}  // namespace impl

void TensorImpl::set_version_counter(const VariableVersion& version_counter) {
  version_counter_ = version_counter;
  if (!version_counter_.enabled()) {
    key_set_ = key_set_ - autograd_dispatch_keyset_with_ADInplaceOrView;
  }
}

void TensorImpl::set_requires_grad(bool requires_grad) {
  if (!requires_grad && !autograd_meta_) {
    return;  // nothing to switch off
  }
  if (!autograd_meta_) {
    autograd_meta_ = impl::GetAutogradMetaFactory()->make();
  }
  autograd_meta_->set_requires_grad(requires_grad, this);
}

at::Tensor& TensorImpl::mutable_grad() {
  if (!autograd_meta_) {
    autograd_meta_ = impl::GetAutogradMetaFactory()->make();
  }
  return autograd_meta_->mutable_grad();
}

const at::Tensor& TensorImpl::grad() const {
  if (!autograd_meta_) {
    return impl::GetAutogradMetaFactory()->undefined_tensor();
  }
  return autograd_meta_->grad();
}

void TensorImpl::shallow_copy_from(const TensorImpl& src) {
  storage_ = src.storage_;
  data_type_ = src.data_type_;
  device_opt_ = src.device_opt_;
  key_set_ = src.key_set_;
  sizes_and_strides_ = src.sizes_and_strides_;
  storage_offset_ = src.storage_offset_;
  is_wrapped_number_ = src.is_wrapped_number_;
  refresh_numel();
  refresh_contiguous();
}

c10::intrusive_ptr<TensorImpl> TensorImpl::shallow_copy_and_detach(const VariableVersion& version_counter) const {
  auto impl = c10::make_intrusive<TensorImpl>(Storage(storage_), key_set_, data_type_);
  impl->device_opt_ = device_opt_;
  impl->set_sizes_and_strides(sizes(), strides(), storage_offset_);
  impl->is_wrapped_number_ = is_wrapped_number_;
  impl->set_version_counter(version_counter);
  return impl;
}

// [marker: release_resources]
// The autograd meta goes too: it may hold hooks (retain_grad's) whose closures refer back to
// this tensor's graph, a cycle that would otherwise outlive every strong reference.
void TensorImpl::release_resources() {
  autograd_meta_.reset();
  storage_ = {};
}
// [end marker: release_resources]

int64_t TensorImpl::size(int64_t d) const {
  d = maybe_wrap_dim(d, dim(), /*wrap_scalar=*/false);
  return sizes_and_strides_.size_at_unchecked(d);
}

int64_t TensorImpl::stride(int64_t d) const {
  d = maybe_wrap_dim(d, dim(), /*wrap_scalar=*/false);
  return sizes_and_strides_.stride_at_unchecked(d);
}

void TensorImpl::set_storage_keep_dtype(Storage storage) {
  storage_ = std::move(storage);
  device_opt_ = storage_.device();
}

// [marker: data_impl]
// Every kernel reaches the bytes through here, so this is where a view that reaches past
// the end of its storage (the storage was shrunk under it: UntypedStorage.resize_(0)) is
// caught before a single element is read or written.
void* TensorImpl::data_impl() const {
  TORCH_CHECK(has_storage(),
              "Cannot access data pointer of Tensor that doesn't have storage");
  if (C10_UNLIKELY(storage_extent_nbytes_ > storage_.nbytes())) {
    throw_storage_out_of_bounds();
  }
  auto* data = static_cast<char*>(storage_.mutable_data());
  if (data == nullptr) {
    return nullptr;  // an empty tensor
  }
  return data + data_type_.itemsize() * storage_offset_;
}
// [end marker: data_impl]

void TensorImpl::throw_storage_out_of_bounds() const {
  TORCH_CHECK(false, "setStorage: sizes ", sizes(), ", strides ", strides(), ", storage offset ", storage_offset_,
              ", and itemsize ", itemsize(), " requiring a storage size of ", storage_extent_nbytes_,
              " are out of bounds for storage of size ", storage_.nbytes());
}

void TensorImpl::set_sizes_contiguous(IntArrayRef new_size) {
  // Checked before anything changes, so a refused size leaves the tensor as it was.
  const int64_t new_numel = safe_compute_numel(new_size);
  sizes_and_strides_.set_sizes(new_size);
  auto strides = contiguous_strides(new_size);
  sizes_and_strides_.set_strides(strides);
  numel_ = new_numel;
  refresh_contiguous();
}

void TensorImpl::set_sizes_and_strides(IntArrayRef new_size, IntArrayRef new_stride,
                                       std::optional<int64_t> storage_offset) {
  TORCH_CHECK(new_size.size() == new_stride.size(), "dimensionality of sizes (", new_size.size(),
              ") must match dimensionality of strides (", new_stride.size(), ")");
  const int64_t new_numel = safe_compute_numel(new_size);
  TORCH_CHECK(!storage_offset.has_value() || *storage_offset >= 0, "Tensor: invalid storage offset ", *storage_offset);
  sizes_and_strides_.set_sizes(new_size);
  sizes_and_strides_.set_strides(new_stride);
  if (storage_offset.has_value()) {
    storage_offset_ = *storage_offset;
  }
  numel_ = new_numel;
  refresh_contiguous();
}

void TensorImpl::set_storage_offset(int64_t storage_offset) {
  TORCH_CHECK(storage_offset >= 0, "Tensor: invalid storage offset ", storage_offset);
  storage_offset_ = storage_offset;
  refresh_storage_extent();
}

// [marker: safe_compute_numel]
int64_t safe_compute_numel(IntArrayRef sizes) {
  uint64_t n = 1;
  const bool overflowed = c10::safe_multiplies_u64(sizes, &n);
  TORCH_CHECK(!overflowed && n <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()),
              "numel: integer multiplication overflow");
  return static_cast<int64_t>(n);
}
// [end marker: safe_compute_numel]

void TensorImpl::refresh_numel() {
  numel_ = safe_compute_numel(sizes());
}

// [marker: refresh_storage_extent]
// The bytes the view needs from the start of its storage: one element past the farthest
// one, (storage_offset + sum((size[d] - 1) * stride[d]) + 1) * itemsize; 0 when it has no
// elements. A view too large to count saturates, so data access refuses it.
void TensorImpl::refresh_storage_extent() {
  if (numel_ == 0) {
    storage_extent_nbytes_ = 0;
    return;
  }
  uint64_t extent = static_cast<uint64_t>(storage_offset_) + 1;
  bool overflowed = false;
  const auto sz = sizes();
  const auto st = strides();
  for (size_t d = 0; d < sz.size(); ++d) {
    uint64_t span = 0;
    // Negative strides only come from as_strided_ misuse: count them as reaching nowhere.
    if (st[d] > 0) {
      overflowed |= c10::mul_overflows(static_cast<uint64_t>(st[d]), static_cast<uint64_t>(sz[d] - 1), &span);
      overflowed |= c10::add_overflows(extent, span, &extent);
    }
  }
  overflowed |= c10::mul_overflows(extent, static_cast<uint64_t>(itemsize()), &extent);
  storage_extent_nbytes_ = overflowed ? std::numeric_limits<uint64_t>::max() : extent;
}
// [end marker: refresh_storage_extent]

void TensorImpl::refresh_contiguous() {
  refresh_storage_extent();
  is_contiguous_ = _compute_contiguous(sizes(), strides(), numel_);
  is_non_overlapping_and_dense_ =
      is_contiguous_ || (dim() > 0 && _compute_non_overlapping_and_dense(sizes(), strides()));
}

std::vector<int64_t> contiguous_strides(IntArrayRef sizes) {
  std::vector<int64_t> strides(sizes.size());
  int64_t stride = 1;
  bool overflowed = false;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides[d] = stride;
    // A zero-size dimension counts as 1, so strides can overflow even when numel is 0
    // (empty(0, 2, 2**62)): PyTorch refuses those too (TensorImpl::empty_tensor_restride).
    if (d > 0) {
      overflowed |= mul_overflows(stride, std::max<int64_t>(sizes[d], 1), &stride);
    }
  }
  TORCH_CHECK(!overflowed, "Stride calculation overflowed");
  return strides;
}

}  // namespace c10
