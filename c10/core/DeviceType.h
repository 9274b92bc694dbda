// c10/core/DeviceType.h - the kinds of device a tensor can live on.
// Mirrors PyTorch's c10/core/DeviceType.h (torch/headeronly/core/DeviceType.h in 2.x).
// Guide: docs/source/internals/tensors.rst.
//
// Seed 000 lists the device types of the era (CPU, CUDA, OPENGL, OPENCL, IDEEP, HIP, FPGA,
// ...). The numbering below is PyTorch 2.x's: the values are used as array indices
// (the allocator registry has one slot per type) and must not change.
#pragma once

#include <c10/macros/Macros.h>

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace c10 {

enum class DeviceType : int8_t {
  CPU = 0,
  CUDA = 1,         // NVIDIA GPUs
  MKLDNN = 2,       // reserved for explicit MKLDNN
  OPENGL = 3,
  OPENCL = 4,
  IDEEP = 5,
  HIP = 6,          // AMD GPUs
  FPGA = 7,
  MAIA = 8,         // named MSNPU in 1.x (as seed 000 lists it), then ORT, now MAIA
  XLA = 9,          // TPUs and other XLA targets
  Vulkan = 10,
  Metal = 11,
  XPU = 12,         // Intel GPUs
  MPS = 13,         // Apple GPUs
  Meta = 14,        // tensors with shapes but no data
  HPU = 15,
  VE = 16,
  Lazy = 17,
  IPU = 18,
  MTIA = 19,
  PrivateUse1 = 20, // an out-of-tree backend
  // Not a device: the number of device types, the size of per-type tables.
  COMPILE_TIME_MAX_DEVICE_TYPES = 21,
};

constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;
constexpr DeviceType kHIP = DeviceType::HIP;
constexpr DeviceType kMeta = DeviceType::Meta;
constexpr int COMPILE_TIME_MAX_DEVICE_TYPES =
    static_cast<int>(DeviceType::COMPILE_TIME_MAX_DEVICE_TYPES);

// "CPU"/"cpu", "CUDA"/"cuda", ... PrivateUse1 prints as "privateuseone".
C10_API std::string DeviceTypeName(DeviceType d, bool lower_case = false);
C10_API bool isValidDeviceType(DeviceType d);
C10_API std::ostream& operator<<(std::ostream& stream, DeviceType type);

}  // namespace c10

namespace std {
template <>
struct hash<c10::DeviceType> {
  std::size_t operator()(c10::DeviceType k) const {
    return std::hash<int>()(static_cast<int>(k));
  }
};
}  // namespace std

namespace at {
using c10::DeviceType;
using c10::kCPU;
using c10::kCUDA;
}  // namespace at
