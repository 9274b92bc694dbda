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
// The module torch._C._linalg: operators marked `python_module: linalg` (linalg_vector_norm,
// linalg_svdvals), which torch/linalg/__init__.py exports as torch.linalg.vector_norm ...
extern PyObject* THPLinalgVariableFunctionsModule;
// Generated (python_linalg_functions.cpp).
PyMethodDef* generated_linalg_functions();
// Creates torch._C._VariableFunctions from the generated and the hand-written functions,
// and torch._C._nn and torch._C._linalg from the generated ones.
void initTorchFunctions(PyObject* module);

}  // namespace torch::autograd
