// torch/csrc/cuda/MemorySimulator.cpp - torch._C._CachingAllocatorSimulator: the CUDA caching
// allocator's policy (c10/cuda/CUDACachingAllocator.cpp) running on a SimulatedDevice.
// This tree's learning aid; torch.cuda.memory.CachingAllocatorSimulator wraps it.
// Guide: docs/source/internals/cuda_caching_allocator.rst.
#include <torch/csrc/cuda/memory_snapshot.h>

#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/impl/SimulatedDevice.h>

namespace py = pybind11;

namespace torch::cuda {
namespace {

using c10::cuda::CUDACachingAllocator::DeviceCachingAllocator;
using c10::cuda::CUDACachingAllocator::DeviceStream;
using c10::cuda::CUDACachingAllocator::SimulatedDevice;

// [marker: Simulator]
// The device is declared first: it is built before the allocator and outlives it.
struct Simulator {
  explicit Simulator(size_t total_memory) : device(total_memory), allocator(&device) {}
  SimulatedDevice device;
  DeviceCachingAllocator allocator;
};
// [end marker: Simulator]

}  // namespace

void initMemorySimulatorBindings(py::module_& m) {
  using release_gil = py::call_guard<py::gil_scoped_release>;
  py::class_<Simulator>(m, "_CachingAllocatorSimulator")
      .def(py::init<size_t>(), py::arg("total_memory"))
      .def(
          "malloc",
          [](Simulator& self, size_t size, DeviceStream stream) {
            return reinterpret_cast<uintptr_t>(self.allocator.allocate(size, stream));
          },
          py::arg("size"), py::arg("stream") = 0, release_gil())
      .def(
          "free", [](Simulator& self, uintptr_t ptr) { self.allocator.deallocate(reinterpret_cast<void*>(ptr)); },
          py::arg("ptr"), release_gil())
      .def(
          "record_stream",
          [](Simulator& self, uintptr_t ptr, DeviceStream stream) {
            self.allocator.recordStream(reinterpret_cast<void*>(ptr), stream);
          },
          py::arg("ptr"), py::arg("stream"))
      .def("synchronize_stream", [](Simulator& self, DeviceStream stream) { self.device.synchronizeStream(stream); })
      .def("synchronize_device", [](Simulator& self) { self.device.synchronizeDevice(); })
      .def("empty_cache", [](Simulator& self) { self.allocator.emptyCache(); })
      .def("memory_stats", [](Simulator& self) { return memoryStatsToDict(self.allocator.getStats()); })
      .def("memory_snapshot", [](Simulator& self) { return segmentsToList(self.allocator.snapshot()); })
      .def("trace", [](Simulator& self) { return traceToList(self.allocator.trace()); })
      .def("reset_peak_memory_stats", [](Simulator& self) { self.allocator.resetPeakStats(); })
      .def("reset_accumulated_memory_stats", [](Simulator& self) { self.allocator.resetAccumulatedStats(); })
      .def("set_memory_fraction", [](Simulator& self, double f) { self.allocator.setMemoryFraction(f); })
      .def("get_memory_fraction", [](Simulator& self) { return self.allocator.getMemoryFraction(); })
      .def("set_allocator_settings", [](Simulator& self, const std::string& s) { self.allocator.setAllocatorSettings(s); })
      .def("get_allocator_settings",
           [](Simulator& self) { return self.allocator.config().last_allocator_settings(); })
      .def("record_history",
           [](Simulator& self, bool enabled, size_t max_entries) { self.allocator.recordHistory(enabled, max_entries); })
      .def("round_size", [](Simulator& self, size_t size) { return self.allocator.round_size(size); })
      .def_static("get_allocation_size", &DeviceCachingAllocator::get_allocation_size)
      .def("mem_get_info", [](Simulator& self) {
        size_t free = 0, total = 0;
        self.device.memGetInfo(&free, &total);
        return py::make_tuple(free, total);
      })
      .def("device_mallocs", [](Simulator& self) { return self.device.num_mallocs(); })
      .def("device_frees", [](Simulator& self) { return self.device.num_frees(); });
}

}  // namespace torch::cuda
