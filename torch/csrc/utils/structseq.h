// torch/csrc/utils/structseq.h - torch.return_types: the named tuples operators return
// (max(dim) -> torch.return_types.max(values=..., indices=...)).
// Mirrors PyTorch's torch/csrc/utils/structseq.h + torch/csrc/autograd/generated/python_return_types.cpp.
// Guide: docs/source/internals/generated_code.rst.
#pragma once

#include <ATen/core/Tensor.h>

#include <Python.h>
#include <structseq.h>

#include <string>
#include <vector>

namespace torch::utils {

// The PyStructSequence type torch.return_types.<name> with these fields, made once.
PyTypeObject* get_return_type(const std::string& name, const std::vector<const char*>& fields);

// An instance of type holding the tensors, in field order.
PyObject* wrap_structseq(PyTypeObject* type, const std::vector<at::Tensor>& items);

// PyTorch's repr: "torch.return_types.max(\nvalues=tensor(...),\nindices=tensor(...))".
PyObject* returned_structseq_repr(PyStructSequence* obj);

// torch._C._return_types: every type the generated bindings declared, by name.
void initReturnTypes(PyObject* module);

}  // namespace torch::utils
