// torch/csrc/autograd/python_torch_functions_manual.cpp - the torch.* functions written by hand
// (torch.tensor, torch.as_tensor, torch.from_numpy) and the _VariableFunctions module itself.
// Mirrors PyTorch's torch/csrc/autograd/python_torch_functions_manual.cpp.
// Guide: docs/source/internals/python_bindings.rst.
#include <torch/csrc/autograd/python_torch_functions.h>

#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/python_arg_parser.h>
#include <torch/csrc/utils/tensor_new.h>
#include <torch/csrc/utils/tensor_numpy.h>

#include <pybind11/pybind11.h>

#include <vector>

namespace py = pybind11;

namespace torch::autograd {

PyObject* THPVariableFunctionsModule = nullptr;
PyObject* THPNNVariableFunctionsModule = nullptr;
PyObject* THPLinalgVariableFunctionsModule = nullptr;

namespace {

PyObject* THPVariable_tensor(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static PythonArgParser parser({
      "tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None, bool pin_memory=False, "
      "bool requires_grad=False)",
  });
  ParsedArgs<5> parsed_args;
  auto r = parser.parse(nullptr, args, kwargs, parsed_args);
  if (r.has_torch_function()) {
    return handle_torch_function(r, nullptr, args, kwargs, THPVariableFunctionsModule, "torch");
  }
  PyObject* result = THPVariable_Wrap(torch::utils::tensor_ctor(r));
  if (result && r.toBool(4)) set_requires_grad(result, true);
  return result;
  END_HANDLE_TH_ERRORS
}

PyObject* THPVariable_as_tensor(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static PythonArgParser parser({
      "as_tensor(PyObject* data, *, ScalarType dtype=None, Device? device=None)",
  });
  ParsedArgs<3> parsed_args;
  auto r = parser.parse(nullptr, args, kwargs, parsed_args);
  if (r.has_torch_function()) {
    return handle_torch_function(r, nullptr, args, kwargs, THPVariableFunctionsModule, "torch");
  }
  return THPVariable_Wrap(torch::utils::as_tensor(r));
  END_HANDLE_TH_ERRORS
}

PyObject* THPVariable_from_numpy(PyObject* module, PyObject* arg) {
  HANDLE_TH_ERRORS
  return THPVariable_Wrap(torch::utils::tensor_from_numpy(arg));
  END_HANDLE_TH_ERRORS
}

// torch.nonzero(input, *, as_tuple=False): as_tuple picks the operator (nonzero or
// nonzero_numpy), so the binding is written by hand, as in PyTorch.
PyObject* THPVariable_nonzero(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static PythonArgParser parser({
      "nonzero(Tensor input, *, bool as_tuple=False)",
  });
  ParsedArgs<2> parsed_args;
  auto r = parser.parse(nullptr, args, kwargs, parsed_args);
  if (r.has_torch_function()) {
    return handle_torch_function(r, nullptr, args, kwargs, THPVariableFunctionsModule, "torch");
  }
  at::Tensor input = r.tensor(0);
  if (r.toBool(1)) {
    auto parts = input.nonzero_numpy();
    py::tuple result(parts.size());
    for (size_t i = 0; i < parts.size(); i++) result[i] = py::reinterpret_steal<py::object>(THPVariable_Wrap(parts[i]));
    return result.release().ptr();
  }
  return THPVariable_Wrap(input.nonzero());
  END_HANDLE_TH_ERRORS
}

std::vector<PyMethodDef> manual_functions = {
    {"nonzero", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_nonzero)),
     METH_VARARGS | METH_KEYWORDS, "torch.nonzero(input, *, as_tuple=False): the indices of the nonzero elements."},
    {"tensor", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_tensor)),
     METH_VARARGS | METH_KEYWORDS, "torch.tensor(data, *, dtype=None, device=None, requires_grad=False): a copy of data."},
    {"as_tensor", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_as_tensor)),
     METH_VARARGS | METH_KEYWORDS, "torch.as_tensor(data, dtype=None, device=None): shares memory when it can."},
    {"from_numpy", THPVariable_from_numpy, METH_O, "torch.from_numpy(ndarray): a tensor over the array's memory."},
};
std::vector<PyMethodDef> all_functions;
PyModuleDef variable_functions_module = {PyModuleDef_HEAD_INIT, "torch._C._VariableFunctions",
                                         "The operators as torch.* functions (generated from native_functions.yaml).",
                                         -1, nullptr};
PyModuleDef nn_functions_module = {PyModuleDef_HEAD_INIT, "torch._C._nn",
                                   "The operators marked python_module: nn (gelu, silu ...).", -1, nullptr};
PyModuleDef linalg_functions_module = {PyModuleDef_HEAD_INIT, "torch._C._linalg",
                                       "The operators marked python_module: linalg.", -1, nullptr};

// torch._C._<name>: a module of generated functions, importable by that name.
PyObject* add_submodule(PyObject* parent, PyModuleDef* def, PyMethodDef* methods, const char* name) {
  def->m_methods = methods;
  PyObject* sub = PyModule_Create(def);
  if (!sub) throw py::error_already_set();
  py::module_::import("sys").attr("modules")[def->m_name] = py::handle(sub);
  Py_INCREF(sub);
  PyModule_AddObject(parent, name, sub);
  return sub;
}

}  // namespace

void initTorchFunctions(PyObject* module) {
  all_functions = manual_functions;
  for (PyMethodDef* def = generated_torch_functions(); def->ml_name != nullptr; ++def) all_functions.push_back(*def);
  all_functions.push_back({nullptr, nullptr, 0, nullptr});
  variable_functions_module.m_methods = all_functions.data();
  THPVariableFunctionsModule = PyModule_Create(&variable_functions_module);
  if (!THPVariableFunctionsModule) throw py::error_already_set();
  // importable as a module: from torch._C._VariableFunctions import *
  py::module_::import("sys").attr("modules")["torch._C._VariableFunctions"] = py::handle(THPVariableFunctionsModule);
  Py_INCREF(THPVariableFunctionsModule);
  PyModule_AddObject(module, "_VariableFunctions", THPVariableFunctionsModule);

  THPNNVariableFunctionsModule = add_submodule(module, &nn_functions_module, generated_nn_functions(), "_nn");
  THPLinalgVariableFunctionsModule =
      add_submodule(module, &linalg_functions_module, generated_linalg_functions(), "_linalg");
}

}  // namespace torch::autograd
