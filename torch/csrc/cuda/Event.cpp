// torch/csrc/cuda/Event.cpp - torch._C._CudaEventBase, the C++ half of torch.cuda.Event.
// Mirrors PyTorch's torch/csrc/cuda/Event.cpp (THCPEvent). Compiled with USE_CUDA only.
// Guide: docs/source/internals/c10_cuda.rst.
#include <torch/csrc/cuda/Module.h>

#include <c10/cuda/CUDAEvent.h>

#include <pybind11/stl.h>

namespace py = pybind11;

namespace torch::cuda {

void initEventBindings(py::module_& m) {
  using c10::cuda::CUDAEvent;
  using c10::cuda::CUDAStream;
  using release_gil = py::call_guard<py::gil_scoped_release>;
  py::class_<CUDAEvent>(m, "_CudaEventBase")
      .def(py::init([](bool enable_timing, bool blocking, bool interprocess, bool external) {
             // The flags decide what the event costs: timing and interprocess events are slower.
             unsigned int flags = (blocking ? cudaEventBlockingSync : cudaEventDefault) |
                                  (enable_timing ? cudaEventDefault : cudaEventDisableTiming) |
                                  (interprocess ? cudaEventInterprocess : cudaEventDefault);
             return std::make_unique<CUDAEvent>(flags);
           }),
           py::kw_only(), py::arg("enable_timing") = false, py::arg("blocking") = false,
           py::arg("interprocess") = false, py::arg("external") = false)
      .def_property_readonly("cuda_event", [](const CUDAEvent& e) { return reinterpret_cast<uintptr_t>(e.event()); })
      .def_property_readonly("device", [](const CUDAEvent& e) -> py::object {
        if (!e.isCreated()) {
          return py::none();
        }
        return py::module_::import("torch").attr("device")("cuda", static_cast<int>(e.device_index()));
      })
      .def("record", [](CUDAEvent& e, const CUDAStream& stream) { e.record(stream); }, release_gil())
      .def("wait", [](CUDAEvent& e, const CUDAStream& stream) { e.block(stream); }, release_gil())
      .def("query", &CUDAEvent::query, release_gil())
      .def("elapsed_time", &CUDAEvent::elapsed_time, release_gil())
      .def("synchronize", &CUDAEvent::synchronize, release_gil());
}

}  // namespace torch::cuda
