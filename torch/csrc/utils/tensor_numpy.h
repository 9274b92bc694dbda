// torch/csrc/utils/tensor_numpy.h - torch.from_numpy and Tensor.numpy(): one buffer, two views.
// Mirrors PyTorch's torch/csrc/utils/tensor_numpy.h. Guide: docs/source/internals/python_bindings.rst.
#pragma once

#include <ATen/core/Tensor.h>

#include <Python.h>

namespace torch::utils {

// A tensor over the array's memory (no copy); the array stays alive as long as the storage.
at::Tensor tensor_from_numpy(PyObject* obj, bool warn_if_not_writeable = true);
// An ndarray over the tensor's memory (no copy), whose base object is the tensor.
PyObject* tensor_to_numpy(const at::Tensor& tensor, bool force = false);
bool is_numpy_available();
bool is_numpy_array(PyObject* obj);
// The ScalarType of a numpy array's dtype (TypeError for the unsupported ones).
at::ScalarType numpy_array_scalar_type(PyObject* array);
// Called once from Module.cpp: import_array().
void initNumpy();

}  // namespace torch::utils
