// torch/csrc/utils/disable_torch_function.cpp - the __torch_function__ protocol seen from C++.
// Mirrors PyTorch's torch/csrc/utils/disable_torch_function.cpp and the handle_torch_function
// part of torch/csrc/utils/python_arg_parser.cpp. Guide: docs/source/internals/python_bindings.rst.
//
// A binding's PythonArgParser collects arguments whose type overrides __torch_function__
// (a torch.Tensor subclass that defines its own, or any object with one); the generated
// binding then calls handle_torch_function instead of the kernel, which offers the call
// to each override in turn (subclasses before their bases). torch.Tensor's own
// __torch_function__ (torch/_tensor.py) runs the function with subclass handling disabled
// (torch._C.DisableTorchFunctionSubclass) and casts the result back to the subclass.
#include <torch/csrc/utils/python_arg_parser.h>

#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_variable.h>

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace torch {
namespace {

enum class TorchFunctionState { ENABLED, SUBCLASSES_DISABLED, ALL_DISABLED };
thread_local TorchFunctionState torch_function_state = TorchFunctionState::ENABLED;

PyObject* disabled_torch_function = nullptr;

// torch._C._disabled_torch_function_impl: the __torch_function__ that means "none".
PyObject* THPModule_disable_torch_function(PyObject* self, PyObject* a) {
  HANDLE_TH_ERRORS
  PyObject *func = nullptr, *types = nullptr, *args = nullptr, *kwargs = nullptr;
  if (!PyArg_ParseTuple(a, "OO|OO", &func, &types, &args, &kwargs)) return nullptr;
  py::tuple py_args = args ? py::reinterpret_borrow<py::tuple>(args) : py::tuple(0);
  auto old = torch_function_state;
  torch_function_state = TorchFunctionState::SUBCLASSES_DISABLED;
  PyObject* result = PyObject_Call(func, py_args.ptr(), kwargs);
  torch_function_state = old;
  return result;
  END_HANDLE_TH_ERRORS
}

}  // namespace

bool check_has_torch_function(PyObject* obj, bool ignore_mode) {
  if (!ignore_mode && torch_function_state != TorchFunctionState::ENABLED) return false;
  if (torch_function_state != TorchFunctionState::ENABLED) return false;
  if (THPVariable_CheckExact(obj)) return false;
  PyTypeObject* tp = Py_TYPE(obj);
  if (tp == &PyLong_Type || tp == &PyFloat_Type || tp == &PyBool_Type || tp == &PyTuple_Type ||
      tp == &PyList_Type || tp == &PyUnicode_Type || tp == &PyComplex_Type || obj == Py_None) {
    return false;
  }
  PyObject* attr = PyObject_GetAttrString(reinterpret_cast<PyObject*>(tp), "__torch_function__");
  if (attr == nullptr) {
    PyErr_Clear();
    return false;
  }
  // A classmethod comes back bound; compare the function under it.
  PyObject* underlying = PyMethod_Check(attr) ? PyMethod_GET_FUNCTION(attr) : attr;
  bool result = underlying != disabled_torch_function;
  Py_DECREF(attr);
  return result;
}

// [marker: handle_torch_function]
PyObject* handle_torch_function(PythonArgs& r, PyObject* self, PyObject* args, PyObject* kwargs,
                                PyObject* torch_api, const char* module_name) {
  py::object torch_api_function =
      py::reinterpret_borrow<py::object>(torch_api).attr(r.get_func_name().c_str());
  py::tuple py_args = args ? py::reinterpret_borrow<py::tuple>(args) : py::tuple(0);
  if (self != nullptr) {
    // a method: Tensor.add(self, ...) is offered as the function with self first
    py::list all;
    all.append(py::handle(self));
    for (auto a : py_args) all.append(a);
    py_args = py::tuple(all);
  }
  py::dict py_kwargs = kwargs ? py::reinterpret_borrow<py::dict>(kwargs) : py::dict();
  py::list types;
  for (PyObject* arg : r.overloaded_args) types.append(py::handle(reinterpret_cast<PyObject*>(Py_TYPE(arg))));
  py::tuple types_tuple(types);
  for (PyObject* arg : r.overloaded_args) {
    py::object fn = py::handle(reinterpret_cast<PyObject*>(Py_TYPE(arg))).attr("__torch_function__");
    py::object result = fn(torch_api_function, types_tuple, py_args, py_kwargs);
    if (result.ptr() != Py_NotImplemented) return result.release().ptr();
  }
  std::string names;
  for (auto t : types) names += (names.empty() ? "" : ", ") + std::string(py::repr(t));
  TORCH_CHECK_TYPE(false, "no implementation found for '", module_name, ".", r.get_func_name(),
                   "' on types that implement __torch_function__: [", names, "]");
}
// [end marker: handle_torch_function]

PyObject* handle_torch_function(PyObject* self, const std::string& func_name) {
  py::object fn = py::handle(THPVariableClass).attr(func_name.c_str());
  py::object tf = py::handle(reinterpret_cast<PyObject*>(Py_TYPE(self))).attr("__torch_function__");
  py::tuple types = py::make_tuple(py::handle(reinterpret_cast<PyObject*>(Py_TYPE(self))));
  py::object result = tf(fn, types, py::make_tuple(py::handle(self)), py::dict());
  TORCH_CHECK_TYPE(result.ptr() != Py_NotImplemented, "no implementation found for 'Tensor.", func_name,
                   "' on types that implement __torch_function__: [", std::string(py::repr(types[0])), "]");
  return result.release().ptr();
}

void initTorchFunctionBindings(PyObject* module) {
  static PyMethodDef disabled_def = {"_disabled_torch_function_impl", THPModule_disable_torch_function,
                                     METH_VARARGS, "The __torch_function__ that means none."};
  disabled_torch_function = PyCFunction_New(&disabled_def, nullptr);
  py::module_ m = py::reinterpret_borrow<py::module_>(module);
  m.attr("_disabled_torch_function_impl") = py::handle(disabled_torch_function);

  // with torch._C.DisableTorchFunctionSubclass(): subclasses' overrides are not consulted.
  struct DisableTorchFunctionSubclass {
    TorchFunctionState old = TorchFunctionState::ENABLED;
  };
  py::class_<DisableTorchFunctionSubclass>(m, "DisableTorchFunctionSubclass")
      .def(py::init<>())
      .def("__enter__", [](DisableTorchFunctionSubclass& self) {
        self.old = torch_function_state;
        torch_function_state = TorchFunctionState::SUBCLASSES_DISABLED;
      })
      .def("__exit__", [](DisableTorchFunctionSubclass& self, py::args) { torch_function_state = self.old; });
  m.def("_is_torch_function_enabled", [] { return torch_function_state == TorchFunctionState::ENABLED; });
  // torch.overrides.has_torch_function(iterable): does any element override __torch_function__?
  m.def("_has_torch_function", [](py::iterable objs) {
    for (auto obj : objs) {
      if (check_has_torch_function(obj.ptr())) return true;
    }
    return false;
  });
}

}  // namespace torch
