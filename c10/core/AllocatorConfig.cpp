// c10/core/AllocatorConfig.cpp - parsing PYTORCH_ALLOC_CONF / PYTORCH_CUDA_ALLOC_CONF.
// Mirrors PyTorch's c10/core/AllocatorConfig.cpp. Guide: docs/source/internals/cuda_caching_allocator.rst.
#include <c10/core/AllocatorConfig.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <cctype>
#include <string>

namespace c10::CachingAllocator {
namespace {

bool isPowerOf2(size_t v) {
  return v != 0 && (v & (v - 1)) == 0;
}

size_t log2Floor(size_t v) {
  return 63 - static_cast<size_t>(__builtin_clzll(v));
}

// A value missing at the end ("max_split_size_mb:") is PyTorch's internal-assert
// RuntimeError, not a ValueError.
const std::string& tokenAt(const std::vector<std::string>& tokens, size_t i) {
  TORCH_CHECK(i < tokens.size(), "Index out of bounds in ConfigTokenizer");
  return tokens[i];
}

void checkToken(const std::vector<std::string>& tokens, size_t i, const char* expected) {
  TORCH_CHECK_VALUE(tokenAt(tokens, i) == expected, "Expected '", expected, "' at index ", i,
                    " in ConfigTokenizer but got '", tokens[i], "'");
}

// Numbers are read as PyTorch reads them, with std::stoull / std::stod: leading digits count
// ("20.5" is 20, "-5" wraps around as unsigned), a number too large for size_t is
// std::out_of_range (an IndexError in Python) and no number at all std::invalid_argument
// (a ValueError). A value that merely exceeds what the allocator can use is clamped later.
size_t toSizeT(const std::vector<std::string>& tokens, size_t i) {
  return std::stoull(tokenAt(tokens, i));
}

double toDouble(const std::vector<std::string>& tokens, size_t i) {
  return std::stod(tokenAt(tokens, i));
}

}  // namespace

std::vector<std::string> tokenizeAllocatorConfig(const std::string& settings) {
  std::vector<std::string> tokens;
  std::string current;
  for (char c : settings) {
    if (c == ',' || c == ':' || c == '[' || c == ']') {
      if (!current.empty()) tokens.push_back(current);
      current.clear();
      tokens.emplace_back(1, c);
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      current.push_back(c);
    }
  }
  if (!current.empty()) tokens.push_back(current);
  return tokens;
}

// [marker: parseArgs]
void AllocatorConfig::parseArgs(const std::string& settings) {
  // Options not mentioned go back to their defaults.
  max_split_size_ = std::numeric_limits<size_t>::max();
  roundup_power2_divisions_.fill(0);
  garbage_collection_threshold_ = 0;

  const auto tokens = tokenizeAllocatorConfig(settings);
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& key = tokens[i];
    if (key == "max_split_size_mb") {
      i = parseMaxSplitSize(tokens, i);
    } else if (key == "max_non_split_rounding_mb") {
      i = parseMaxNonSplitRoundingSize(tokens, i);
    } else if (key == "garbage_collection_threshold") {
      i = parseGarbageCollectionThreshold(tokens, i);
    } else if (key == "roundup_power2_divisions") {
      i = parseRoundUpPower2Divisions(tokens, i);
    } else if (key == "expandable_segments") {
      i = parseBool(tokens, i, &expandable_segments_);
    } else if (key == "release_lock_on_cudamalloc" || key == "pinned_use_cuda_host_register" ||
               key == "pinned_use_background_threads" || key == "graph_capture_record_stream_reuse") {
      bool ignored = false;  // options of other parts of PyTorch: accepted, no effect here
      i = parseBool(tokens, i, &ignored);
    } else if (key == "pinned_num_register_threads" || key == "per_process_memory_fraction") {
      // Also options of other parts (the pinned host allocator; the fraction has its own
      // call, set_per_process_memory_fraction): the value must still be a number.
      checkToken(tokens, ++i, ":");
      toDouble(tokens, ++i);
    } else if (key == "backend") {
      checkToken(tokens, ++i, ":");
      const std::string& backend = tokenAt(tokens, ++i);
      TORCH_CHECK_VALUE(backend == "native",
                        "Unknown allocator backend '", backend, "': this build has only the native caching allocator");
    } else {
      TORCH_CHECK_VALUE(false, "Unrecognized key '", key, "' in Accelerator allocator config.");
    }
    if (i + 1 < tokens.size()) {
      checkToken(tokens, ++i, ",");
    }
  }
  last_allocator_settings_ = settings;
}
// [end marker: parseArgs]

// "<option>:<MiB>" for an option that must be at least kLargeBuffer (20 MiB): smaller
// values would make the 20 MiB segments of 1-10 MiB requests count as oversize.
static size_t parseSizeMB(const std::vector<std::string>& tokens, size_t i, const char* option, size_t* out) {
  checkToken(tokens, ++i, ":");
  const size_t val = toSizeT(tokens, ++i);
  constexpr size_t min_mb = kLargeBuffer / kMB;
  TORCH_CHECK_VALUE(val >= min_mb, "CachingAllocator option ", option, " too small, must be >= ", min_mb);
  *out = std::min(val, std::numeric_limits<size_t>::max() / kMB) * kMB;
  return i;
}

size_t AllocatorConfig::parseMaxSplitSize(const std::vector<std::string>& tokens, size_t i) {
  return parseSizeMB(tokens, i, "max_split_size_mb", &max_split_size_);
}

size_t AllocatorConfig::parseMaxNonSplitRoundingSize(const std::vector<std::string>& tokens, size_t i) {
  return parseSizeMB(tokens, i, "max_non_split_rounding_mb", &max_non_split_rounding_size_);
}

size_t AllocatorConfig::parseGarbageCollectionThreshold(const std::vector<std::string>& tokens, size_t i) {
  checkToken(tokens, ++i, ":");
  const double val = toDouble(tokens, ++i);
  TORCH_CHECK_VALUE(val > 0 && val < 1.0, "garbage_collect_threshold is invalid, set it in (0.0, 1.0)");
  garbage_collection_threshold_ = val;
  return i;
}

// "roundup_power2_divisions:4" sets every interval; the list form
// "[64:8,256:4,>:1]" sets the interval of 64 MiB (and all below it, being the first entry)
// to 8, that of 256 MiB to 4, and every interval after 256 MiB to 1. Intervals not named stay 0.
size_t AllocatorConfig::parseRoundUpPower2Divisions(const std::vector<std::string>& tokens, size_t i) {
  checkToken(tokens, ++i, ":");
  if (tokenAt(tokens, ++i) == "[") {
    bool first_value = true;
    size_t last_index = 0;
    while (true) {
      const std::string& interval = tokenAt(tokens, ++i);
      checkToken(tokens, ++i, ":");
      const size_t divisions = toSizeT(tokens, ++i);
      TORCH_CHECK_VALUE(divisions == 0 || isPowerOf2(divisions),
                        "For roundups, the divisions has to be power of 2 or 0 to disable roundup ");
      if (interval == ">") {
        std::fill(roundup_power2_divisions_.begin() + std::min(last_index + 1, kRoundUpPowerOfTwoIntervals),
                  roundup_power2_divisions_.end(), divisions);
      } else {
        const size_t interval_mb = toSizeT(tokens, i - 2);
        TORCH_CHECK_VALUE(isPowerOf2(interval_mb), "For roundups, the intervals have to be power of 2 ");
        const size_t index = std::min(log2Floor(interval_mb), kRoundUpPowerOfTwoIntervals - 1);
        if (first_value) {
          std::fill(roundup_power2_divisions_.begin(), roundup_power2_divisions_.begin() + index, divisions);
          first_value = false;
        }
        roundup_power2_divisions_[index] = divisions;
        last_index = index;
      }
      if (tokenAt(tokens, ++i) == "]") {
        break;
      }
      checkToken(tokens, i, ",");
    }
  } else {
    const size_t divisions = toSizeT(tokens, i);
    TORCH_CHECK_VALUE(isPowerOf2(divisions), "For roundups, the divisions has to be power of 2 ");
    roundup_power2_divisions_.fill(divisions);
  }
  return i;
}

size_t AllocatorConfig::parseBool(const std::vector<std::string>& tokens, size_t i, bool* out) {
  checkToken(tokens, ++i, ":");
  const std::string& value = tokenAt(tokens, ++i);
  TORCH_CHECK_VALUE(value == "True" || value == "False", "Expected 'True' or 'False' at index ", i,
                    " in ConfigTokenizer but got '", value, "'");
  *out = value == "True";
  return i;
}

size_t AllocatorConfig::roundup_power2_divisions(size_t size) const {
  const size_t log_size = log2Floor(size);
  const size_t interval_start = log2Floor(kRoundUpPowerOfTwoStart);
  size_t index = log_size > interval_start ? log_size - interval_start : 0;
  index = std::min(index, kRoundUpPowerOfTwoIntervals - 1);
  return roundup_power2_divisions_[index];
}

}  // namespace c10::CachingAllocator
