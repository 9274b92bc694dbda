// torch/csrc/Dtype.h - torch.dtype, one Python object per c10::ScalarType.
// Mirrors PyTorch's torch/csrc/Dtype.h. Guide: docs/source/internals/tensors.rst.
#pragma once

#include <c10/core/ScalarType.h>
#include <torch/csrc/Export.h>

#include <pybind11/pybind11.h>

namespace torch {

struct THPDtype {
  c10::ScalarType scalar_type;
  std::string name;  // "float32"
};

// Creates the dtype objects and installs them on the torch module under their primary
// and legacy names (torch.float32 and torch.float are the same object).
void initDtypeBindings(pybind11::module_& m);
// The unique Python object of a ScalarType, and back.
TORCH_PYTHON_API pybind11::object getTHPDtype(c10::ScalarType scalar_type);
TORCH_PYTHON_API c10::ScalarType toScalarType(pybind11::handle obj, const char* fn, const char* arg, int position);

}  // namespace torch
