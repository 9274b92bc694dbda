// torch/csrc/autograd/python_torch_functions.h - torch._C._VariableFunctions: torch.zeros, torch.tensor, ...
// Mirrors PyTorch's torch/csrc/autograd/python_torch_functions.h. Guide: docs/source/internals/python_bindings.rst.
#pragma once

#include <Python.h>

namespace torch::autograd {

// The module torch._C._VariableFunctions, whose functions torch/__init__.py re-exports.
extern PyObject* THPVariableFunctionsModule;
// Generated (python_torch_functions.cpp): one entry per Python-visible operator name, null-terminated.
PyMethodDef* generated_torch_functions();
// The module torch._C._nn: operators marked `python_module: nn` in native_functions.yaml
// (gelu, silu ...), which torch.nn.functional calls in PyTorch.
extern PyObject* THPNNVariableFunctionsModule;
// Generated (python_nn_functions.cpp).
PyMethodDef* generated_nn_functions();
// Creates torch._C._VariableFunctions from the generated and the hand-written functions,
// and torch._C._nn from the generated nn functions.
void initTorchFunctions(PyObject* module);

}  // namespace torch::autograd
