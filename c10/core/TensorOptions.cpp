// c10/core/TensorOptions.cpp - from options to a dispatch key (what BackendSelect does).
// Mirrors PyTorch's c10/core/TensorOptions.h computeDispatchKey. Guide: docs/source/internals/dispatch.rst.
#include <c10/core/TensorOptions.h>
#include <c10/util/Exception.h>

namespace c10 {

DispatchKey computeDispatchKey(std::optional<ScalarType> /*dtype*/, std::optional<Device> device) {
  const DeviceType type = device.value_or(Device(DeviceType::CPU)).type();
  switch (type) {
    case DeviceType::CPU: return DispatchKey::CPU;
    case DeviceType::CUDA: return DispatchKey::CUDA;
    case DeviceType::Meta: return DispatchKey::Meta;
    default:
      TORCH_CHECK_NOT_IMPLEMENTED(false, "Could not compute a dispatch key for device type ", type,
                                  ": this build has CPU, CUDA and Meta tensors");
  }
}

}  // namespace c10
