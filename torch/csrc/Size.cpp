// torch/csrc/Size.cpp - torch.Size: a tuple of ints that prints as torch.Size([2, 3]).
// Mirrors PyTorch's torch/csrc/Size.cpp. Guide: docs/source/internals/python_bindings.rst.
//
// A CPython type whose base is tuple: everything a tuple does works (indexing, unpacking,
// ==); slicing and + give a torch.Size again; numel() is the product of the sizes.
#include <torch/csrc/Size.h>

#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_variable.h>

#include <pybind11/pybind11.h>

#include <string>

namespace py = pybind11;

PyObject* THPSize_NewFromSizes(c10::ArrayRef<int64_t> sizes) {
  PyObject* self = THPSizeType.tp_alloc(&THPSizeType, static_cast<Py_ssize_t>(sizes.size()));
  if (!self) return nullptr;
  for (size_t i = 0; i < sizes.size(); ++i) {
    PyObject* item = PyLong_FromLongLong(sizes[i]);
    if (!item) {
      Py_DECREF(self);
      return nullptr;
    }
    PyTuple_SET_ITEM(self, i, item);
  }
  return self;
}

namespace {

bool is_size_element(PyObject* item) {
  if (PyLong_Check(item)) return true;
  if (THPVariable_Check(item)) return THPVariable_Unpack(item).dim() == 0;
  return !PyFloat_Check(item) && PyIndex_Check(item);
}

PyObject* THPSize_pynew(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  py::object self = py::reinterpret_steal<py::object>(PyTuple_Type.tp_new(type, args, kwargs));
  if (!self) return nullptr;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self.ptr()); ++i) {
    PyObject* item = PyTuple_GET_ITEM(self.ptr(), i);
    if (!is_size_element(item)) {
      PyErr_Format(PyExc_TypeError, "torch.Size() takes an iterable of 'int' (item %zd is '%s')", i,
                   Py_TYPE(item)->tp_name);
      return nullptr;
    }
  }
  return self.release().ptr();
  END_HANDLE_TH_ERRORS
}

PyObject* THPSize_repr(PyObject* self) {
  HANDLE_TH_ERRORS
  std::string repr("torch.Size([");
  for (Py_ssize_t i = 0; i < PyTuple_Size(self); ++i) {
    if (i != 0) repr += ", ";
    repr += std::string(py::str(PyTuple_GET_ITEM(self, i)));
  }
  repr += "])";
  return PyUnicode_FromString(repr.c_str());
  END_HANDLE_TH_ERRORS
}

// Results that are tuples become torch.Size again (size[1:], size + (4,)).
PyObject* wrap_tuple(PyObject* result) {
  if (!result || !PyTuple_CheckExact(result)) return result;
  PyObject* size = PyTuple_Type.tp_new(&THPSizeType, py::make_tuple(py::handle(result)).ptr(), nullptr);
  Py_DECREF(result);
  return size;
}

PyObject* THPSize_subscript(PyObject* self, PyObject* item) {
  return wrap_tuple(PyTuple_Type.tp_as_mapping->mp_subscript(self, item));
}
PyObject* THPSize_concat(PyObject* self, PyObject* other) {
  return wrap_tuple(PyTuple_Type.tp_as_sequence->sq_concat(self, other));
}
PyObject* THPSize_repeat(PyObject* self, Py_ssize_t n) {
  return wrap_tuple(PyTuple_Type.tp_as_sequence->sq_repeat(self, n));
}

PyObject* THPSize_numel(PyObject* self, PyObject* noargs) {
  HANDLE_TH_ERRORS
  int64_t numel = 1;
  for (Py_ssize_t i = 0; i < PyTuple_Size(self); ++i) numel *= PyLong_AsLongLong(PyTuple_GET_ITEM(self, i));
  return PyLong_FromLongLong(numel);
  END_HANDLE_TH_ERRORS
}

PyObject* THPSize_reduce(PyObject* self, PyObject* noargs) {
  HANDLE_TH_ERRORS
  py::tuple values = py::reinterpret_steal<py::tuple>(PySequence_Tuple(self));
  return py::make_tuple(py::handle(reinterpret_cast<PyObject*>(&THPSizeType)), py::make_tuple(values))
      .release()
      .ptr();
  END_HANDLE_TH_ERRORS
}

PyMappingMethods THPSize_as_mapping = {nullptr, THPSize_subscript, nullptr};
PySequenceMethods THPSize_as_sequence = {};

PyMethodDef THPSize_methods[] = {
    {"numel", THPSize_numel, METH_NOARGS, "The number of elements a tensor of this shape has."},
    {"__reduce__", THPSize_reduce, METH_NOARGS, nullptr},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

PyTypeObject THPSizeType = {PyVarObject_HEAD_INIT(nullptr, 0) "torch.Size"};

namespace torch {
void initSizeBindings(PyObject* module) {
  THPSize_as_sequence = *PyTuple_Type.tp_as_sequence;
  THPSize_as_sequence.sq_concat = THPSize_concat;
  THPSize_as_sequence.sq_repeat = THPSize_repeat;
  THPSizeType.tp_basicsize = PyTuple_Type.tp_basicsize;
  THPSizeType.tp_itemsize = PyTuple_Type.tp_itemsize;
  THPSizeType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_TUPLE_SUBCLASS;
  THPSizeType.tp_doc = "torch.Size: the shape of a tensor, a tuple of ints.";
  THPSizeType.tp_base = &PyTuple_Type;
  THPSizeType.tp_new = THPSize_pynew;
  THPSizeType.tp_repr = THPSize_repr;
  THPSizeType.tp_as_mapping = &THPSize_as_mapping;
  THPSizeType.tp_as_sequence = &THPSize_as_sequence;
  THPSizeType.tp_methods = THPSize_methods;
  if (PyType_Ready(&THPSizeType) < 0) throw py::error_already_set();
  Py_INCREF(&THPSizeType);
  PyModule_AddObject(module, "Size", reinterpret_cast<PyObject*>(&THPSizeType));
}
}  // namespace torch
