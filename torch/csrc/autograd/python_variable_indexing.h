// torch/csrc/autograd/python_variable_indexing.h - t[index] and t[index] = value for
// torch._C.TensorBase (its mp_subscript / mp_ass_subscript).
// Mirrors PyTorch's torch/csrc/autograd/python_variable_indexing.h. Guide: docs/source/internals/tensors.rst.
#pragma once

#include <Python.h>

namespace torch::autograd {

PyObject* THPVariable_getitem(PyObject* self, PyObject* index);
int THPVariable_setitem(PyObject* self, PyObject* index, PyObject* value);

}  // namespace torch::autograd
