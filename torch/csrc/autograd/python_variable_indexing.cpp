// torch/csrc/autograd/python_variable_indexing.cpp - Python's t[index] / t[index] = value:
// each Python index object becomes an at::indexing::TensorIndex, and ATen does the rest
// (ATen/TensorIndexing.cpp: views for basic indices, at::index / at::index_put_ for tensors).
// Mirrors PyTorch's torch/csrc/autograd/python_variable_indexing.cpp.
// Guide: docs/source/internals/tensors.rst.
//
// What a Python index can be: an int (or anything with __index__ that is not a sequence),
// a slice (positive steps), None, Ellipsis, True/False, a tensor (long/int indices, bool or
// uint8 masks, a 0-d integer tensor acting as an int), or a list, which becomes an index
// tensor - unless it holds slices, None, Ellipsis, tensors or sequences, in which case it is
// read as a tuple (NumPy's old rule, which PyTorch keeps).
#include <torch/csrc/autograd/python_variable_indexing.h>

#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/python_arg_parser.h>

#include <ATen/Functions.h>
#include <ATen/TensorIndexing.h>

#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace py = pybind11;
using namespace at::indexing;

namespace torch::autograd {
namespace {

bool is_long(PyObject* obj) {
  if (PyBool_Check(obj)) return false;
  if (PyLong_Check(obj)) return true;
  // numpy integers: __index__, and not a sequence (an ndarray has __index__ too)
  return PyIndex_Check(obj) && !PySequence_Check(obj) && !THPVariable_Check(obj) && !PyFloat_Check(obj);
}

// t[[0, 1]] indexes with a tensor; t[[0, slice(None)]] is t[0, :].
bool treatSequenceAsTuple(PyObject* index) {
  if (PyTuple_Check(index)) return true;
  if (THPVariable_Check(index)) return false;
  if (!PySequence_Check(index) || PyUnicode_Check(index)) return false;
  const Py_ssize_t n = PySequence_Size(index);
  if (n < 0) {
    PyErr_Clear();
    return false;
  }
  if (n >= 32) return false;
  for (Py_ssize_t i = 0; i < n; i++) {
    py::object obj = py::reinterpret_steal<py::object>(PySequence_GetItem(index, i));
    if (!obj) {
      PyErr_Clear();
      return false;
    }
    PyObject* o = obj.ptr();
    if (THPVariable_Check(o) || (PySequence_Check(o) && !PyUnicode_Check(o)) || PySlice_Check(o) || o == Py_Ellipsis ||
        o == Py_None) {
      return true;
    }
  }
  return false;
}

// A list of indices as a tensor (PyTorch's indexing_tensor_from_data): bool and uint8 stay
// masks, anything else becomes int64.
at::Tensor sequenceToVariable(PyObject* seq) {
  py::object t = py::module_::import("torch").attr("tensor")(py::handle(seq));
  at::Tensor tensor = THPVariable_Unpack(t.ptr());
  const auto st = tensor.scalar_type();
  if (st != at::kBool && st != at::kByte && st != at::kLong) tensor = tensor.to(at::kLong);
  return tensor;
}

TensorIndex toTensorIndex(PyObject* obj) {
  if (THPVariable_Check(obj)) return TensorIndex(THPVariable_Unpack(obj));
  if (PyBool_Check(obj)) return TensorIndex(obj == Py_True);
  if (is_long(obj)) {
    int overflow = 0;
    const int64_t value = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (value == -1 && PyErr_Occurred()) throw py::error_already_set();
    TORCH_CHECK_VALUE(overflow == 0, "Overflow when unpacking long long");
    return TensorIndex(value);
  }
  if (PySlice_Check(obj)) {
    Py_ssize_t start, stop, step;
    // TypeError for non-integer bounds, ValueError "slice step cannot be zero"
    if (PySlice_Unpack(obj, &start, &stop, &step) < 0) throw py::error_already_set();
    // PySlice_Unpack marks an omitted bound with PY_SSIZE_T_MIN/MAX; Slice's ends are int64.
    const int64_t start64 = start == PY_SSIZE_T_MIN ? INDEX_MIN : start == PY_SSIZE_T_MAX ? INDEX_MAX : start;
    const int64_t stop64 = stop == PY_SSIZE_T_MIN ? INDEX_MIN : stop == PY_SSIZE_T_MAX ? INDEX_MAX : stop;
    return TensorIndex(Slice(start64, stop64, step));
  }
  if (obj == Py_Ellipsis) return TensorIndex(at::indexing::Ellipsis);
  if (obj == Py_None) return TensorIndex(at::indexing::None);
  // Any other sequence is a list of indices, a str included (torch.tensor then refuses it with
  // PyTorch's TypeError "new(): invalid data type 'str'").
  if (PySequence_Check(obj)) return TensorIndex(sequenceToVariable(obj));
  TORCH_CHECK_INDEX(false, "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
                    "indices (got ", Py_TYPE(obj)->tp_name, ")");
}

std::vector<TensorIndex> toTensorIndices(PyObject* index) {
  std::vector<TensorIndex> indices;
  if (!treatSequenceAsTuple(index)) {
    indices.push_back(toTensorIndex(index));
    return indices;
  }
  py::object tuple = py::reinterpret_steal<py::object>(PySequence_Tuple(index));
  if (!tuple) throw py::error_already_set();
  const Py_ssize_t n = PyTuple_GET_SIZE(tuple.ptr());
  for (Py_ssize_t i = 0; i < n; i++) indices.push_back(toTensorIndex(PyTuple_GET_ITEM(tuple.ptr(), i)));
  return indices;
}

// The value of t[...] = value: a tensor as it is, a number as a 0-d tensor of t's dtype.
at::Tensor valueToTensor(const at::Tensor& self, PyObject* value) {
  if (THPVariable_Check(value)) return THPVariable_Unpack(value);
  if (PyBool_Check(value) || PyLong_Check(value) || PyFloat_Check(value) || PyComplex_Check(value) ||
      (PyIndex_Check(value) && !PySequence_Check(value))) {
    if (PyLong_Check(value) && !PyBool_Check(value)) {
      // PyTorch unpacks an int value as an int64 (THPUtils_unpackLong): beyond, its ValueError.
      int overflow = 0;
      PyLong_AsLongLongAndOverflow(value, &overflow);
      TORCH_CHECK_VALUE(overflow == 0, "Overflow when unpacking long long");
    }
    at::Tensor t = at::empty({}, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
    t.fill_(toScalar(value));
    return t;
  }
  TORCH_CHECK_TYPE(false, "can't assign a ", Py_TYPE(value)->tp_name, " to a torch.", c10::toString(self.scalar_type()),
                   "Tensor");
}

}  // namespace

PyObject* THPVariable_getitem(PyObject* self, PyObject* index) {
  HANDLE_TH_ERRORS
  const auto& self_ = THPVariable_Unpack(self);
  auto indices = toTensorIndices(index);
  const bool single_index = !treatSequenceAsTuple(index);
  at::Tensor result;
  {
    pybind11::gil_scoped_release no_gil;
    result = get_item(self_, indices, single_index);
  }
  return THPVariable_Wrap(result);
  END_HANDLE_TH_ERRORS
}

int THPVariable_setitem(PyObject* self, PyObject* index, PyObject* py_value) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(py_value != nullptr, "Tensor does not support deleting items");
  const auto& self_ = THPVariable_Unpack(self);
  at::Tensor value = valueToTensor(self_, py_value);
  auto indices = toTensorIndices(index);
  const bool single_index = !treatSequenceAsTuple(index);
  {
    pybind11::gil_scoped_release no_gil;
    set_item(self_, indices, value, single_index);
  }
  return 0;
  END_HANDLE_TH_ERRORS_RET(-1)
}

}  // namespace torch::autograd
