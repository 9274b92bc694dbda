// c10/core/DeviceType.cpp - device type names.
// Mirrors PyTorch's c10/core/DeviceType.cpp. Guide: docs/source/internals/tensors.rst.
#include <c10/core/DeviceType.h>
#include <c10/util/Exception.h>

namespace c10 {

std::string DeviceTypeName(DeviceType d, bool lower_case) {
  switch (d) {
    // clang-format off
    case DeviceType::CPU:    return lower_case ? "cpu" : "CPU";
    case DeviceType::CUDA:   return lower_case ? "cuda" : "CUDA";
    case DeviceType::MKLDNN: return lower_case ? "mkldnn" : "MKLDNN";
    case DeviceType::OPENGL: return lower_case ? "opengl" : "OPENGL";
    case DeviceType::OPENCL: return lower_case ? "opencl" : "OPENCL";
    case DeviceType::IDEEP:  return lower_case ? "ideep" : "IDEEP";
    case DeviceType::HIP:    return lower_case ? "hip" : "HIP";
    case DeviceType::FPGA:   return lower_case ? "fpga" : "FPGA";
    case DeviceType::MAIA:   return lower_case ? "maia" : "MAIA";
    case DeviceType::XLA:    return lower_case ? "xla" : "XLA";
    case DeviceType::Vulkan: return lower_case ? "vulkan" : "VULKAN";
    case DeviceType::Metal:  return lower_case ? "metal" : "METAL";
    case DeviceType::XPU:    return lower_case ? "xpu" : "XPU";
    case DeviceType::MPS:    return lower_case ? "mps" : "MPS";
    case DeviceType::Meta:   return lower_case ? "meta" : "META";
    case DeviceType::HPU:    return lower_case ? "hpu" : "HPU";
    case DeviceType::VE:     return lower_case ? "ve" : "VE";
    case DeviceType::Lazy:   return lower_case ? "lazy" : "LAZY";
    case DeviceType::IPU:    return lower_case ? "ipu" : "IPU";
    case DeviceType::MTIA:   return lower_case ? "mtia" : "MTIA";
    case DeviceType::PrivateUse1: return lower_case ? "privateuseone" : "PRIVATEUSEONE";
    // clang-format on
    default:
      TORCH_CHECK(false, "Unknown device: ", static_cast<int16_t>(d),
                  ". If you have recently updated the caffe2.proto file to add a new "
                  "device type, did you forget to update the DeviceTypeName() "
                  "function to reflect such recent changes?");
  }
}

bool isValidDeviceType(DeviceType d) {
  auto i = static_cast<int>(d);
  return i >= 0 && i < COMPILE_TIME_MAX_DEVICE_TYPES;
}

std::ostream& operator<<(std::ostream& stream, DeviceType type) {
  stream << DeviceTypeName(type, /* lower_case */ true);
  return stream;
}

}  // namespace c10
