// torch/csrc/autograd/input_buffer.cpp - accumulating gradients for one input of a node.
// Mirrors PyTorch's torch/csrc/autograd/input_buffer.cpp. Guide: docs/source/internals/autograd.rst.
#include <ATen/TensorOperators.h>
#include <torch/csrc/autograd/input_buffer.h>

#include <c10/core/GradMode.h>

namespace torch::autograd {

// [marker: InputBuffer::add]
void InputBuffer::add(size_t pos, Variable&& var) {
  TORCH_INTERNAL_ASSERT(pos < buffer.size());
  if (!var.defined()) {
    return;
  }
  auto& old_var = buffer[pos];
  if (!old_var.defined()) {
    buffer[pos] = std::move(var);
    return;
  }
  // Add in place when nobody else can see the stored gradient (and no graph of the sum is
  // wanted); otherwise make a new tensor. Nobody means neither the tensor nor its memory:
  // a gradient that is a view (a slice of the gradient passed to backward(), as
  // StackBackward0 hands out) has a TensorImpl of its own but shares the caller's storage,
  // which an in-place add would overwrite (PyTorch's can_accumulate_inplace checks both).
  if (!c10::GradMode::is_enabled() && old_var.use_count() == 1 && old_var.has_storage() &&
      old_var.storage().use_count() == 1 && old_var.sizes() == var.sizes() &&
      old_var.scalar_type() == var.scalar_type() && old_var.is_non_overlapping_and_dense()) {
    old_var.add_(var);
  } else {
    buffer[pos] = old_var + var;
  }
}
// [end marker: InputBuffer::add]

at::Device InputBuffer::device() const {
  for (const auto& var : buffer) {
    if (var.defined() && var.device().type() != c10::DeviceType::CPU) {
      return var.device();
    }
  }
  return at::Device(c10::DeviceType::CPU);
}

}  // namespace torch::autograd
