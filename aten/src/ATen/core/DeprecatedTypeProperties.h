// aten/src/ATen/core/DeprecatedTypeProperties.h - what the deprecated Tensor::type() returns:
// a tensor's backend and dtype as one value ("CPUFloatType"), as ATen's Type objects were
// before PyTorch 1.0 split them into a device and a dtype. Extensions written then still
// call it: AT_DISPATCH_FLOATING_TYPES(x.type(), ...), x.type().is_cuda().
// Mirrors PyTorch's aten/src/ATen/core/DeprecatedTypeProperties.h. Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/core/TensorOptions.h>

#include <string>

namespace at {

class DeprecatedTypeProperties {
 public:
  DeprecatedTypeProperties(DeviceType device_type, ScalarType scalar_type)
      : device_type_(device_type), scalar_type_(scalar_type) {}

  ScalarType scalarType() const { return scalar_type_; }
  DeviceType device_type() const { return device_type_; }
  bool is_cuda() const { return device_type_ == DeviceType::CUDA; }
  TensorOptions options() const { return TensorOptions().dtype(scalar_type_).device(Device(device_type_)); }
  // "CPUFloatType", "CUDADoubleType".
  std::string toString() const {
    return c10::DeviceTypeName(device_type_, /*lower_case=*/false) + c10::toString(scalar_type_) + "Type";
  }
  bool operator==(const DeprecatedTypeProperties& other) const {
    return device_type_ == other.device_type_ && scalar_type_ == other.scalar_type_;
  }
  bool operator!=(const DeprecatedTypeProperties& other) const { return !(*this == other); }

 private:
  DeviceType device_type_;
  ScalarType scalar_type_;
};

}  // namespace at
