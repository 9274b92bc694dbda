// torch/csrc/cuda/memory_snapshot.h - caching allocator state as Python objects.
// Mirrors PyTorch's torch/csrc/cuda/memory_snapshot.h and the stats conversion in
// torch/csrc/cuda/Module.cpp. Guide: docs/source/internals/cuda_caching_allocator.rst.
// Shared by torch.cuda.memory (the CUDA allocator) and the CachingAllocatorSimulator.
#pragma once

#include <c10/cuda/CUDACachingAllocator.h>

#include <pybind11/pybind11.h>

namespace torch::cuda {

// {"allocation": {"all": {"current":..,"peak":..,"allocated":..,"freed":..}, "small_pool": ..,
//  "large_pool": ..}, ..., "num_alloc_retries": n, ...}, as torch._C._cuda_memoryStats returns.
pybind11::dict memoryStatsToDict(const c10::CachingAllocator::DeviceStats& stats);
// A list of segment dicts, each with its blocks, as torch.cuda.memory_snapshot() returns.
pybind11::list segmentsToList(const std::vector<c10::cuda::CUDACachingAllocator::SegmentInfo>& segments);
// A list of trace-entry dicts, as in torch.cuda.memory._snapshot()["device_traces"][device].
pybind11::list traceToList(const std::vector<c10::cuda::CUDACachingAllocator::TraceEntry>& trace);

}  // namespace torch::cuda
