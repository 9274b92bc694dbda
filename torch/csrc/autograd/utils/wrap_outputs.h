// torch/csrc/autograd/utils/wrap_outputs.h - C++ values as Python objects, for the grad_fn classes.
// Mirrors PyTorch's torch/csrc/autograd/utils/wrap_outputs.h. Guide: docs/source/internals/autograd.rst.
#pragma once

#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <torch/csrc/Dtype.h>

#include <Python.h>

#include <vector>

namespace torch::autograd::utils {

inline PyObject* none() {
  Py_RETURN_NONE;
}

inline PyObject* wrap_int_tuple(const std::vector<int64_t>& values) {
  PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(values.size()));
  for (size_t i = 0; i < values.size(); ++i) {
    PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), PyLong_FromLongLong(values[i]));
  }
  return tuple;
}

inline PyObject* wrap_scalar(const c10::Scalar& s) {
  if (s.isBoolean()) {
    return PyBool_FromLong(s.toBool());
  }
  if (s.isIntegral(false)) {
    return PyLong_FromLongLong(s.toLong());
  }
  if (s.isComplex()) {
    auto c = s.toComplexDouble();
    return PyComplex_FromDoubles(c.real(), c.imag());
  }
  return PyFloat_FromDouble(s.toDouble());
}

inline PyObject* wrap_dtype(c10::ScalarType t) {
  return getTHPDtype(t).release().ptr();
}

}  // namespace torch::autograd::utils
