// aten/src/ATen/core/op_registration/adaption.h - the device check in generated kernel wrappers.
// Mirrors PyTorch's aten/src/ATen/core/op_registration/adaption.h. Guide: docs/source/internals/generated_code.rst.
//
// Seed 001's design principle "explicit devices": a CPU tensor and a CUDA tensor in one
// operator is an error, never a silent copy. Operators that go through TensorIterator
// check devices there (device_check: NoCheck in the YAML); the others get this check.
#pragma once

#include <ATen/core/Tensor.h>

#include <optional>

namespace c10::impl {

TORCH_API void common_device_check_failure(Device common_device, const at::Tensor& tensor, const char* methodName,
                                           const char* argName);

inline void check_and_update_common_device(std::optional<Device>& common_device, const at::Tensor& tensor,
                                           const char* methodName, const char* argName) {
  if (!tensor.defined()) {
    return;
  }
  if (!common_device.has_value()) {
    common_device = tensor.device();
    return;
  }
  if (C10_UNLIKELY(*common_device != tensor.device())) {
    common_device_check_failure(*common_device, tensor, methodName, argName);
  }
}

// Every tensor of a Tensor[] argument (torch.cat's list) takes part in the same check.
inline void check_and_update_common_device(std::optional<Device>& common_device, at::TensorList tensors,
                                           const char* methodName, const char* argName) {
  for (const auto& tensor : tensors) {
    check_and_update_common_device(common_device, tensor, methodName, argName);
  }
}

// A Tensor? argument (conv2d's bias, batch_norm's running_mean) takes part when present.
inline void check_and_update_common_device(std::optional<Device>& common_device,
                                           const std::optional<at::Tensor>& tensor, const char* methodName,
                                           const char* argName) {
  if (tensor.has_value()) {
    check_and_update_common_device(common_device, *tensor, methodName, argName);
  }
}

}  // namespace c10::impl
