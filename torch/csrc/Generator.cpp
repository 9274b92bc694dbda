// torch/csrc/Generator.cpp - torch.Generator: manual_seed, seed, initial_seed, get_state, set_state.
// Mirrors PyTorch's torch/csrc/Generator.cpp. Guide: docs/source/internals/python_bindings.rst.
//
// A Python Generator holds an at::Generator (a counted handle), so torch.default_generator
// and the generator the C++ kernels use by default are one object: reseeding either is
// seen by both.
#include <torch/csrc/Generator.h>
#include <torch/csrc/utils/device_lazy_init.h>

#include <ATen/detail/CUDAHooksInterface.h>

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Functions.h>
#include <torch/csrc/Device.h>
#include <torch/csrc/autograd/python_variable.h>

#include <cstring>

namespace py = pybind11;

bool THPGenerator_Check(PyObject* obj) {
  return py::isinstance<at::Generator>(py::handle(obj));
}

at::Generator THPGenerator_Unwrap(PyObject* obj) {
  return py::handle(obj).cast<at::Generator>();
}

namespace torch {
namespace {

// The seed as an unsigned 64-bit value: negative ints wrap around, as in PyTorch.
uint64_t unpack_seed(const py::handle& seed) {
  TORCH_CHECK_TYPE(PyLong_Check(seed.ptr()) && !PyBool_Check(seed.ptr()), "manual_seed expected a long, but got ",
                   Py_TYPE(seed.ptr())->tp_name);
  const unsigned long long u = PyLong_AsUnsignedLongLongMask(seed.ptr());
  if (PyErr_Occurred()) throw py::error_already_set();
  return static_cast<uint64_t>(u);
}

}  // namespace

void initGeneratorBindings(py::module_& m) {
  py::class_<at::Generator>(m, "Generator")
      .def(py::init([](py::object device) {
             if (!device.is_none()) {
               const c10::Device d = toDevice(device);
               if (d.is_cuda()) {
                 // A Philox generator of its own (libtorch_cuda.so, through the CUDA hooks).
                 torch::utils::device_lazy_init(c10::DeviceType::CUDA);
                 return at::detail::getCUDAHooks().createCUDAGenerator(d.has_index() ? d.index() : -1);
               }
               TORCH_CHECK(d.is_cpu(), "Device type ", c10::DeviceTypeName(d.type()),
                           " is not supported for torch.Generator() api.");
             }
             return at::detail::createCPUGenerator();
           }),
           py::arg("device") = py::none())
      .def("manual_seed", [](at::Generator& self, py::handle seed) {
             std::lock_guard<std::mutex> lock(self.mutex());
             self.set_current_seed(unpack_seed(seed));
             return self;
           })
      .def("seed", [](at::Generator& self) {
             std::lock_guard<std::mutex> lock(self.mutex());
             return self.seed();
           })
      .def("initial_seed", [](at::Generator& self) { return self.current_seed(); })
      .def("get_state", [](at::Generator& self) {
             std::vector<uint8_t> bytes;
             {
               std::lock_guard<std::mutex> lock(self.mutex());
               bytes = self.unsafeGetGeneratorImpl()->get_state();
             }
             auto t = at::empty({static_cast<int64_t>(bytes.size())}, at::kByte);
             std::memcpy(t.data_ptr(), bytes.data(), bytes.size());
             return py::reinterpret_steal<py::object>(THPVariable_Wrap(t));
           })
      .def("set_state", [](at::Generator& self, py::handle state) {
             TORCH_CHECK_TYPE(THPVariable_Check(state.ptr()), "expected a torch.ByteTensor, but got ",
                              Py_TYPE(state.ptr())->tp_name);
             const auto& t = THPVariable_Unpack(state.ptr());
             TORCH_CHECK_TYPE(t.scalar_type() == at::kByte && t.device().is_cpu(),
                              "expected a torch.ByteTensor, but got a tensor of another type");
             auto c = t.contiguous();
             const auto* p = static_cast<const uint8_t*>(c.data_ptr());
             std::vector<uint8_t> bytes(p, p + c.numel());
             std::lock_guard<std::mutex> lock(self.mutex());
             self.unsafeGetGeneratorImpl()->set_state(bytes);
             return self;
           })
      .def_property_readonly("device", [](at::Generator& self) { return THPDevice{self.device()}; })
      .def("__eq__", [](const at::Generator& a, const at::Generator& b) { return a == b; })
      .def("__hash__", [](const at::Generator& a) { return reinterpret_cast<intptr_t>(a.unsafeGetGeneratorImpl()); });
  // One Python object for the default generator, sharing its GeneratorImpl with C++.
  m.attr("default_generator") = py::cast(at::detail::getDefaultCPUGenerator());
}

}  // namespace torch
