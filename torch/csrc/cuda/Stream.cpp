// torch/csrc/cuda/Stream.cpp - torch._C._CudaStreamBase, the C++ half of torch.cuda.Stream.
// Mirrors PyTorch's torch/csrc/cuda/Stream.cpp (THCPStream). Compiled with USE_CUDA only.
// Guide: docs/source/internals/c10_cuda.rst.
//
// A Python Stream holds a c10::cuda::CUDAStream: a (stream_id, device_index) value; the
// cudaStream_t lives in c10's pools. Building one with no arguments takes the next stream
// of the pool of the given priority (round robin, see c10/cuda/CUDAStream.h); building one
// from (stream_id, device_index, device_type) names an existing stream, which is how
// torch.cuda.current_stream() returns one.
#include <torch/csrc/Device.h>
#include <torch/csrc/cuda/Module.h>

#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAStream.h>

namespace py = pybind11;

namespace torch::cuda {

void initStreamBindings(py::module_& m) {
  using c10::cuda::CUDAStream;
  using release_gil = py::call_guard<py::gil_scoped_release>;
  py::class_<CUDAStream>(m, "_CudaStreamBase")
      .def(py::init([](int priority, int64_t stream_id, int64_t device_index, int64_t device_type,
                       uint64_t stream_ptr) {
             lazy_init();
             if (stream_id || device_index || device_type) {
               return CUDAStream::unpack3(stream_id, static_cast<c10::DeviceIndex>(device_index),
                                          static_cast<c10::DeviceType>(device_type));
             }
             if (stream_ptr) {
               return c10::cuda::getStreamFromExternal(reinterpret_cast<cudaStream_t>(stream_ptr),
                                                       c10::cuda::current_device());
             }
             return c10::cuda::getStreamFromPool(priority);
           }),
           py::kw_only(), py::arg("priority") = 0, py::arg("stream_id") = 0, py::arg("device_index") = 0,
           py::arg("device_type") = 0, py::arg("stream_ptr") = 0)
      .def_property_readonly("stream_id", &CUDAStream::id)
      .def_property_readonly("device_index", [](const CUDAStream& s) { return static_cast<int>(s.device_index()); })
      .def_property_readonly("device_type", [](const CUDAStream& s) { return static_cast<int>(s.device_type()); })
      .def_property_readonly("device", [](const CUDAStream& s) { return THPDevice{s.device()}; })
      // The cudaStream_t as an int (0 for the default stream): what C libraries take.
      .def_property_readonly("cuda_stream",
                             [](const CUDAStream& s) { return reinterpret_cast<uintptr_t>(s.stream()); })
      .def_property_readonly("priority", &CUDAStream::priority)
      .def_static("priority_range", [] { return CUDAStream::priority_range(); })
      .def("query", &CUDAStream::query, release_gil())
      .def("synchronize", &CUDAStream::synchronize, release_gil())
      .def("__eq__", [](const CUDAStream& self, const CUDAStream& other) { return self == other; })
      .def("__eq__", [](const CUDAStream&, const py::object&) { return false; });
}

}  // namespace torch::cuda
