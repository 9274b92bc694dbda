// torch/csrc/Device.cpp - torch.device: construction rules, printing, hashing, pickling.
// Mirrors PyTorch's torch/csrc/Device.cpp. Guide: docs/source/internals/tensors.rst.
#include <torch/csrc/Device.h>

#include <c10/util/Exception.h>
#include <torch/csrc/utils/python_strings.h>

#include <pybind11/operators.h>

namespace py = pybind11;

namespace torch {
namespace {

// torch.device(0): index of the current accelerator. No accelerator backend is built
// into this tree's torch._C yet, so (as PyTorch on a CPU-only machine) there is none.
c10::Device acceleratorDevice(int64_t index) {
  TORCH_CHECK(index >= 0, "Device index must not be negative");
  TORCH_CHECK(false, "Cannot access accelerator device when none is available.");
}

[[noreturn]] void invalidArguments(const py::args& args, const py::kwargs& kwargs) {
  std::string got;
  for (auto a : args) {
    got += got.empty() ? "" : ", ";
    got += THPUtils_typename(a);
  }
  for (auto kv : kwargs) {
    got += got.empty() ? "" : ", ";
    got += std::string(py::str(kv.first)) + "=" + THPUtils_typename(kv.second);
  }
  TORCH_CHECK_TYPE(false, "device() received an invalid combination of arguments - got (", got,
                   "), but expected one of:\n * (torch.device device)\n * (str type, int index = -1)\n");
}

// torch.device(str), torch.device(str, int), torch.device(device), torch.device(int),
// and the keyword forms torch.device(type=..., index=...).
THPDevice makeDevice(const py::args& args, const py::kwargs& kwargs) {
  py::object type_arg, index_arg;
  if (args.size() > 2) invalidArguments(args, kwargs);
  if (args.size() >= 1) type_arg = args[0];
  if (args.size() == 2) index_arg = args[1];
  for (auto kv : kwargs) {
    const std::string key = py::str(kv.first);
    if (key == "type" && !type_arg) {
      type_arg = py::reinterpret_borrow<py::object>(kv.second);
    } else if (key == "index" && !index_arg) {
      index_arg = py::reinterpret_borrow<py::object>(kv.second);
    } else {
      invalidArguments(args, kwargs);
    }
  }
  if (!type_arg) invalidArguments(args, kwargs);

  if (py::isinstance<THPDevice>(type_arg) && !index_arg) {
    return type_arg.cast<THPDevice>();
  }
  if (PyLong_Check(type_arg.ptr()) && !PyBool_Check(type_arg.ptr()) && !index_arg) {
    return THPDevice{acceleratorDevice(type_arg.cast<int64_t>())};
  }
  if (!py::isinstance<py::str>(type_arg)) invalidArguments(args, kwargs);

  const std::string device_str = type_arg.cast<std::string>();
  c10::Device device(device_str);
  if (index_arg && !index_arg.is_none()) {
    TORCH_CHECK_TYPE(PyLong_Check(index_arg.ptr()) && !PyBool_Check(index_arg.ptr()),
                     "device(): argument 'index' (position 2) must be int, not ",
                     THPUtils_typename(index_arg));
    TORCH_CHECK(!device.has_index(),
                "type (string) must not include an index because index was passed explicitly: ",
                device_str);
    const auto index = index_arg.cast<int64_t>();
    TORCH_CHECK(index >= 0, "Device index must not be negative");
    TORCH_CHECK(index <= std::numeric_limits<c10::DeviceIndex>::max(),
                "Device index ", index, " is too large");
    device.set_index(static_cast<c10::DeviceIndex>(index));
  }
  return THPDevice{device};
}

}  // namespace

c10::Device toDevice(py::handle obj) {
  if (py::isinstance<THPDevice>(obj)) {
    return obj.cast<THPDevice>().device;
  }
  if (py::isinstance<py::str>(obj)) {
    return c10::Device(obj.cast<std::string>());
  }
  if (PyLong_Check(obj.ptr()) && !PyBool_Check(obj.ptr())) {
    return acceleratorDevice(obj.cast<int64_t>());
  }
  TORCH_CHECK_TYPE(false, "expected a torch.device, a string or an int, but got ", THPUtils_typename(obj));
}

void initDeviceBindings(py::module_& m) {
  py::class_<THPDevice> device(m, "device");
  device.doc() = "torch.device: a device type (cpu, cuda, meta, ...) and an optional index.";
  device
      .def(py::init(&makeDevice))
      .def_property_readonly("type", [](const THPDevice& self) {
        return c10::DeviceTypeName(self.device.type(), /*lower_case=*/true);
      })
      .def_property_readonly("index", [](const THPDevice& self) -> py::object {
        if (!self.device.has_index()) return py::none();
        return py::int_(static_cast<int>(self.device.index()));
      })
      .def("__str__", [](const THPDevice& self) { return self.device.str(); })
      .def("__repr__", [](const THPDevice& self) {
        std::string type = c10::DeviceTypeName(self.device.type(), true);
        if (!self.device.has_index()) return "device(type='" + type + "')";
        return "device(type='" + type + "', index=" + std::to_string(self.device.index()) + ")";
      })
      .def("__eq__", [](const THPDevice& self, py::object other) -> py::object {
        if (!py::isinstance<THPDevice>(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        return py::bool_(self.device == other.cast<THPDevice>().device);
      })
      .def("__ne__", [](const THPDevice& self, py::object other) -> py::object {
        if (!py::isinstance<THPDevice>(other)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        return py::bool_(self.device != other.cast<THPDevice>().device);
      })
      .def("__hash__", [](const THPDevice& self) {
        return static_cast<Py_ssize_t>(std::hash<c10::Device>{}(self.device) %
                                       std::numeric_limits<Py_ssize_t>::max());
      })
      // `with torch.device("cuda"):` makes it the default device of factories inside the block
      // (torch/utils/_device.py keeps the stack, as PyTorch's DeviceContext does).
      .def("__enter__", [](py::object self) {
        py::module_::import("torch.utils._device").attr("_device_enter")(self);
        return self;
      })
      .def("__exit__", [](py::object self, py::args) {
        py::module_::import("torch.utils._device").attr("_device_exit")(self);
        return false;
      })
      // Pickles as torch.device('cuda', 1) or torch.device('cpu').
      .def("__reduce__", [](const THPDevice& self) {
        const std::string type = c10::DeviceTypeName(self.device.type(), true);
        py::tuple args = self.device.has_index()
                             ? py::tuple(py::make_tuple(type, static_cast<int>(self.device.index())))
                             : py::tuple(py::make_tuple(type));
        return py::make_tuple(py::module_::import("torch").attr("device"), args);
      });
  device.attr("__module__") = "torch";
}

}  // namespace torch
