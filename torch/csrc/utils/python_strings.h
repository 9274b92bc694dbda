// torch/csrc/utils/python_strings.h - small helpers for naming Python objects in messages.
// Mirrors PyTorch's THPUtils_typename (torch/csrc/utils/python_strings.h, Exceptions.h).
// Guide: docs/source/internals/source_tree.rst.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace torch {

// The name of obj's type, as error messages print it: "float", "str", "UntypedStorage".
inline std::string THPUtils_typename(pybind11::handle obj) {
  return pybind11::str(pybind11::type::handle_of(obj).attr("__name__"));
}

}  // namespace torch
