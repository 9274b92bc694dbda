// torch/csrc/Size.h - torch.Size, the tuple subclass that tensor.shape returns.
// Mirrors PyTorch's torch/csrc/Size.h. Guide: docs/source/internals/python_bindings.rst.
#pragma once

#include <c10/util/ArrayRef.h>

#include <Python.h>

#include <cstdint>

extern PyTypeObject THPSizeType;

inline bool THPSize_Check(PyObject* obj) {
  return Py_TYPE(obj) == &THPSizeType;
}
// A new torch.Size of these sizes (new reference).
PyObject* THPSize_NewFromSizes(c10::ArrayRef<int64_t> sizes);

namespace torch {
void initSizeBindings(PyObject* module);
}
