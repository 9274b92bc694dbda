// torch/csrc/Generator.h - torch.Generator, the Python face of at::Generator.
// Mirrors PyTorch's torch/csrc/Generator.h. Guide: docs/source/internals/python_bindings.rst.
#pragma once

#include <ATen/core/Generator.h>

#include <Python.h>
#include <pybind11/pybind11.h>

namespace torch {

// torch._C.Generator and torch._C.default_generator.
void initGeneratorBindings(pybind11::module_& m);

}  // namespace torch

// For the argument parser (a `Generator?` argument): is obj a torch.Generator, and its handle.
bool THPGenerator_Check(PyObject* obj);
at::Generator THPGenerator_Unwrap(PyObject* obj);
