// Tests the C10_DEFINE_bool registry: GetBoolFlag/SetBoolFlag by name alias FLAGS_*, and unknown names raise ValueError listing the known flags.
// Mirrors PyTorch's c10/util/Flags.h (c10/util/flags_use_no_gflags.cpp) as used by torch._C._set_c10_flag. Guide: docs/source/internals/memory.rst.
#include <c10/core/CPUAllocator.h>
#include <c10/core/impl/alloc_cpu.h>
#include <c10/util/Flags.h>

#include <gtest/gtest.h>

#include <string>

namespace {

// Restores the junk-fill flag whatever a test does to it.
class FlagsTest : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = FLAGS_caffe2_cpu_allocator_do_junk_fill; }
  void TearDown() override { FLAGS_caffe2_cpu_allocator_do_junk_fill = saved_; }

 private:
  bool saved_ = false;
};

}  // namespace

TEST_F(FlagsTest, DefaultsAreOff) {
  EXPECT_FALSE(c10::GetBoolFlag("caffe2_cpu_allocator_do_junk_fill"));
  EXPECT_FALSE(c10::GetBoolFlag("caffe2_cpu_allocator_do_zero_fill"));
  EXPECT_FALSE(c10::GetBoolFlag("caffe2_report_cpu_memory_usage"));
}

TEST_F(FlagsTest, SetByNameWritesTheGlobal) {
  c10::SetBoolFlag("caffe2_cpu_allocator_do_junk_fill", true);
  EXPECT_TRUE(FLAGS_caffe2_cpu_allocator_do_junk_fill);
  EXPECT_TRUE(c10::GetBoolFlag("caffe2_cpu_allocator_do_junk_fill"));
  c10::SetBoolFlag("caffe2_cpu_allocator_do_junk_fill", false);
  EXPECT_FALSE(FLAGS_caffe2_cpu_allocator_do_junk_fill);
}

TEST_F(FlagsTest, GetByNameReadsTheGlobal) {
  FLAGS_caffe2_cpu_allocator_do_junk_fill = true;
  EXPECT_TRUE(c10::GetBoolFlag("caffe2_cpu_allocator_do_junk_fill"));
  FLAGS_caffe2_cpu_allocator_do_junk_fill = false;
  EXPECT_FALSE(c10::GetBoolFlag("caffe2_cpu_allocator_do_junk_fill"));
}

TEST_F(FlagsTest, RegistryHoldsEachFlagOnceWithHelp) {
  int junk = 0, zero = 0, report = 0;
  for (const auto& flag : c10::BoolFlagRegistry()) {
    const std::string name = flag.name;
    junk += name == "caffe2_cpu_allocator_do_junk_fill";
    zero += name == "caffe2_cpu_allocator_do_zero_fill";
    report += name == "caffe2_report_cpu_memory_usage";
    EXPECT_NE(flag.value, nullptr) << name;
    EXPECT_GT(std::string(flag.help).size(), 0u) << name;
    if (name == "caffe2_cpu_allocator_do_junk_fill") {
      EXPECT_EQ(flag.value, &FLAGS_caffe2_cpu_allocator_do_junk_fill);
    }
  }
  EXPECT_EQ(junk, 1);
  EXPECT_EQ(zero, 1);
  EXPECT_EQ(report, 1);
  EXPECT_EQ(std::string("If set, print out detailed memory usage"),
            [] {
              for (const auto& flag : c10::BoolFlagRegistry()) {
                if (std::string(flag.name) == "caffe2_report_cpu_memory_usage") return std::string(flag.help);
              }
              return std::string();
            }());
}

TEST_F(FlagsTest, UnknownNameThrowsValueErrorListingKnownFlags) {
  for (int set = 0; set < 2; ++set) {
    try {
      if (set) {
        c10::SetBoolFlag("no_such_flag", true);
      } else {
        (void)c10::GetBoolFlag("no_such_flag");
      }
      FAIL() << "expected c10::ValueError";
    } catch (const c10::ValueError& e) {
      const std::string msg = e.what_without_backtrace();
      EXPECT_EQ(msg.rfind("Unknown c10 flag 'no_such_flag'. Known flags: ", 0), 0u) << msg;
      EXPECT_NE(msg.find("caffe2_cpu_allocator_do_junk_fill"), std::string::npos) << msg;
      EXPECT_NE(msg.find("caffe2_cpu_allocator_do_zero_fill"), std::string::npos) << msg;
      EXPECT_NE(msg.find("caffe2_report_cpu_memory_usage"), std::string::npos) << msg;
    }
  }
}

TEST_F(FlagsTest, NamesAreCaseSensitive) {
  EXPECT_THROW(c10::GetBoolFlag("CAFFE2_CPU_ALLOCATOR_DO_JUNK_FILL"), c10::ValueError);
}
