// torch/csrc/Exceptions.h - how C++ errors become Python exceptions.
// Mirrors PyTorch's torch/csrc/Exceptions.h. Guide: docs/source/internals/source_tree.rst.
#pragma once

#include <pybind11/pybind11.h>

namespace torch {

// Register the translation c10::Error (and subclasses) -> Python exceptions, and create
// torch._C.OutOfMemoryError (a RuntimeError subclass, exported as torch.OutOfMemoryError).
void initExceptions(pybind11::module_& m);

}  // namespace torch
