// torch/csrc/utils/pybind.h - pybind11 type casters for at::Tensor (and torch.Size-friendly int lists).
// Mirrors PyTorch's torch/csrc/utils/pybind.h. Guide: docs/source/internals/python_bindings.rst.
//
// With this header, a pybind11-bound function can take and return at::Tensor: Python tensors
// are unpacked with THPVariable_Unpack, and results wrapped with THPVariable_Wrap (so the
// one-object-per-TensorImpl rule holds for pybind11 bindings too).
#pragma once

#include <ATen/core/Tensor.h>
#include <torch/csrc/autograd/python_variable.h>

#include <pybind11/pybind11.h>

namespace pybind11::detail {

template <>
struct type_caster<at::Tensor> {
 public:
  PYBIND11_TYPE_CASTER(at::Tensor, _("torch.Tensor"));

  bool load(handle src, bool) {
    PyObject* obj = src.ptr();
    if (THPVariable_Check(obj)) {
      value = THPVariable_Unpack(obj);
      return true;
    }
    return false;
  }

  static handle cast(const at::Tensor& src, return_value_policy /* policy */, handle /* parent */) {
    return handle(THPVariable_Wrap(src));
  }
};

}  // namespace pybind11::detail
