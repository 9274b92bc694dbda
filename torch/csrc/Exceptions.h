// torch/csrc/Exceptions.h - how C++ errors become Python exceptions.
// Mirrors PyTorch's torch/csrc/Exceptions.h. Guide: docs/source/internals/source_tree.rst.
#pragma once

#include <pybind11/pybind11.h>

namespace torch {

// Register the translation c10::Error (and subclasses) -> Python exceptions, and create
// torch._C.OutOfMemoryError (a RuntimeError subclass, exported as torch.OutOfMemoryError).
void initExceptions(pybind11::module_& m);

}  // namespace torch

// [marker: HANDLE_TH_ERRORS]
// Bindings written with the CPython API (torch/csrc/autograd/python_variable.cpp, the
// generated python_torch_functions.cpp) have no pybind11 wrapper around them to catch C++
// exceptions, so each one wraps its body in these, as PyTorch's do: any exception becomes
// the Python exception that pybind11's translators (initExceptions above) pick for it.
#define HANDLE_TH_ERRORS try {
#define END_HANDLE_TH_ERRORS_RET(retval)              \
  }                                                   \
  catch (...) {                                       \
    pybind11::detail::try_translate_exceptions();     \
    return retval;                                    \
  }
#define END_HANDLE_TH_ERRORS END_HANDLE_TH_ERRORS_RET(nullptr)
// [end marker: HANDLE_TH_ERRORS]
