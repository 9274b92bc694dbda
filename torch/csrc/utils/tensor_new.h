// torch/csrc/utils/tensor_new.h - tensors from Python data: torch.tensor, torch.as_tensor, torch.Tensor(...).
// Mirrors PyTorch's torch/csrc/utils/tensor_new.h. Guide: docs/source/internals/python_bindings.rst.
#pragma once

#include <ATen/core/Tensor.h>
#include <torch/csrc/utils/python_arg_parser.h>

#include <Python.h>

namespace torch::utils {

// The dtype torch.tensor(data) infers: bool -> bool, int -> int64, float -> the default
// dtype, complex -> the default complex dtype; sequences promote across their elements.
at::ScalarType infer_scalar_type(PyObject* obj);
// torch.tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False)
at::Tensor tensor_ctor(PythonArgs& r);
// torch.as_tensor(data, dtype=None, device=None): shares memory with a tensor or an ndarray when it can.
at::Tensor as_tensor(PythonArgs& r);
// torch.Tensor(2, 3) / torch.Tensor([1, 2]) / torch.Tensor(): the legacy constructor.
at::Tensor legacy_tensor_ctor(PyObject* args, PyObject* kwargs,
                              std::optional<at::ScalarType> dtype = std::nullopt);

}  // namespace torch::utils
