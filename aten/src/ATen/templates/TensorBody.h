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

  template <typename T>
  T item() const;

  // [marker: Tensor autograd]
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
  // [end marker: Tensor autograd]

  // ---- generated: one method per operator with a method variant ----
${tensor_method_declarations}
};

}  // namespace at

#include <ATen/Operators.h>

namespace at {

${tensor_method_definitions}

}  // namespace at
