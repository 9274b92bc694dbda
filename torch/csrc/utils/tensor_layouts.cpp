// torch/csrc/utils/tensor_layouts.cpp - torch.layout (torch.strided ...) and torch.memory_format
// (torch.contiguous_format ...): one Python object per c10::Layout / c10::MemoryFormat value.
// Mirrors PyTorch's torch/csrc/Layout.cpp, MemoryFormat.cpp, utils/tensor_layouts.cpp and
// utils/tensor_memoryformats.cpp. Guide: docs/source/internals/python_bindings.rst.
#include <torch/csrc/utils/python_arg_parser.h>

#include <pybind11/pybind11.h>

#include <array>

namespace py = pybind11;

namespace torch {
namespace {

struct THPLayout {
  at::Layout layout;
  std::string name;  // "torch.strided"
};
struct THPMemoryFormat {
  at::MemoryFormat memory_format;
  std::string name;  // "torch.contiguous_format"
};

std::array<py::object, static_cast<size_t>(at::Layout::NumOptions)> layout_registry;
std::array<py::object, static_cast<size_t>(at::MemoryFormat::NumOptions)> memory_format_registry;

}  // namespace

bool THPLayout_Check(PyObject* obj) {
  return py::isinstance<THPLayout>(obj);
}
at::Layout THPLayout_Unpack(PyObject* obj) {
  return py::handle(obj).cast<const THPLayout&>().layout;
}
bool THPMemoryFormat_Check(PyObject* obj) {
  return py::isinstance<THPMemoryFormat>(obj);
}
at::MemoryFormat THPMemoryFormat_Unpack(PyObject* obj) {
  return py::handle(obj).cast<const THPMemoryFormat&>().memory_format;
}

void initLayoutAndMemoryFormatBindings(PyObject* module) {
  py::module_ m = py::reinterpret_borrow<py::module_>(module);
  py::module_ torch_module = py::module_::import("torch");
  py::class_<THPLayout>(m, "layout")
      .def("__repr__", [](const THPLayout& self) { return self.name; })
      .def("__reduce__", [](const THPLayout& self) { return self.name.substr(6); });
  m.attr("layout").attr("__module__") = "torch";
  const std::pair<at::Layout, const char*> layouts[] = {
      {at::Layout::Strided, "strided"}, {at::Layout::Sparse, "sparse_coo"},
      {at::Layout::SparseCsr, "sparse_csr"}, {at::Layout::Mkldnn, "_mkldnn"}};
  for (const auto& [layout, name] : layouts) {
    py::object obj = py::cast(THPLayout{layout, std::string("torch.") + name});
    layout_registry[static_cast<size_t>(layout)] = obj;
    torch_module.attr(name) = obj;
  }

  py::class_<THPMemoryFormat>(m, "memory_format")
      .def("__repr__", [](const THPMemoryFormat& self) { return self.name; })
      .def("__reduce__", [](const THPMemoryFormat& self) { return self.name.substr(6); });
  m.attr("memory_format").attr("__module__") = "torch";
  const std::pair<at::MemoryFormat, const char*> formats[] = {
      {at::MemoryFormat::Contiguous, "contiguous_format"}, {at::MemoryFormat::Preserve, "preserve_format"},
      {at::MemoryFormat::ChannelsLast, "channels_last"}, {at::MemoryFormat::ChannelsLast3d, "channels_last_3d"}};
  for (const auto& [format, name] : formats) {
    py::object obj = py::cast(THPMemoryFormat{format, std::string("torch.") + name});
    memory_format_registry[static_cast<size_t>(format)] = obj;
    torch_module.attr(name) = obj;
  }
  py::module_::import("atexit").attr("register")(py::cpp_function([] {
    for (auto& obj : layout_registry) obj = py::object();
    for (auto& obj : memory_format_registry) obj = py::object();
  }));
}

}  // namespace torch
