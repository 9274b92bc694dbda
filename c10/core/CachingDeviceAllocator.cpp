// c10/core/CachingDeviceAllocator.cpp - printing sizes for allocator messages.
// Mirrors PyTorch's format_size (c10/core/CachingDeviceAllocator.cpp).
// Guide: docs/source/internals/cuda_caching_allocator.rst.
#include <c10/core/CachingDeviceAllocator.h>

#include <iomanip>
#include <sstream>

namespace c10::CachingAllocator {

std::string format_size(uint64_t size) {
  std::ostringstream os;
  os.precision(2);
  os << std::fixed;
  if (size <= 1024) {
    os << size << " bytes";
  } else if (size <= 1048576) {
    os << (static_cast<double>(size) / 1024.0) << " KiB";
  } else if (size <= 1073741824ULL) {
    os << (static_cast<double>(size) / 1048576.0) << " MiB";
  } else {
    os << (static_cast<double>(size) / 1073741824.0) << " GiB";
  }
  return os.str();
}

}  // namespace c10::CachingAllocator
