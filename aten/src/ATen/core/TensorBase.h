// aten/src/ATen/core/TensorBase.h - a Tensor handle without the generated operator methods.
// Mirrors PyTorch's aten/src/ATen/core/TensorBase.h. Guide: docs/source/internals/tensors.rst.
//
// A Tensor is one intrusive_ptr to a TensorImpl: copying a Tensor copies the pointer (both
// name the same tensor), and the TensorImpl dies with its last handle. TensorBase holds
// everything that needs no operator; at::Tensor (core/TensorBody.h, generated from
// native_functions.yaml) adds a method per operator (t.add(u), t.sum()).
#pragma once

#include <ATen/core/DeprecatedTypeProperties.h>
#include <ATen/core/TensorAccessor.h>
#include <c10/core/Scalar.h>
#include <c10/core/Storage.h>
#include <c10/core/TensorImpl.h>
#include <c10/core/TensorOptions.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/OptionalArrayRef.h>
#include <c10/util/intrusive_ptr.h>
#include <c10/util/string_view.h>

#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>
#include <string>

namespace torch::autograd {
struct Node;
}

namespace at {

class Tensor;
using TensorList = c10::ArrayRef<Tensor>;
using OptionalIntArrayRef = c10::OptionalIntArrayRef;  // c10/util/OptionalArrayRef.h: x.sum(0) is safe

class TORCH_API TensorBase {
 public:
  TensorBase() = default;
  explicit TensorBase(c10::intrusive_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}
  TensorBase(const TensorBase&) = default;
  TensorBase(TensorBase&&) noexcept = default;
  TensorBase& operator=(const TensorBase&) & = default;
  TensorBase& operator=(TensorBase&&) & noexcept = default;

  // An undefined tensor is a null handle (an absent optional output, a missing grad).
  bool defined() const { return impl_.defined(); }
  void reset() { impl_.reset(); }

  TensorImpl* unsafeGetTensorImpl() const { return impl_.get(); }
  const c10::intrusive_ptr<TensorImpl>& getIntrusivePtr() const { return impl_; }
  size_t use_count() const noexcept { return impl_.use_count(); }
  bool is_same(const TensorBase& other) const noexcept { return impl_ == other.impl_; }

  // ---- metadata ----
  IntArrayRef sizes() const { return impl_->sizes(); }
  IntArrayRef strides() const { return impl_->strides(); }
  int64_t size(int64_t dim) const { return impl_->size(dim); }
  int64_t stride(int64_t dim) const { return impl_->stride(dim); }
  int64_t dim() const { return impl_->dim(); }
  int64_t ndimension() const { return dim(); }
  int64_t numel() const { return impl_->numel(); }
  int64_t storage_offset() const { return impl_->storage_offset(); }
  bool is_contiguous() const { return impl_->is_contiguous(); }
  bool is_non_overlapping_and_dense() const { return impl_->is_non_overlapping_and_dense(); }

  ScalarType scalar_type() const { return impl_->scalar_type(); }
  caffe2::TypeMeta dtype() const { return impl_->dtype(); }
  size_t itemsize() const { return impl_->itemsize(); }
  int64_t element_size() const { return static_cast<int64_t>(itemsize()); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * itemsize(); }
  Device device() const { return impl_->device(); }
  bool is_cpu() const { return impl_->is_cpu(); }
  bool is_cuda() const { return impl_->is_cuda(); }
  bool is_meta() const { return impl_->is_meta(); }
  TensorOptions options() const { return TensorOptions().dtype(scalar_type()).device(device()); }

  c10::DispatchKeySet key_set() const { return impl_ ? impl_->key_set() : c10::DispatchKeySet(); }
  const Storage& storage() const { return impl_->storage(); }
  bool has_storage() const { return impl_->has_storage(); }
  int64_t _version() const { return impl_->version_counter().current_version(); }

  // ---- data ----
  const void* const_data_ptr() const { return impl_->data(); }
  void* mutable_data_ptr() const { return impl_->mutable_data(); }
  void* data_ptr() const { return impl_->mutable_data(); }
  // Typed access checks the dtype: data_ptr<float>() on an int64 tensor is an error.
  template <typename T>
  T* data_ptr() const {
    TORCH_CHECK(scalar_type() == c10::CppTypeToScalarType<T>::value, "expected scalar type ",
                c10::toString(c10::CppTypeToScalarType<T>::value), " but found ", c10::toString(scalar_type()));
    return static_cast<T*>(impl_->mutable_data());
  }
  template <typename T>
  const T* const_data_ptr() const {
    return data_ptr<T>();
  }
  template <typename T>
  T* mutable_data_ptr() const {
    return data_ptr<T>();
  }
  template <typename T>
  C10_DEPRECATED_MESSAGE("Tensor.data<T>() is deprecated. Please use Tensor.data_ptr<T>() instead.")
  T* data() const {
    return data_ptr<T>();
  }

  // [marker: accessors]
  // Typed, dimension-checked element access for kernels (ATen/core/TensorAccessor.h):
  // t.accessor<float, 2>()[i][j]. Only on an lvalue: the accessor borrows the tensor's
  // size and stride arrays, which a temporary would take with it.
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() const& {
    static_assert(N > 0, "accessor is used for indexing tensor, for scalars use *data_ptr<T>()");
    TORCH_CHECK(dim() == static_cast<int64_t>(N), "TensorAccessor expected ", N, " dims but tensor has ", dim());
    return TensorAccessor<T, N>(data_ptr<T>(), sizes().data(), strides().data());
  }
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() && = delete;
  // The packed forms copy sizes and strides, to be passed by value into a CUDA kernel.
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> generic_packed_accessor() const& {
    static_assert(N > 0, "accessor is used for indexing tensor, for scalars use *data_ptr<T>()");
    TORCH_CHECK(dim() == static_cast<int64_t>(N), "TensorAccessor expected ", N, " dims but tensor has ", dim());
    return GenericPackedTensorAccessor<T, N, PtrTraits, index_t>(static_cast<typename PtrTraits<T>::PtrType>(data_ptr<T>()),
                                                                 sizes().data(), strides().data());
  }
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor32<T, N, PtrTraits> packed_accessor32() const& {
    TORCH_CHECK(numel() <= static_cast<int64_t>(std::numeric_limits<int32_t>::max()),
                "numel needs to be smaller than int32_t max; otherwise, please use packed_accessor64");
    return generic_packed_accessor<T, N, PtrTraits, int32_t>();
  }
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor64<T, N, PtrTraits> packed_accessor64() const& {
    return generic_packed_accessor<T, N, PtrTraits, int64_t>();
  }
  // [end marker: accessors]

  // The deprecated "CPUFloatType" value old extensions dispatch on: AT_DISPATCH_*(x.type(), ...).
  DeprecatedTypeProperties type() const { return DeprecatedTypeProperties(device().type(), scalar_type()); }

  // ---- autograd: kept in the TensorImpl's AutogradMeta, worked by torch/csrc/autograd ----
  bool requires_grad() const { return impl_->requires_grad(); }
  const TensorBase& set_requires_grad(bool requires_grad) const {
    impl_->set_requires_grad(requires_grad);
    return *this;
  }
  // requires_grad_() with the leaf check ("you can only change requires_grad flags of leaf variables").
  const TensorBase& requires_grad_(bool requires_grad = true) const;
  // The node that made this tensor (nullptr for leaves), which output of it this is.
  const std::shared_ptr<torch::autograd::Node>& grad_fn() const;
  bool is_leaf() const;
  int64_t output_nr() const;
  void retain_grad() const;
  bool retains_grad() const;
  bool is_view() const;
  const TensorBase& _base() const;
  bool is_inference() const { return impl_->is_inference(); }
  // The same data with no history: sharing the version counter (detach()) or not (.data).
  TensorBase tensor_data() const;
  TensorBase variable_data() const;
  // x.data = y: x keeps its autograd identity and takes y's storage and metadata.
  void set_data(const TensorBase& new_data) const;

  // "CPUFloatType" etc., as PyTorch names a tensor's type in C++ messages.
  std::string toString() const;

 protected:
  c10::intrusive_ptr<TensorImpl> impl_;
};

TORCH_API std::ostream& operator<<(std::ostream& out, const TensorBase& t);

}  // namespace at
