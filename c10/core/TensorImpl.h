// c10/core/TensorImpl.h - what a tensor is: a view (sizes, strides, offset, dtype) of a storage.
// Mirrors PyTorch's c10/core/TensorImpl.h. Guide: docs/source/internals/tensors.rst.
//
// Seed 000, "Understand Parameters": a tensor does not own its numbers; it owns a
// reference to a Storage and a recipe for reading it. Element (i0, i1, ..., ik) lives at
//
//     storage.data + itemsize * (storage_offset + i0*stride[0] + i1*stride[1] + ... + ik*stride[k])
//
// so transpose, slicing, expand and friends are new TensorImpls over the *same* storage
// with other sizes, strides and offsets: no data is copied. Those views share the
// storage's refcount and also one version counter, bumped by every in-place write, which
// autograd uses to notice that a value it saved has since been overwritten.
//
// The key set says which dispatcher keys a tensor carries: for a CPU tensor
// {CPU, ADInplaceOrView, AutogradCPU, AutocastCPU}, whether or not it requires grad.
#pragma once

#include <c10/core/Device.h>
#include <c10/core/DispatchKeySet.h>
#include <c10/core/ScalarType.h>
#include <c10/core/Storage.h>
#include <c10/core/impl/SizesAndStrides.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/intrusive_ptr.h>
#include <c10/util/typeid.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

namespace at {
class Tensor;
}

namespace c10 {

struct TensorImpl;

// What a tensor knows about autograd lives in torch/csrc/autograd/variable.h (AutogradMeta:
// grad, grad_fn, hooks ...). c10 cannot depend on autograd, so TensorImpl holds it through
// this interface, created on demand by the factory autograd registers when it loads. A
// tensor that never required grad has none (a null pointer): most tensors pay nothing.
struct C10_API AutogradMetaInterface {
  virtual void set_requires_grad(bool requires_grad, TensorImpl* self_impl) = 0;
  virtual bool requires_grad() const = 0;
  virtual at::Tensor& mutable_grad() = 0;
  virtual const at::Tensor& grad() const = 0;
  virtual ~AutogradMetaInterface();
};

namespace impl {
struct C10_API AutogradMetaFactory {
  virtual ~AutogradMetaFactory() = default;
  virtual std::unique_ptr<AutogradMetaInterface> make() const = 0;
  // The undefined tensor grad() returns for tensors without AutogradMeta.
  virtual const at::Tensor& undefined_tensor() const = 0;
};
C10_API void SetAutogradMetaFactory(AutogradMetaFactory* factory);
C10_API AutogradMetaFactory* GetAutogradMetaFactory();
struct C10_API AutogradMetaFactoryRegisterer {
  explicit AutogradMetaFactoryRegisterer(AutogradMetaFactory* factory) { SetAutogradMetaFactory(factory); }
};
}  // namespace impl

// [marker: VariableVersion]
// The counter shared by a tensor and all its views (they copy the intrusive_ptr, not the
// number). Inference tensors have none (DISABLED).
struct C10_API VariableVersion {
 private:
  struct VersionCounter : intrusive_ptr_target {
    explicit VersionCounter(uint32_t version) : version_(version) {}
    std::atomic<uint32_t> version_;
  };
  c10::intrusive_ptr<VersionCounter> version_counter_;

 public:
  enum Disabled { DISABLED };
  explicit VariableVersion(Disabled) {}
  VariableVersion(uint32_t version = 0) : version_counter_(c10::make_intrusive<VersionCounter>(version)) {}

  bool enabled() const { return version_counter_.defined(); }
  // Shared with another tensor (a view or its base)?
  bool unique() const { return version_counter_.use_count() == 1; }
  size_t use_count() const { return version_counter_.use_count(); }

  void set_version(int64_t i) {
    TORCH_CHECK(version_counter_,
                "Tried to call torch.autograd._unsafe_set_version_counter on a tensor that does not have a version counter. "
                "Was it created in inference mode?");
    TORCH_CHECK(i >= 0, "Cannot set a version_counter to a value below 0: ", i);
    version_counter_->version_ = static_cast<uint32_t>(i);
  }
  // Every in-place operation calls this (tensor._version goes 0 -> 1 -> 2 ...).
  void bump() {
    TORCH_CHECK(version_counter_,
                "Inplace update to inference tensor outside InferenceMode is not allowed."
                "You can make a clone to get a normal tensor before doing inplace update."
                "See https://github.com/pytorch/rfcs/pull/17 for more details.");
    ++version_counter_->version_;
  }
  uint32_t current_version() const {
    TORCH_CHECK(version_counter_, "Inference tensors do not track version counter.");
    return version_counter_->version_;
  }
};
// [end marker: VariableVersion]

/// The C++ object behind every tensor (PyTorch's c10/core/TensorImpl.h): a view of a
/// Storage described by sizes, strides, storage_offset and dtype, plus its device and the
/// dispatch keys it carries.
/// at::Tensor is an intrusive_ptr to a TensorImpl. A TensorImpl holds one reference to its
/// StorageImpl and shares its VariableVersion with every view of the same storage; it owns
/// its AutogradMeta (null until the tensor requires grad) and points, without owning it,
/// at its Python object.
// [marker: TensorImpl]
struct C10_API TensorImpl : public c10::intrusive_ptr_target {
  TensorImpl() = delete;
  /// A tensor over `storage`, initially 1-d with zero elements (set sizes afterwards).
  /// key_set names the backend (DispatchKeySet(DispatchKey::CPU)); the autograd and
  /// autocast keys of that backend are added here, as in PyTorch.
  TensorImpl(Storage&& storage, DispatchKeySet key_set, const caffe2::TypeMeta data_type);
  ~TensorImpl() override;

  TensorImpl(const TensorImpl&) = delete;
  TensorImpl& operator=(const TensorImpl&) = delete;

  // ---- what the dispatcher reads ----
  /// Backend, autograd and autocast keys: what the dispatcher picks kernels by.
  DispatchKeySet key_set() const { return key_set_; }

  // ---- shape ----
  /// Sizes of the view; strides() are in elements, not bytes.
  IntArrayRef sizes() const { return sizes_and_strides_.sizes_arrayref(); }
  IntArrayRef strides() const { return sizes_and_strides_.strides_arrayref(); }
  /// size(-1) is the last dimension; out of range is an IndexError.
  int64_t size(int64_t d) const;
  int64_t stride(int64_t d) const;
  int64_t dim() const { return static_cast<int64_t>(sizes_and_strides_.size()); }
  int64_t numel() const { return numel_; }
  /// Elements (not bytes) from the start of the storage to element 0.
  int64_t storage_offset() const { return storage_offset_; }

  bool is_contiguous() const { return is_contiguous_; }
  bool is_non_overlapping_and_dense() const { return is_non_overlapping_and_dense_; }

  // ---- element type and device ----
  caffe2::TypeMeta dtype() const { return data_type_; }
  ScalarType scalar_type() const { return data_type_.toScalarType(); }
  size_t itemsize() const { return data_type_.itemsize(); }
  Device device() const { return *device_opt_; }
  DeviceType device_type() const { return device_opt_->type(); }
  bool is_cpu() const { return device_opt_->type() == DeviceType::CPU; }
  bool is_cuda() const { return device_opt_->type() == DeviceType::CUDA; }
  bool is_meta() const { return device_opt_->type() == DeviceType::Meta; }

  // ---- storage ----
  bool has_storage() const { return storage_; }
  /// The storage this tensor views, shared with its views.
  const Storage& storage() const { return storage_; }
  /// Point at another storage, keeping dtype and device (used by set_ and the legacy API).
  void set_storage_keep_dtype(Storage storage);

  /// Address of element 0: storage data + storage_offset * itemsize.
  const void* data() const { return data_impl(); }
  void* mutable_data() { return data_impl(); }

  // ---- changing the view (only for the owner of a fresh TensorImpl, or a view op) ----
  /// Set sizes and give them the row-major contiguous strides.
  void set_sizes_contiguous(IntArrayRef new_size);
  /// Set sizes and strides together (and the offset, if given).
  void set_sizes_and_strides(IntArrayRef new_size, IntArrayRef new_stride,
                             std::optional<int64_t> storage_offset = std::nullopt);
  void set_storage_offset(int64_t storage_offset);

  // ---- version counter ----
  /// Shared with every view of the storage; each in-place write bumps it.
  const VariableVersion& version_counter() const { return version_counter_; }
  /// A view of an inference tensor (no counter) is an inference tensor too: it loses the
  /// autograd keys its constructor gave it.
  void set_version_counter(const VariableVersion& version_counter);
  void bump_version() { version_counter_.bump(); }

  // ---- autograd (torch/csrc/autograd/variable.h keeps the details) ----
  /// Made in torch.inference_mode(): no autograd keys, no version counter.
  bool is_inference() const { return !key_set_.has_any(autograd_dispatch_keyset_with_ADInplaceOrView); }
  /// Only floating point and complex tensors may require grad (PyTorch's message otherwise).
  void set_requires_grad(bool requires_grad);
  bool requires_grad() const { return autograd_meta_ && autograd_meta_->requires_grad(); }
  /// tensor.grad: undefined until a backward pass accumulates into it.
  at::Tensor& mutable_grad();
  const at::Tensor& grad() const;
  void set_autograd_meta(std::unique_ptr<AutogradMetaInterface> autograd_meta) { autograd_meta_ = std::move(autograd_meta); }
  AutogradMetaInterface* autograd_meta() const { return autograd_meta_.get(); }
  /// A new TensorImpl over the same storage with the same sizes, strides and offset, and no
  /// autograd history: what detach() and .data hand out.
  c10::intrusive_ptr<TensorImpl> shallow_copy_and_detach(const VariableVersion& version_counter) const;
  /// x.data = y: take y's storage, dtype, device, sizes, strides and offset, keeping this
  /// TensorImpl (its Python object, autograd state and version counter).
  void shallow_copy_from(const TensorImpl& src);

  /// A Python number turned into a 0-d tensor takes part in type promotion as a number.
  bool is_wrapped_number() const { return is_wrapped_number_; }
  void set_wrapped_number(bool value) { is_wrapped_number_ = value; }

  /// The Python object of this tensor, if Python has seen it (torch/csrc/autograd/python_variable.cpp).
  /// Keeping it here means a tensor that goes into C++ and comes back is the *same* Python
  /// object, with its attributes: one PyObject per TensorImpl. Not owned: the Python object
  /// clears the slot when it dies.
  void* pyobj() const { return pyobj_; }
  void set_pyobj(void* pyobj) { pyobj_ = pyobj; }

  /// Last strong reference gone, weak ones remain: let go of the storage now.
  void release_resources() override;

 protected:
  /// The cached facts that sizes and strides imply, recomputed after every change.
  void refresh_numel();
  void refresh_contiguous();
  void refresh_storage_extent();

 private:
  void* data_impl() const;
  [[noreturn]] void throw_storage_out_of_bounds() const;

  Storage storage_;
  VariableVersion version_counter_;
  std::unique_ptr<AutogradMetaInterface> autograd_meta_;
  impl::SizesAndStrides sizes_and_strides_;
  int64_t storage_offset_ = 0;
  // Cached product of sizes (1 for a 0-d tensor, 0 if any size is 0).
  int64_t numel_ = 1;
  // Cached bytes the view reaches from the storage's start (see refresh_storage_extent).
  uint64_t storage_extent_nbytes_ = 0;
  caffe2::TypeMeta data_type_;
  std::optional<Device> device_opt_;
  bool is_contiguous_ = true;
  bool is_non_overlapping_and_dense_ = true;
  bool is_wrapped_number_ = false;
  DispatchKeySet key_set_;
  void* pyobj_ = nullptr;
};
// [end marker: TensorImpl]

// The number of elements of a tensor of these sizes; an error if it does not fit in int64_t
// ("numel: integer multiplication overflow", as PyTorch's safe_compute_numel).
C10_API int64_t safe_compute_numel(IntArrayRef sizes);

// Row-major strides for sizes: the stride of dim d is the product of sizes after d
// (size-0 dimensions count as 1 so the strides stay meaningful).
C10_API std::vector<int64_t> contiguous_strides(IntArrayRef sizes);

}  // namespace c10

namespace at {
using c10::TensorImpl;
}
