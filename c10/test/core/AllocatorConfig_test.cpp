// Tests parsing of PYTORCH_ALLOC_CONF settings strings: options, defaults, per-parse resets and every error text.
// Mirrors PyTorch's c10/test/core/AllocatorConfig_test.cpp. Guide: docs/source/internals/cuda_caching_allocator.rst
#include <c10/core/AllocatorConfig.h>
#include <c10/util/Exception.h>

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using c10::CachingAllocator::AllocatorConfig;
using c10::CachingAllocator::kMB;
using c10::CachingAllocator::tokenizeAllocatorConfig;

namespace {

// The ValueError message parseArgs raises for `settings` ("<no exception>" if it parses).
std::string parseError(const std::string& settings) {
  AllocatorConfig config;
  try {
    config.parseArgs(settings);
  } catch (const c10::ValueError& e) {
    return e.msg();
  }
  return "<no exception>";
}

}  // namespace

// ---- PyTorch's own cases ----------------------------------------------------------------

TEST(AllocatorConfigTest, RoundUpPower2DivisionsListSetsEachInterval) {
  AllocatorConfig config;
  config.parseArgs("roundup_power2_divisions:[64:8,128:2,256:4,512:2,1024:4,>:1]");
  EXPECT_EQ(config.roundup_power2_divisions(32 * kMB), 8u);  // below the first key: filled with 8
  EXPECT_EQ(config.roundup_power2_divisions(64 * kMB), 8u);
  EXPECT_EQ(config.roundup_power2_divisions(128 * kMB), 2u);
  EXPECT_EQ(config.roundup_power2_divisions(256 * kMB), 4u);
  EXPECT_EQ(config.roundup_power2_divisions(512 * kMB), 2u);
  EXPECT_EQ(config.roundup_power2_divisions(1024 * kMB), 4u);
  EXPECT_EQ(config.roundup_power2_divisions(2048 * kMB), 1u);  // ">" fills the rest
  EXPECT_EQ(config.roundup_power2_divisions(4096 * kMB), 1u);
  EXPECT_EQ(config.roundup_power2_divisions(8192 * kMB), 1u);
}

TEST(AllocatorConfigTest, RoundUpPower2DivisionsLeavesUnnamedIntervalsAtZero) {
  AllocatorConfig config;
  config.parseArgs("roundup_power2_divisions:[128:8,256:16,512:1,2048:8,>:2]");
  EXPECT_EQ(config.roundup_power2_divisions(64 * kMB), 8u);
  EXPECT_EQ(config.roundup_power2_divisions(128 * kMB), 8u);
  EXPECT_EQ(config.roundup_power2_divisions(256 * kMB), 16u);
  EXPECT_EQ(config.roundup_power2_divisions(512 * kMB), 1u);
  EXPECT_EQ(config.roundup_power2_divisions(1024 * kMB), 0u);  // between two keys: unset
  EXPECT_EQ(config.roundup_power2_divisions(2048 * kMB), 8u);
  EXPECT_EQ(config.roundup_power2_divisions(4096 * kMB), 2u);
}

// ---- intervals and the single-value form ------------------------------------------------

TEST(AllocatorConfigTest, IntervalIsLog2OfTheSizeInMiBClampedTo0To15) {
  AllocatorConfig config;
  config.parseArgs("roundup_power2_divisions:[1:2,2:4,>:8]");
  EXPECT_EQ(config.roundup_power2_divisions(1), 2u);  // everything under 2 MiB is interval 0
  EXPECT_EQ(config.roundup_power2_divisions(1200), 2u);
  EXPECT_EQ(config.roundup_power2_divisions(2 * kMB - 1), 2u);
  EXPECT_EQ(config.roundup_power2_divisions(2 * kMB), 4u);
  EXPECT_EQ(config.roundup_power2_divisions(4 * kMB), 8u);
  EXPECT_EQ(config.roundup_power2_divisions(size_t(1) << 50), 8u);  // beyond 64 GiB: the last interval
  EXPECT_EQ(config.roundup_power2_divisions()[0], 2u);
  EXPECT_EQ(config.roundup_power2_divisions()[1], 4u);
  EXPECT_EQ(config.roundup_power2_divisions()[15], 8u);
}

TEST(AllocatorConfigTest, SingleDivisionValueSetsEveryInterval) {
  AllocatorConfig config;
  config.parseArgs("roundup_power2_divisions:4");
  for (size_t d : config.roundup_power2_divisions()) {
    EXPECT_EQ(d, 4u);
  }
}

TEST(AllocatorConfigTest, ZeroDivisionsInTheListDisableRounding) {
  AllocatorConfig config;
  config.parseArgs("roundup_power2_divisions:[64:0,>:4]");
  EXPECT_EQ(config.roundup_power2_divisions(64 * kMB), 0u);
  EXPECT_EQ(config.roundup_power2_divisions(128 * kMB), 4u);
}

// ---- options and defaults ---------------------------------------------------------------

TEST(AllocatorConfigTest, DefaultsAreUnlimitedSplitAndNoRounding) {
  AllocatorConfig config;
  EXPECT_EQ(config.max_split_size(), std::numeric_limits<size_t>::max());
  EXPECT_EQ(config.max_non_split_rounding_size(), 20 * kMB);
  EXPECT_EQ(config.garbage_collection_threshold(), 0.0);
  EXPECT_EQ(config.roundup_power2_divisions(84 * kMB), 0u);
  EXPECT_FALSE(config.expandable_segments());
  EXPECT_EQ(config.last_allocator_settings(), "");
}

TEST(AllocatorConfigTest, OptionsAreParsedInMiB) {
  AllocatorConfig config;
  config.parseArgs("max_split_size_mb:40,max_non_split_rounding_mb:30,garbage_collection_threshold:0.6,"
                   "expandable_segments:True");
  EXPECT_EQ(config.max_split_size(), 40 * kMB);
  EXPECT_EQ(config.max_non_split_rounding_size(), 30 * kMB);
  EXPECT_EQ(config.garbage_collection_threshold(), 0.6);
  EXPECT_TRUE(config.expandable_segments());
}

TEST(AllocatorConfigTest, TheSmallestAcceptedSplitSizeIs20MiB) {
  AllocatorConfig config;
  config.parseArgs("max_split_size_mb:20");
  EXPECT_EQ(config.max_split_size(), 20 * kMB);
  config.parseArgs("max_non_split_rounding_mb:20");
  EXPECT_EQ(config.max_non_split_rounding_size(), 20 * kMB);
}

TEST(AllocatorConfigTest, WhitespaceIsIgnored) {
  AllocatorConfig config;
  config.parseArgs(" max_split_size_mb : 64 , roundup_power2_divisions : [ 256 : 4 , > : 2 ] ");
  EXPECT_EQ(config.max_split_size(), 64 * kMB);
  EXPECT_EQ(config.roundup_power2_divisions(256 * kMB), 4u);
  EXPECT_EQ(config.roundup_power2_divisions(512 * kMB), 2u);
}

TEST(AllocatorConfigTest, TokenizerSplitsOnCommaColonAndBrackets) {
  const std::vector<std::string> expected = {"a", ":", "1", ",", "b", ":", "[", "2", ":", "3", ",", ">", ":", "4", "]"};
  EXPECT_EQ(tokenizeAllocatorConfig("a:1, b:[2:3,>:4]"), expected);
  EXPECT_TRUE(tokenizeAllocatorConfig("").empty());
}

TEST(AllocatorConfigTest, EachParseResetsSplitSizeDivisionsAndGcThresholdOnly) {
  AllocatorConfig config;
  config.parseArgs("max_split_size_mb:40,roundup_power2_divisions:4,garbage_collection_threshold:0.5,"
                   "max_non_split_rounding_mb:30,expandable_segments:True");
  config.parseArgs("");
  EXPECT_EQ(config.max_split_size(), std::numeric_limits<size_t>::max());
  EXPECT_EQ(config.roundup_power2_divisions(84 * kMB), 0u);
  EXPECT_EQ(config.garbage_collection_threshold(), 0.0);
  EXPECT_EQ(config.max_non_split_rounding_size(), 30 * kMB);  // kept
  EXPECT_TRUE(config.expandable_segments());                  // kept
}

TEST(AllocatorConfigTest, LastAllocatorSettingsIsTheLastRawString) {
  AllocatorConfig config;
  config.parseArgs("max_split_size_mb:40");
  EXPECT_EQ(config.last_allocator_settings(), "max_split_size_mb:40");
  config.parseArgs(" roundup_power2_divisions:2 ");
  EXPECT_EQ(config.last_allocator_settings(), " roundup_power2_divisions:2 ");
}

// ---- errors (all ValueError) ------------------------------------------------------------

TEST(AllocatorConfigTest, ErrorTextsMatchPyTorch) {
  EXPECT_EQ(parseError("max_split_size_mb:19"), "CachingAllocator option max_split_size_mb too small, must be >= 20");
  EXPECT_EQ(parseError("max_non_split_rounding_mb:10"),
            "CachingAllocator option max_non_split_rounding_mb too small, must be >= 20");
  EXPECT_EQ(parseError("roundup_power2_divisions:3"), "For roundups, the divisions has to be power of 2 ");
  EXPECT_EQ(parseError("roundup_power2_divisions:0"), "For roundups, the divisions has to be power of 2 ");
  EXPECT_EQ(parseError("roundup_power2_divisions:[64:3]"),
            "For roundups, the divisions has to be power of 2 or 0 to disable roundup ");
  EXPECT_EQ(parseError("roundup_power2_divisions:[96:4]"), "For roundups, the intervals have to be power of 2 ");
  for (const char* bad : {"garbage_collection_threshold:0", "garbage_collection_threshold:1.0",
                          "garbage_collection_threshold:1.5", "garbage_collection_threshold:-0.5"}) {
    EXPECT_EQ(parseError(bad), "garbage_collect_threshold is invalid, set it in (0.0, 1.0)") << bad;
  }
  EXPECT_EQ(parseError("expandable_segments:maybe"),
            "Expected 'True' or 'False' at index 2 in ConfigTokenizer but got 'maybe'");
  EXPECT_EQ(parseError("foo:1"), "Unrecognized key 'foo' in Accelerator allocator config.");
  EXPECT_EQ(parseError("max_split_size_mb:40,foo:1"), "Unrecognized key 'foo' in Accelerator allocator config.");
}

TEST(AllocatorConfigTest, ErrorsAreValueErrors) {
  AllocatorConfig config;
  EXPECT_THROW(config.parseArgs("foo:1"), c10::ValueError);
  EXPECT_THROW(config.parseArgs("max_split_size_mb:1"), c10::ValueError);
  EXPECT_THROW(config.parseArgs("max_split_size_mb;40"), c10::ValueError);
}

// Numbers are read with std::stoull / std::stod, as PyTorch reads them: what they throw is
// what the caller sees (pybind11 turns std::invalid_argument into ValueError and
// std::out_of_range into IndexError); a missing value is PyTorch's internal-assert error.
TEST(AllocatorConfigTest, NumbersAreReadAsStdStoullReadsThem) {
  AllocatorConfig config;
  EXPECT_THROW(config.parseArgs("max_split_size_mb:abc"), std::invalid_argument);
  EXPECT_THROW(config.parseArgs("max_split_size_mb:99999999999999999999"), std::out_of_range);
  EXPECT_THROW(config.parseArgs("garbage_collection_threshold:abc"), std::invalid_argument);
  EXPECT_THROW(config.parseArgs("max_split_size_mb"), c10::Error);
  config.parseArgs("max_split_size_mb:20.5");  // the leading digits
  EXPECT_EQ(config.max_split_size(), 20u * 1024 * 1024);
}

TEST(AllocatorConfigTest, OptionsOfOtherAllocatorsAreAccepted) {
  AllocatorConfig config;
  config.parseArgs("release_lock_on_cudamalloc:True,pinned_use_cuda_host_register:False,backend:native");
  EXPECT_EQ(config.max_split_size(), std::numeric_limits<size_t>::max());
}
