// torch/csrc/utils/pybind.h - pybind11 type casters for ATen's types: at::Tensor, c10::Scalar,
// at::IntArrayRef, c10::Device, c10::ScalarType (and, through <pybind11/stl.h>, the
// std::optional and std::vector of each).
// Mirrors PyTorch's torch/csrc/utils/pybind.h. Guides: docs/source/internals/python_bindings.rst,
// docs/source/internals/cpp_extensions.rst.
//
// With this header, a pybind11-bound function takes and returns at::Tensor: a Python tensor is
// unpacked with THPVariable_Unpack, a result wrapped with THPVariable_Wrap, so the
// one-object-per-TensorImpl rule holds for pybind11 bindings too. A C++ extension includes it
// through <torch/extension.h>; its module links libtorch_python.so, where those functions live,
// so its casters and torch._C's agree on what a tensor is.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <torch/csrc/Device.h>
#include <torch/csrc/Dtype.h>
#include <torch/csrc/autograd/python_variable.h>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vector>

namespace py = pybind11;

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

// A Python number (bool, int, float, complex) or a one-element tensor, as torch._C's
// argument parser accepts for a Scalar; back to Python as the matching number.
template <>
struct type_caster<c10::Scalar> {
 public:
  PYBIND11_TYPE_CASTER(c10::Scalar, _("Union[Number, torch.Tensor]"));

  bool load(handle src, bool) {
    PyObject* obj = src.ptr();
    if (PyBool_Check(obj)) {
      value = c10::Scalar(obj == Py_True);
    } else if (PyLong_Check(obj)) {
      value = c10::Scalar(static_cast<int64_t>(PyLong_AsLongLong(obj)));
    } else if (PyFloat_Check(obj)) {
      value = c10::Scalar(PyFloat_AsDouble(obj));
    } else if (PyComplex_Check(obj)) {
      value = c10::Scalar(c10::complex<double>(PyComplex_RealAsDouble(obj), PyComplex_ImagAsDouble(obj)));
    } else if (THPVariable_Check(obj) && THPVariable_Unpack(obj).numel() == 1) {
      value = THPVariable_Unpack(obj).item();
    } else {
      return false;
    }
    return !PyErr_Occurred();
  }

  static handle cast(const c10::Scalar& s, return_value_policy /* policy */, handle /* parent */) {
    if (s.isBoolean()) return handle(s.toBool() ? Py_True : Py_False).inc_ref();
    if (s.isIntegral(false)) return PyLong_FromLongLong(s.toLong());
    if (s.isComplex()) {
      const auto z = s.toComplexDouble();
      return PyComplex_FromDoubles(z.real(), z.imag());
    }
    return PyFloat_FromDouble(s.toDouble());
  }
};

// A list, tuple or torch.Size of ints. The caster owns the vector the ArrayRef points into,
// which lives as long as the call it is an argument of.
template <>
struct type_caster<c10::IntArrayRef> {
 public:
  PYBIND11_TYPE_CASTER(c10::IntArrayRef, _("Tuple[int, ...]"));

  bool load(handle src, bool) {
    PyObject* obj = src.ptr();
    if (PyLong_Check(obj) && !PyBool_Check(obj)) {  // an int stands for a one-element list
      v_value_ = {static_cast<int64_t>(PyLong_AsLongLong(obj))};
      value = v_value_;
      return true;
    }
    if (!PyTuple_Check(obj) && !PyList_Check(obj)) return false;
    const auto size = PySequence_Size(obj);
    v_value_.clear();
    v_value_.reserve(size);
    for (Py_ssize_t i = 0; i < size; ++i) {
      object item = reinterpret_steal<object>(PySequence_GetItem(obj, i));
      if (!PyLong_Check(item.ptr()) || PyBool_Check(item.ptr())) return false;
      v_value_.push_back(static_cast<int64_t>(PyLong_AsLongLong(item.ptr())));
    }
    value = v_value_;
    return true;
  }

  static handle cast(c10::IntArrayRef src, return_value_policy /* policy */, handle /* parent */) {
    tuple t(src.size());
    for (size_t i = 0; i < src.size(); ++i) t[i] = int_(src[i]);
    return t.release();
  }

 private:
  std::vector<int64_t> v_value_;
};

// torch.device, or what torch.device() accepts ("cuda:0", an int).
template <>
struct type_caster<c10::Device> {
 public:
  PYBIND11_TYPE_CASTER(c10::Device, _("torch.device"));

  type_caster() : value(c10::DeviceType::CPU) {}

  bool load(handle src, bool) {
    try {
      value = torch::toDevice(src);
      return true;
    } catch (...) {
      return false;
    }
  }

  static handle cast(const c10::Device& src, return_value_policy /* policy */, handle /* parent */) {
    return module_::import("torch").attr("device")(src.str()).release();
  }
};

// torch.dtype <-> c10::ScalarType.
template <>
struct type_caster<c10::ScalarType> {
 public:
  PYBIND11_TYPE_CASTER(c10::ScalarType, _("torch.dtype"));

  bool load(handle src, bool) {
    if (src.ptr() == nullptr || src.is_none()) return false;
    try {
      value = torch::toScalarType(src, "pybind11", "dtype", 0);
      return true;
    } catch (...) {
      return false;
    }
  }

  static handle cast(c10::ScalarType src, return_value_policy /* policy */, handle /* parent */) {
    return torch::getTHPDtype(src).release();
  }
};

}  // namespace pybind11::detail
