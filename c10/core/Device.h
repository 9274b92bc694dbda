// c10/core/Device.h - a device: a DeviceType plus an optional index ("cuda:1").
// Mirrors PyTorch's c10/core/Device.h. Guide: docs/source/internals/tensors.rst.
//
// Index -1 means "the current device of that type" (torch.device("cuda") has index None).
// Seed 001's design principle "explicit devices": operators compare Devices and refuse to
// mix them; nothing moves between devices unless the user asks.
#pragma once

#include <c10/core/DeviceType.h>
#include <c10/macros/Macros.h>
#include <c10/util/Exception.h>

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace c10 {

// [marker: Device]
using DeviceIndex = int8_t;

struct C10_API Device final {
  using Type = DeviceType;

  /* implicit */ Device(DeviceType type, DeviceIndex index = -1) : type_(type), index_(index) {
    validate();
  }

  // Parse "cpu", "cuda", "cuda:1", ... (grammar: ([a-zA-Z_]+)(?::([1-9]\d*|0))?).
  // Errors, as PyTorch words them:
  //   ""          -> "Device string must not be empty"
  //   "cuda:01"   -> "Invalid device string: 'cuda:01'"
  //   "CUDA:0"    -> "Expected one of cpu, cuda, ... device type at start of device string: CUDA"
  /* implicit */ Device(const std::string& device_string);

  bool operator==(const Device& other) const noexcept {
    return type_ == other.type_ && index_ == other.index_;
  }
  bool operator!=(const Device& other) const noexcept { return !(*this == other); }

  void set_index(DeviceIndex index) { index_ = index; }
  DeviceType type() const noexcept { return type_; }
  DeviceIndex index() const noexcept { return index_; }
  bool has_index() const noexcept { return index_ != -1; }
  bool is_cuda() const noexcept { return type_ == DeviceType::CUDA; }
  bool is_cpu() const noexcept { return type_ == DeviceType::CPU; }
  bool is_meta() const noexcept { return type_ == DeviceType::Meta; }

  // "cpu", "cuda:1": the lower-case type name, then ":index" if there is one.
  std::string str() const;

 private:
  DeviceType type_;
  DeviceIndex index_ = -1;

  void validate() {
    // Debug-only, as in PyTorch: Device is constructed on hot paths, and a backend checks
    // the index again when it switches to the device. (PyTorch's debug builds also reject
    // "cpu:1"; release builds accept it, and so does this tree in both.)
    TORCH_INTERNAL_ASSERT_DEBUG_ONLY(index_ >= -1,
                                     "Device index must be -1 or non-negative, got ", static_cast<int>(index_));
  }
};
// [end marker: Device]

C10_API std::ostream& operator<<(std::ostream& stream, const Device& device);

}  // namespace c10

namespace std {
template <>
struct hash<c10::Device> {
  size_t operator()(c10::Device d) const noexcept {
    // Type in the high byte, index in the low byte; the index is made unsigned first so
    // that -1 does not sign-extend into the type's bits.
    uint32_t bits = static_cast<uint32_t>(static_cast<uint8_t>(d.type())) << 16 |
                    static_cast<uint32_t>(static_cast<uint8_t>(d.index()));
    return std::hash<uint32_t>{}(bits);
  }
};
}  // namespace std

namespace at {
using c10::Device;
using c10::DeviceIndex;
}  // namespace at
