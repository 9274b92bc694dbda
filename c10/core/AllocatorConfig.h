// c10/core/AllocatorConfig.h - the caching allocator's constants and its settings string.
// Mirrors PyTorch's c10/core/AllocatorConfig.h (constants, ConfigTokenizer,
// AcceleratorAllocatorConfig). Guide: docs/source/internals/cuda_caching_allocator.rst.
//
// Settings come from PYTORCH_ALLOC_CONF (or PYTORCH_CUDA_ALLOC_CONF) as a string such as
//   "max_split_size_mb:128,roundup_power2_divisions:[64:8,256:4,>:1]"
// PyTorch keeps one global config; here each allocator owns an AllocatorConfig, so the CUDA
// allocator and every simulated device can be configured separately.
#pragma once

#include <c10/macros/Macros.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace c10::CachingAllocator {

// [marker: constants]
constexpr size_t kMB = 1024 * 1024;
constexpr size_t kMinBlockSize = 512;        // all sizes are rounded to at least 512 bytes
constexpr size_t kSmallSize = 1048576;       // largest "small" allocation is 1 MiB
constexpr size_t kSmallBuffer = 2097152;     // "small" allocations are packed in 2 MiB blocks
constexpr size_t kMinLargeAlloc = 10485760;  // allocations between 1 and 10 MiB may use kLargeBuffer
constexpr size_t kRoundLarge = 2097152;      // round up large allocations to 2 MiB
constexpr size_t kLargeBuffer = 20971520;    // "large" allocations may be packed in 20 MiB blocks
// roundup_power2_divisions is set per power-of-two interval from 1 MiB to 64 GiB.
constexpr size_t kRoundUpPowerOfTwoIntervals = 16;
constexpr size_t kRoundUpPowerOfTwoStart = 1024 * 1024;
constexpr size_t kRoundUpPowerOfTwoEnd = 64ULL * 1024 * 1024 * 1024;
// [end marker: constants]

class C10_API AllocatorConfig {
 public:
  AllocatorConfig() = default;

  // Parse a settings string. Each call first resets max_split_size, the roundup divisions
  // and the garbage collection threshold to their defaults; other options keep their values.
  // Bad values and unknown keys raise ValueError with PyTorch's messages.
  void parseArgs(const std::string& settings);

  // Blocks of at least this size are never split (default: no limit).
  size_t max_split_size() const { return max_split_size_; }
  // An oversize cached block may serve a request only if it is less than this much larger.
  size_t max_non_split_rounding_size() const { return max_non_split_rounding_size_; }
  // Fraction of the allowed memory above which cached blocks are reclaimed (0: off).
  double garbage_collection_threshold() const { return garbage_collection_threshold_; }
  // The number of divisions for sizes in size's power-of-two interval (0 or 1: no rounding).
  size_t roundup_power2_divisions(size_t size) const;
  const std::array<size_t, kRoundUpPowerOfTwoIntervals>& roundup_power2_divisions() const {
    return roundup_power2_divisions_;
  }
  // Accepted for compatibility; this allocator always uses fixed segments.
  bool expandable_segments() const { return expandable_segments_; }
  // The last settings string parsed.
  const std::string& last_allocator_settings() const { return last_allocator_settings_; }

 private:
  size_t parseMaxSplitSize(const std::vector<std::string>& tokens, size_t i);
  size_t parseMaxNonSplitRoundingSize(const std::vector<std::string>& tokens, size_t i);
  size_t parseGarbageCollectionThreshold(const std::vector<std::string>& tokens, size_t i);
  size_t parseRoundUpPower2Divisions(const std::vector<std::string>& tokens, size_t i);
  size_t parseBool(const std::vector<std::string>& tokens, size_t i, bool* out);

  size_t max_split_size_ = std::numeric_limits<size_t>::max();
  size_t max_non_split_rounding_size_ = kLargeBuffer;
  double garbage_collection_threshold_ = 0;
  std::array<size_t, kRoundUpPowerOfTwoIntervals> roundup_power2_divisions_{};
  bool expandable_segments_ = false;
  std::string last_allocator_settings_;
};

// Split "a:1,b:[2:3,>:4]" into tokens: names/values and the characters , : [ ] each alone.
C10_API std::vector<std::string> tokenizeAllocatorConfig(const std::string& settings);

}  // namespace c10::CachingAllocator
