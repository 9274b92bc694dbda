#pragma once
// ${generated_comment}
// at::Tensor: TensorBase plus one method per operator with `variants: method`.
// Template: aten/src/ATen/templates/TensorBody.h. Guide: docs/source/internals/generated_code.rst.

#include <ATen/core/Generator.h>
#include <ATen/core/Reduction.h>
#include <ATen/core/TensorBase.h>
#include <c10/core/Layout.h>
#include <c10/core/MemoryFormat.h>

#include <functional>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

namespace at {

class TORCH_API Tensor : public TensorBase {
 public:
  Tensor() = default;
  explicit Tensor(c10::intrusive_ptr<TensorImpl> impl) : TensorBase(std::move(impl)) {}
  Tensor(const TensorBase& base) : TensorBase(base) {}
  Tensor(TensorBase&& base) : TensorBase(std::move(base)) {}
  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) = default;
  Tensor& operator=(const Tensor&) & = default;
  Tensor& operator=(Tensor&&) & = default;
  Tensor& operator=(const TensorBase& x) & {
    impl_ = x.getIntrusivePtr();
    return *this;
  }

  // The value of a one-element tensor as a C++ number: t.item<float>().
  template <typename T>
  T item() const {
    return item().to<T>();
  }

  // t[i] is t.select(0, i), as in PyTorch's C++ API.
  Tensor operator[](int64_t index) const { return select(0, index); }
  // The same data without autograd history (PyTorch's Tensor::data(), Python's t.data);
  // TensorBase's deprecated data<T>() stays visible beside it.
  using TensorBase::data;
  Tensor data() const { return variable_data(); }

  // a += b and friends are the in-place operators: add_, sub_, mul_, div_.
  Tensor& operator+=(const Tensor& other) { return add_(other); }
  Tensor& operator+=(const Scalar& other) { return add_(other); }
  Tensor& operator-=(const Tensor& other) { return sub_(other); }
  Tensor& operator-=(const Scalar& other) { return sub_(other); }
  Tensor& operator*=(const Tensor& other) { return mul_(other); }
  Tensor& operator*=(const Scalar& other) { return mul_(other); }
  Tensor& operator/=(const Tensor& other) { return div_(other); }
  Tensor& operator/=(const Scalar& other) { return div_(other); }

  // x.to(y.options()), x.to(at::kCUDA): to.dtype_layout with its four arguments in one
  // TensorOptions (the generated overloads keep them apart).
  Tensor to(TensorOptions options, bool non_blocking = false, bool copy = false,
            std::optional<MemoryFormat> memory_format = std::nullopt) const;

  // The gradient accumulated into this tensor by backward() (undefined before).
  const Tensor& grad() const { return impl_->grad(); }
  Tensor& mutable_grad() const { return impl_->mutable_grad(); }
  // Runs the autograd engine from this tensor (torch/csrc/autograd/autograd.cpp).
  void backward(const Tensor& gradient = {}, std::optional<bool> retain_graph = std::nullopt,
                bool create_graph = false) const;
  // A hook on this tensor's gradient: called with it, may return a replacement (or an
  // undefined tensor to keep it). Returns the position to pass to remove_hook.
  unsigned register_hook(std::function<TensorBase(const TensorBase&)> hook) const;
  void remove_hook(unsigned pos) const;

  // ---- generated: one method per operator with a method variant ----
${tensor_method_declarations}
};

}  // namespace at

#include <ATen/Operators.h>

namespace at {

inline Tensor Tensor::to(TensorOptions options, bool non_blocking, bool copy,
                         std::optional<MemoryFormat> memory_format) const {
  return at::_ops::to_dtype_layout::call(*this, options.dtype_opt(), options.layout_opt(), options.device_opt(),
                                         options.pinned_memory_opt(), non_blocking, copy, memory_format);
}

${tensor_method_definitions}

}  // namespace at
