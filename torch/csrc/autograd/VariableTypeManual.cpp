// torch/csrc/autograd/VariableTypeManual.cpp - Autograd kernels written by hand.
// Mirrors PyTorch's torch/csrc/autograd/VariableTypeManual.cpp. Guide: docs/source/internals/autograd.rst.
//
// detach and detach_ change autograd state itself (they are not differentiable operators
// with a formula), and resize_ of a tensor that requires grad is refused.
#include <ATen/Functions.h>
#include <ATen/Operators.h>
#include <torch/csrc/autograd/VariableTypeUtils.h>
#include <torch/library.h>

namespace torch::autograd::VariableType {
namespace {

// [marker: detach]
at::Tensor detach(c10::DispatchKeySet ks, const at::Tensor& self) {
  auto out = ([&]() {
    at::AutoDispatchBelowADInplaceOrView guard;
    return at::_ops::detach::redispatch(ks & c10::after_ADInplaceOrView_keyset, self);
  })();
  // A fresh TensorImpl over the same storage sharing self's version counter: in-place
  // writes to either are still noticed by whatever saved the other.
  return at::Tensor(self.tensor_data());
}
// [end marker: detach]

at::Tensor& detach_(c10::DispatchKeySet ks, at::Tensor& self) {
  if (auto* view_meta = impl::get_view_autograd_meta(self)) {
    TORCH_CHECK(false, "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
                       "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
                       "buckets, and hence detach_() cannot be called on these gradients. To fix this error, please "
                       "refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.");
  }
  if (auto* meta = impl::get_autograd_meta(self)) {
    meta->grad_fn_.reset();
    meta->output_nr_ = 0;
    meta->requires_grad_ = false;
  }
  return self;
}

at::Tensor& resize_(c10::DispatchKeySet ks, at::Tensor& self, at::IntArrayRef size,
                    std::optional<at::MemoryFormat> memory_format) {
  TORCH_CHECK(!self.requires_grad(), "cannot resize variables that require grad");
  {
    at::AutoDispatchBelowAutograd guard;
    at::_ops::resize_::redispatch(ks & c10::after_autograd_keyset, self, size, memory_format);
  }
  return self;
}

at::Tensor& resize_as_(c10::DispatchKeySet ks, at::Tensor& self, const at::Tensor& the_template,
                       std::optional<at::MemoryFormat> memory_format) {
  TORCH_CHECK(!self.requires_grad(), "cannot resize variables that require grad");
  {
    at::AutoDispatchBelowAutograd guard;
    at::_ops::resize_as_::redispatch(ks & c10::after_autograd_keyset, self, the_template, memory_format);
  }
  return self;
}

}  // namespace
}  // namespace torch::autograd::VariableType

namespace {
TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  m.impl("detach", TORCH_FN(torch::autograd::VariableType::detach));
  m.impl("detach_", TORCH_FN(torch::autograd::VariableType::detach_));
  m.impl("resize_", TORCH_FN(torch::autograd::VariableType::resize_));
  m.impl("resize_as_", TORCH_FN(torch::autograd::VariableType::resize_as_));
}
}  // namespace
