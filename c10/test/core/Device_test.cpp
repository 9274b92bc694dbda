// Tests Device string parsing (grammar and exact error texts), printing, equality, hashing and DeviceTypeName.
// Mirrors PyTorch's c10/test/core/Device_test.cpp. Guide: docs/source/internals/tensors.rst.
#include <c10/core/Device.h>
#include <c10/core/DeviceType.h>

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>
#include <unordered_set>

using c10::Device;
using c10::DeviceType;

namespace {

// The message of the error a device string raises ("" if none).
std::string parseError(const std::string& s) {
  try {
    Device d(s);
    (void)d;
  } catch (const c10::Error& e) {
    return e.what_without_backtrace();
  }
  return "";
}

}  // namespace

// PyTorch's own list of valid strings (c10/test/core/Device_test.cpp, BasicConstruction).
TEST(DeviceTest, BasicConstructionFromValidStrings) {
  struct Case {
    const char* text;
    DeviceType type;
    c10::DeviceIndex index;
  };
  const Case cases[] = {
      {"cpu", DeviceType::CPU, -1},
      {"cuda", DeviceType::CUDA, -1},
      {"cpu:0", DeviceType::CPU, 0},
      {"cuda:0", DeviceType::CUDA, 0},
      {"cuda:1", DeviceType::CUDA, 1},
  };
  for (const auto& c : cases) {
    Device d(c.text);
    EXPECT_EQ(d.type(), c.type) << c.text;
    EXPECT_EQ(d.index(), c.index) << c.text;
    EXPECT_EQ(d.has_index(), c.index != -1) << c.text;
  }
}

// PyTorch's own list of invalid strings.
TEST(DeviceTest, InvalidStringsThrow) {
  const char* bad[] = {"cpu:x", "cpu:foo", "cuda:cuda", "cuda:", "cpu:0:0", "cpu:0:",
                       "cpu:-1", "::",     ":",         "cpu:00", "cpu:01"};
  for (const char* s : bad) {
    EXPECT_THROW(Device{std::string(s)}, c10::Error) << "'" << s << "' should not parse";
  }
}

TEST(DeviceTest, InvalidStringsNameTheWholeInput) {
  for (const char* s : {"cuda:01", "cuda:-1", "cuda:1:2", "cuda: 1", "cuda:x", "cuda1", "cuda:",
                        "cpu:0:", "::"}) {
    EXPECT_EQ(parseError(s), std::string("Invalid device string: '") + s + "'") << s;
  }
}

TEST(DeviceTest, EmptyStringMessage) {
  EXPECT_EQ(parseError(""), "Device string must not be empty");
}

TEST(DeviceTest, LeadingZeroIndexMessage) {
  EXPECT_EQ(parseError("cuda:01"), "Invalid device string: 'cuda:01'");
}

TEST(DeviceTest, UnknownTypeIsCaseSensitiveAndEchoesOnlyTheName) {
  EXPECT_EQ(parseError("CUDA:0"),
            "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, "
            "maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of "
            "device string: CUDA");
  const std::string xyz = parseError("xyz");
  EXPECT_NE(xyz.find("device type at start of device string: xyz"), std::string::npos) << xyz;
}

TEST(DeviceTest, IndexOverflowMessage) {
  EXPECT_EQ(parseError("cuda:128"),
            "Could not parse device index '128' in device string 'cuda:128'");
  EXPECT_EQ(Device("cuda:127").index(), 127);
}

TEST(DeviceTest, EveryListedTypeNameParses) {
  EXPECT_EQ(Device("meta").type(), DeviceType::Meta);
  EXPECT_EQ(Device("xla:2").type(), DeviceType::XLA);
  EXPECT_EQ(Device("mps").type(), DeviceType::MPS);
  EXPECT_EQ(Device("privateuseone:0").type(), DeviceType::PrivateUse1);
  EXPECT_EQ(Device("hip:3").index(), 3);
}

TEST(DeviceTest, StrIsLowerCaseTypeAndOptionalIndex) {
  EXPECT_EQ(Device(DeviceType::CUDA, 1).str(), "cuda:1");
  EXPECT_EQ(Device(DeviceType::CPU).str(), "cpu");
  EXPECT_EQ(Device(DeviceType::CPU, 0).str(), "cpu:0");
  EXPECT_EQ(Device(DeviceType::Meta).str(), "meta");
  EXPECT_EQ(Device("cuda:1").str(), "cuda:1");
  std::ostringstream os;
  os << Device(DeviceType::CUDA, 2);
  EXPECT_EQ(os.str(), "cuda:2");
}

TEST(DeviceTest, EqualityComparesTypeAndIndex) {
  EXPECT_EQ(Device("cuda:1"), Device(DeviceType::CUDA, 1));
  EXPECT_NE(Device(DeviceType::CUDA, 0), Device(DeviceType::CUDA, 1));
  EXPECT_NE(Device(DeviceType::CUDA, 0), Device(DeviceType::CPU, 0));
  EXPECT_NE(Device(DeviceType::CPU), Device(DeviceType::CPU, 0));  // -1 is not 0
}

TEST(DeviceTest, HashDistinguishesIndexMinusOneFromZero) {
  std::hash<Device> h;
  EXPECT_NE(h(Device(DeviceType::CPU, -1)), h(Device(DeviceType::CPU, 0)));
  EXPECT_NE(h(Device(DeviceType::CUDA, -1)), h(Device(DeviceType::CUDA, 0)));
  EXPECT_NE(h(Device(DeviceType::CPU, 0)), h(Device(DeviceType::CUDA, 0)));
  // -1 must not sign-extend into the type: cuda:-1 and cpu:-1 differ too.
  EXPECT_NE(h(Device(DeviceType::CPU, -1)), h(Device(DeviceType::CUDA, -1)));
  EXPECT_EQ(h(Device("cuda:1")), h(Device(DeviceType::CUDA, 1)));

  std::unordered_set<Device> set{Device(DeviceType::CPU), Device(DeviceType::CPU, 0),
                                 Device(DeviceType::CUDA), Device(DeviceType::CUDA, 0)};
  EXPECT_EQ(set.size(), 4u);
}

TEST(DeviceTest, PredicatesFollowType) {
  EXPECT_TRUE(Device("cuda:0").is_cuda());
  EXPECT_FALSE(Device("cuda:0").is_cpu());
  EXPECT_TRUE(Device("cpu").is_cpu());
  EXPECT_TRUE(Device("meta").is_meta());
}

TEST(DeviceTypeTest, NamesLowerAndUpper) {
  EXPECT_EQ(c10::DeviceTypeName(DeviceType::CPU), "CPU");
  EXPECT_EQ(c10::DeviceTypeName(DeviceType::CPU, true), "cpu");
  EXPECT_EQ(c10::DeviceTypeName(DeviceType::CUDA), "CUDA");
  EXPECT_EQ(c10::DeviceTypeName(DeviceType::CUDA, true), "cuda");
  EXPECT_EQ(c10::DeviceTypeName(DeviceType::Meta), "META");
  EXPECT_EQ(c10::DeviceTypeName(DeviceType::Meta, true), "meta");
  EXPECT_EQ(c10::DeviceTypeName(DeviceType::PrivateUse1, true), "privateuseone");
  std::ostringstream os;
  os << DeviceType::CUDA;
  EXPECT_EQ(os.str(), "cuda");
}

TEST(DeviceTypeTest, EnumValuesArePyTorchs) {
  EXPECT_EQ(static_cast<int>(DeviceType::CPU), 0);
  EXPECT_EQ(static_cast<int>(DeviceType::CUDA), 1);
  EXPECT_EQ(static_cast<int>(DeviceType::FPGA), 7);
  EXPECT_EQ(static_cast<int>(DeviceType::XLA), 9);
  EXPECT_EQ(static_cast<int>(DeviceType::Meta), 14);
  EXPECT_EQ(static_cast<int>(DeviceType::PrivateUse1), 20);
  EXPECT_EQ(c10::COMPILE_TIME_MAX_DEVICE_TYPES, 21);
  EXPECT_TRUE(c10::isValidDeviceType(DeviceType::PrivateUse1));
  EXPECT_FALSE(c10::isValidDeviceType(DeviceType::COMPILE_TIME_MAX_DEVICE_TYPES));
}

TEST(DeviceTypeTest, UnknownDeviceTypeNameThrows) {
  EXPECT_THROW(c10::DeviceTypeName(static_cast<DeviceType>(42)), c10::Error);
}
