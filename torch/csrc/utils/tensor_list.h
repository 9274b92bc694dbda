// torch/csrc/utils/tensor_list.h - Tensor.item() and Tensor.tolist(): elements as Python numbers.
// Mirrors PyTorch's torch/csrc/utils/tensor_list.h (tolist) and at::_local_scalar_dense (item).
// Guide: docs/source/internals/python_bindings.rst.
#pragma once

#include <ATen/core/Tensor.h>

#include <Python.h>

namespace torch::utils {

// The one element of a one-element tensor as a c10::Scalar (int64, double, bool, complex).
at::Scalar tensor_item(const at::Tensor& tensor);
// Nested Python lists of Python numbers (a 0-d tensor gives a number). New reference.
PyObject* tensor_to_list(const at::Tensor& tensor);

}  // namespace torch::utils
