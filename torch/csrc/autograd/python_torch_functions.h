// torch/csrc/autograd/python_torch_functions.h - torch._C._VariableFunctions: torch.zeros, torch.tensor, ...
// Mirrors PyTorch's torch/csrc/autograd/python_torch_functions.h. Guide: docs/source/internals/python_bindings.rst.
#pragma once

#include <Python.h>

namespace torch::autograd {

// The module torch._C._VariableFunctions, whose functions torch/__init__.py re-exports.
extern PyObject* THPVariableFunctionsModule;
// Generated (python_torch_functions.cpp): one entry per Python-visible operator name, null-terminated.
PyMethodDef* generated_torch_functions();
// Creates torch._C._VariableFunctions from the generated and the hand-written functions.
void initTorchFunctions(PyObject* module);

}  // namespace torch::autograd
