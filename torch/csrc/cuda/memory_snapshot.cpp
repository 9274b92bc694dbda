// torch/csrc/cuda/memory_snapshot.cpp - caching allocator stats, segments and history -> Python.
// Mirrors PyTorch's torch/csrc/cuda/memory_snapshot.cpp. Guide: docs/source/internals/cuda_caching_allocator.rst.
#include <torch/csrc/cuda/memory_snapshot.h>

namespace py = pybind11;

namespace torch::cuda {

using c10::CachingAllocator::Stat;
using c10::CachingAllocator::StatArray;

namespace {

py::dict statToDict(const Stat& stat) {
  py::dict d;
  d["current"] = stat.current;
  d["peak"] = stat.peak;
  d["allocated"] = stat.allocated;
  d["freed"] = stat.freed;
  return d;
}

py::dict statArrayToDict(const StatArray& stats) {
  static const char* names[] = {"all", "small_pool", "large_pool"};
  py::dict d;
  for (size_t i = 0; i < stats.size(); ++i) {
    d[names[i]] = statToDict(stats[i]);
  }
  return d;
}

}  // namespace

py::dict memoryStatsToDict(const c10::CachingAllocator::DeviceStats& stats) {
  py::dict result;
  result["num_alloc_retries"] = stats.num_alloc_retries;
  result["num_ooms"] = stats.num_ooms;
  result["num_sync_all_streams"] = stats.num_sync_all_streams;
  result["num_device_alloc"] = stats.num_device_alloc;
  result["num_device_free"] = stats.num_device_free;
  result["max_split_size"] = stats.max_split_size;
  result["allocation"] = statArrayToDict(stats.allocation);
  result["segment"] = statArrayToDict(stats.segment);
  result["active"] = statArrayToDict(stats.active);
  result["inactive_split"] = statArrayToDict(stats.inactive_split);
  result["allocated_bytes"] = statArrayToDict(stats.allocated_bytes);
  result["reserved_bytes"] = statArrayToDict(stats.reserved_bytes);
  result["active_bytes"] = statArrayToDict(stats.active_bytes);
  result["inactive_split_bytes"] = statArrayToDict(stats.inactive_split_bytes);
  result["requested_bytes"] = statArrayToDict(stats.requested_bytes);
  result["oversize_allocations"] = statToDict(stats.oversize_allocations);
  result["oversize_segments"] = statToDict(stats.oversize_segments);
  return result;
}

py::list segmentsToList(const std::vector<c10::cuda::CUDACachingAllocator::SegmentInfo>& segments) {
  py::list result;
  for (const auto& segment : segments) {
    py::dict s;
    s["device"] = segment.device;
    s["address"] = segment.address;
    s["total_size"] = segment.total_size;
    s["allocated_size"] = segment.allocated_size;
    s["active_size"] = segment.active_size;
    s["requested_size"] = segment.requested_size;
    s["stream"] = segment.stream;
    s["segment_type"] = segment.is_large ? "large" : "small";
    s["segment_pool_id"] = py::make_tuple(0, 0);
    s["is_expandable"] = false;
    s["frames"] = py::list();
    py::list blocks;
    for (const auto& block : segment.blocks) {
      py::dict b;
      b["address"] = block.address;
      b["size"] = block.size;
      b["requested_size"] = block.requested_size;
      b["state"] = block.state();
      b["frames"] = py::list();
      blocks.append(b);
    }
    s["blocks"] = blocks;
    result.append(s);
  }
  return result;
}

py::list traceToList(const std::vector<c10::cuda::CUDACachingAllocator::TraceEntry>& trace) {
  py::list result;
  for (const auto& entry : trace) {
    py::dict e;
    e["action"] = c10::cuda::CUDACachingAllocator::toString(entry.action);
    e["addr"] = entry.addr;
    e["size"] = entry.size;
    e["stream"] = entry.stream;
    e["time_us"] = entry.time_us;
    e["frames"] = py::list();
    result.append(e);
  }
  return result;
}

}  // namespace torch::cuda
