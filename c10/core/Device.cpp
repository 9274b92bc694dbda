// c10/core/Device.cpp - parsing and printing device strings.
// Mirrors PyTorch's c10/core/Device.cpp. Guide: docs/source/internals/tensors.rst.
#include <c10/core/Device.h>
#include <c10/util/Exception.h>

#include <array>
#include <cctype>
#include <limits>
#include <utility>

namespace c10 {
namespace {

// The names a device string may start with, in the order PyTorch lists them in its error.
constexpr std::array<std::pair<const char*, DeviceType>, 20> kDeviceTypeNames = {{
    {"cpu", DeviceType::CPU},       {"cuda", DeviceType::CUDA},
    {"ipu", DeviceType::IPU},       {"xpu", DeviceType::XPU},
    {"mkldnn", DeviceType::MKLDNN}, {"opengl", DeviceType::OPENGL},
    {"opencl", DeviceType::OPENCL}, {"ideep", DeviceType::IDEEP},
    {"hip", DeviceType::HIP},       {"ve", DeviceType::VE},
    {"fpga", DeviceType::FPGA},     {"maia", DeviceType::MAIA},
    {"xla", DeviceType::XLA},       {"lazy", DeviceType::Lazy},
    {"vulkan", DeviceType::Vulkan}, {"mps", DeviceType::MPS},
    {"meta", DeviceType::Meta},     {"hpu", DeviceType::HPU},
    {"mtia", DeviceType::MTIA},     {"privateuseone", DeviceType::PrivateUse1},
}};

DeviceType parse_type(const std::string& device_string) {
  for (const auto& [name, type] : kDeviceTypeNames) {
    if (device_string == name) {
      return type;
    }
  }
  std::string expected;
  for (const auto& entry : kDeviceTypeNames) {
    expected += expected.empty() ? "" : ", ";
    expected += entry.first;
  }
  TORCH_CHECK(false, "Expected one of ", expected,
              " device type at start of device string: ", device_string);
}

enum class DeviceStringParsingState { START, INDEX_START, INDEX_REST, ERROR };

}  // namespace

// [marker: device_string]
// A small state machine instead of std::regex (slow to build, and this runs for every
// torch.device("...") from Python): START reads the type name, ':' moves to INDEX_START,
// digits continue in INDEX_REST. A leading '0' followed by more digits is an error.
Device::Device(const std::string& device_string) : Device(DeviceType::CPU) {
  TORCH_CHECK(!device_string.empty(), "Device string must not be empty");

  std::string device_name, device_index_str;
  DeviceStringParsingState pstate = DeviceStringParsingState::START;

  for (size_t i = 0; pstate != DeviceStringParsingState::ERROR && i < device_string.size(); ++i) {
    const char ch = device_string.at(i);
    const unsigned char uch = static_cast<unsigned char>(ch);
    switch (pstate) {
      case DeviceStringParsingState::START:
        if (ch != ':') {
          if (std::isalpha(uch) || ch == '_') {
            device_name.push_back(ch);
          } else {
            pstate = DeviceStringParsingState::ERROR;
          }
        } else {
          pstate = DeviceStringParsingState::INDEX_START;
        }
        break;
      case DeviceStringParsingState::INDEX_START:
        if (std::isdigit(uch)) {
          device_index_str.push_back(ch);
          pstate = DeviceStringParsingState::INDEX_REST;
        } else {
          pstate = DeviceStringParsingState::ERROR;
        }
        break;
      case DeviceStringParsingState::INDEX_REST:
        if (device_index_str.at(0) == '0') {  // "cuda:01"
          pstate = DeviceStringParsingState::ERROR;
          break;
        }
        if (std::isdigit(uch)) {
          device_index_str.push_back(ch);
        } else {
          pstate = DeviceStringParsingState::ERROR;
        }
        break;
      case DeviceStringParsingState::ERROR:
        break;
    }
  }

  const bool has_error = device_name.empty() || pstate == DeviceStringParsingState::ERROR ||
                         (pstate == DeviceStringParsingState::INDEX_START && device_index_str.empty());
  TORCH_CHECK(!has_error, "Invalid device string: '", device_string, "'");
  // [end marker: device_string]

  if (!device_index_str.empty()) {
    // Digits only by now; too many of them cannot be a DeviceIndex.
    long long idx = -1;
    try {
      idx = std::stoll(device_index_str);
    } catch (const std::exception&) {
    }
    TORCH_CHECK(idx >= 0 && idx <= std::numeric_limits<DeviceIndex>::max(),
                "Could not parse device index '", device_index_str, "' in device string '",
                device_string, "'");
    index_ = static_cast<DeviceIndex>(idx);
  }
  type_ = parse_type(device_name);
  validate();
}

std::string Device::str() const {
  std::string str = DeviceTypeName(type(), /* lower case */ true);
  if (has_index()) {
    str.push_back(':');
    str.append(std::to_string(index()));
  }
  return str;
}

std::ostream& operator<<(std::ostream& stream, const Device& device) {
  stream << device.str();
  return stream;
}

}  // namespace c10
