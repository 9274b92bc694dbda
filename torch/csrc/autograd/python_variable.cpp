// torch/csrc/autograd/python_variable.cpp - torch._C.TensorBase: the Python tensor type.
// Mirrors PyTorch's torch/csrc/autograd/python_variable.cpp (and the hand-written part of
// python_variable_methods.cpp). Guide: docs/source/internals/python_bindings.rst.
//
// Written with the CPython API, as PyTorch's is: a THPVariable is a PyObject header and an
// at::Tensor. The metadata (shape, stride, dtype, device ...) is read from the TensorImpl
// here; the operator methods (t.fill_(1), t.zero_()) are generated from
// native_functions.yaml into python_variable_methods.cpp and appended to these.
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/device_lazy_init.h>

#include <ATen/Operators.h>

#include <torch/csrc/Device.h>
#include <torch/csrc/Dtype.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/Size.h>
#include <torch/csrc/Storage.h>
#include <torch/csrc/autograd/python_cpp_function.h>
#include <torch/csrc/autograd/python_variable_indexing.h>
#include <torch/csrc/autograd/variable.h>
#include <torch/csrc/utils/python_arg_parser.h>
#include <torch/csrc/utils/tensor_list.h>
#include <torch/csrc/utils/tensor_new.h>
#include <torch/csrc/utils/tensor_numpy.h>

#include <pybind11/pybind11.h>

#include <vector>

namespace py = pybind11;
using namespace torch;

PyObject* THPVariableClass = nullptr;

// [marker: THPVariable_Wrap]
PyObject* THPVariable_NewWithVar(PyTypeObject* type, const at::TensorBase& var) {
  PyObject* obj = type->tp_alloc(type, 0);
  if (!obj) return nullptr;
  auto* v = reinterpret_cast<THPVariable*>(obj);
  new (&v->cdata) at::Tensor(var);
  // The TensorImpl now knows its Python object (a borrowed pointer: the object owns the
  // tensor, not the other way round).
  var.unsafeGetTensorImpl()->set_pyobj(obj);
  return obj;
}

PyObject* THPVariable_Wrap(const at::TensorBase& var) {
  if (!var.defined()) Py_RETURN_NONE;
  if (auto* obj = static_cast<PyObject*>(var.unsafeGetTensorImpl()->pyobj())) {
    // This TensorImpl has been to Python before: hand back the same object.
    Py_INCREF(obj);
    return obj;
  }
  PyTypeObject* type = THPVariableClass ? reinterpret_cast<PyTypeObject*>(THPVariableClass) : &THPVariableType;
  return THPVariable_NewWithVar(type, var);
}
// [end marker: THPVariable_Wrap]

namespace {

// [marker: THPVariable_dealloc]
void THPVariable_dealloc(PyObject* self) {
  auto* v = reinterpret_cast<THPVariable*>(self);
  if (v->cdata.defined() && v->cdata.unsafeGetTensorImpl()->pyobj() == self) {
    // The tensor may live on in C++; the next time it reaches Python it gets a new object.
    v->cdata.unsafeGetTensorImpl()->set_pyobj(nullptr);
  }
  v->cdata.~Tensor();
  Py_TYPE(self)->tp_free(self);
}
// [end marker: THPVariable_dealloc]

// torch.Tensor(2, 3), torch.Tensor([1, 2]), torch.Tensor(): the legacy constructor.
PyObject* THPVariable_pynew(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(type != &THPVariableType, "Cannot directly construct TensorBase; subclass it and then construct that");
  at::Tensor tensor = torch::utils::legacy_tensor_ctor(args, kwargs);
  if (auto* existing = static_cast<PyObject*>(tensor.unsafeGetTensorImpl()->pyobj())) {
    Py_INCREF(existing);
    return existing;
  }
  return THPVariable_NewWithVar(type, tensor);
  END_HANDLE_TH_ERRORS
}

const at::Tensor& self_tensor(PyObject* self) {
  return THPVariable_Unpack(self);
}

// int(t) and float(t) (torch/_tensor.py): the one element as a checked Scalar conversion, so
// int(torch.tensor(1+1j)) is PyTorch's "value cannot be converted to type int64_t without
// overflow" rather than Python's TypeError.
PyObject* THPVariable_tensor_to_int(PyObject* /*module*/, PyObject* arg) {
  HANDLE_TH_ERRORS
  return PyLong_FromLongLong(torch::utils::tensor_item(THPVariable_Unpack(arg)).toLong());
  END_HANDLE_TH_ERRORS
}

PyObject* THPVariable_tensor_to_float(PyObject* /*module*/, PyObject* arg) {
  HANDLE_TH_ERRORS
  return PyFloat_FromDouble(torch::utils::tensor_item(THPVariable_Unpack(arg)).toDouble());
  END_HANDLE_TH_ERRORS
}

// torch._C._legacy_tensor_new(dtype, *args, **kwargs): the body of torch.FloatTensor(...)
// and the other legacy type names (torch/_legacy_tensor_types.py) with their dtype.
PyObject* THPVariable_legacy_tensor_new(PyObject* /*module*/, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(PyTuple_GET_SIZE(args) >= 1, "_legacy_tensor_new() needs a dtype");
  const auto dtype = torch::toScalarType(PyTuple_GET_ITEM(args, 0), "_legacy_tensor_new", "dtype", 0);
  PyObject* rest = PyTuple_GetSlice(args, 1, PyTuple_GET_SIZE(args));
  if (!rest) return nullptr;
  at::Tensor tensor;
  try {
    tensor = torch::utils::legacy_tensor_ctor(rest, kwargs, dtype);
  } catch (...) {
    Py_DECREF(rest);
    throw;
  }
  Py_DECREF(rest);
  return THPVariable_Wrap(tensor);
  END_HANDLE_TH_ERRORS
}

// ---- properties ----

PyObject* THPVariable_get_shape(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return THPSize_NewFromSizes(self_tensor(self).sizes());
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_get_dtype(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return getTHPDtype(self_tensor(self).scalar_type()).release().ptr();
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_get_device(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return py::cast(THPDevice{self_tensor(self).device()}).release().ptr();
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_get_ndim(PyObject* self, void*) {
  return PyLong_FromLongLong(self_tensor(self).dim());
}
PyObject* THPVariable_is_cuda(PyObject* self, void*) {
  return PyBool_FromLong(self_tensor(self).is_cuda());
}
PyObject* THPVariable_is_cpu(PyObject* self, void*) {
  return PyBool_FromLong(self_tensor(self).is_cpu());
}
PyObject* THPVariable_is_meta(PyObject* self, void*) {
  return PyBool_FromLong(self_tensor(self).is_meta());
}
PyObject* THPVariable_false(PyObject* self, void*) {
  Py_RETURN_FALSE;
}
PyObject* THPVariable_true(PyObject* self, void*) {
  Py_RETURN_TRUE;
}
PyObject* THPVariable_none(PyObject* self, void*) {
  Py_RETURN_NONE;
}
PyObject* THPVariable_get_nbytes(PyObject* self, void*) {
  return PyLong_FromSize_t(self_tensor(self).nbytes());
}
PyObject* THPVariable_get_itemsize(PyObject* self, void*) {
  return PyLong_FromSize_t(self_tensor(self).itemsize());
}
PyObject* THPVariable_get_version(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return PyLong_FromLongLong(self_tensor(self)._version());
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_get_layout(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return py::object(py::module_::import("torch").attr("strided")).release().ptr();
  END_HANDLE_TH_ERRORS
}
// [marker: autograd properties]
// ---- autograd state (torch/csrc/autograd/variable.h keeps it on the TensorImpl) ----
PyObject* THPVariable_get_requires_grad(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return PyBool_FromLong(self_tensor(self).requires_grad());
  END_HANDLE_TH_ERRORS
}
int THPVariable_set_requires_grad(PyObject* self, PyObject* value, void*) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(value && PyBool_Check(value), "requires_grad must be a bool");
  const auto& t = self_tensor(self);
  const bool requires_grad = value == Py_True;
  TORCH_CHECK(t.is_leaf() || requires_grad,
              "you can only change requires_grad flags of leaf variables. If you want to use a computed variable in "
              "a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
  // PyTorch checks the dtype here, in its own words (the C++ set_requires_grad says it differently).
  TORCH_CHECK(!requires_grad || c10::isFloatingType(t.scalar_type()) || c10::isComplexType(t.scalar_type()),
              "only Tensors of floating point and complex dtype can require gradients");
  if (t.is_leaf()) {
    t.set_requires_grad(requires_grad);
  }
  return 0;
  END_HANDLE_TH_ERRORS_RET(-1)
}
PyObject* THPVariable_get_grad(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  const auto& t = self_tensor(self);
  if (!t.is_leaf() && !t.retains_grad() && t.requires_grad()) {
    TORCH_WARN(
        "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
        "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf "
        "Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure "
        "you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information.");
  }
  return THPVariable_Wrap(t.grad());
  END_HANDLE_TH_ERRORS
}
int THPVariable_set_grad(PyObject* self, PyObject* value, void*) {
  HANDLE_TH_ERRORS
  const auto& t = self_tensor(self);
  if (!value || value == Py_None) {
    t.mutable_grad().reset();
    return 0;
  }
  TORCH_CHECK_TYPE(THPVariable_Check(value), "assigned grad expected to be a Tensor or None but got grad of type ",
                   Py_TYPE(value)->tp_name);
  const auto& grad = THPVariable_Unpack(value);
  TORCH_CHECK(!grad.is_same(t), "can't assign Variable as its own grad");
  TORCH_CHECK(grad.scalar_type() == t.scalar_type(), "attempting to assign a gradient with dtype '",
              c10::toString(grad.scalar_type()), "' to a tensor with dtype '", c10::toString(t.scalar_type()),
              "'. Please ensure that the gradient and the tensor have the same dtype");
  TORCH_CHECK(grad.device() == t.device(), "attempting to assign a gradient with device type '",
              grad.device(), "' to a tensor with device type '", t.device(),
              "'. Please ensure that the gradient and the tensor are on the same device");
  TORCH_CHECK(grad.sizes() == t.sizes(), "attempting to assign a gradient of size '", grad.sizes(),
              "' to a tensor of size '", t.sizes(), "'. Please ensure that the gradient and the tensor are the same size");
  t.mutable_grad() = grad;
  return 0;
  END_HANDLE_TH_ERRORS_RET(-1)
}
PyObject* THPVariable_get_grad_fn(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return torch::autograd::functionToPyObject(self_tensor(self).grad_fn());
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_is_leaf(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return PyBool_FromLong(self_tensor(self).is_leaf());
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_get_output_nr(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return PyLong_FromLongLong(self_tensor(self).output_nr());
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_get_retains_grad(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return PyBool_FromLong(self_tensor(self).retains_grad());
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_get_base(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  const auto& t = self_tensor(self);
  if (t.is_view()) {
    return THPVariable_Wrap(t._base());
  }
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}
// x.data: the same memory with no history and its own version counter.
PyObject* THPVariable_get_data(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return THPVariable_Wrap(self_tensor(self).variable_data());
  END_HANDLE_TH_ERRORS
}
int THPVariable_set_data(PyObject* self, PyObject* value, void*) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(value && THPVariable_Check(value), "Variable data has to be a tensor, but got ",
                   value ? Py_TYPE(value)->tp_name : "None");
  self_tensor(self).set_data(THPVariable_Unpack(value));
  return 0;
  END_HANDLE_TH_ERRORS_RET(-1)
}
// [end marker: autograd properties]

// t.T, t.mT, t.mH, t.H: properties over the operators numpy_T, mT, mH, matrix_H (views).
PyObject* THPVariable_get_T(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return THPVariable_Wrap(self_tensor(self).numpy_T());
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_get_mT(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return THPVariable_Wrap(self_tensor(self).mT());
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_get_mH(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return THPVariable_Wrap(self_tensor(self).mH());
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_get_H(PyObject* self, void*) {
  HANDLE_TH_ERRORS
  return THPVariable_Wrap(self_tensor(self).matrix_H());
  END_HANDLE_TH_ERRORS
}

PyGetSetDef THPVariable_properties[] = {
    {"shape", THPVariable_get_shape, nullptr, "The sizes, as a torch.Size.", nullptr},
    {"T", THPVariable_get_T, nullptr, "The dimensions reversed (a view).", nullptr},
    {"mT", THPVariable_get_mT, nullptr, "The last two dimensions swapped (a view).", nullptr},
    {"mH", THPVariable_get_mH, nullptr, "The conjugate transpose of the last two dimensions.", nullptr},
    {"H", THPVariable_get_H, nullptr, "The conjugate transpose of a matrix.", nullptr},
    {"dtype", THPVariable_get_dtype, nullptr, "The element type.", nullptr},
    {"device", THPVariable_get_device, nullptr, "Where the data lives.", nullptr},
    {"layout", THPVariable_get_layout, nullptr, "torch.strided.", nullptr},
    {"ndim", THPVariable_get_ndim, nullptr, "The number of dimensions.", nullptr},
    {"is_cuda", THPVariable_is_cuda, nullptr, nullptr, nullptr},
    {"is_cpu", THPVariable_is_cpu, nullptr, nullptr, nullptr},
    {"is_meta", THPVariable_is_meta, nullptr, nullptr, nullptr},
    {"is_sparse", THPVariable_false, nullptr, nullptr, nullptr},
    {"is_quantized", THPVariable_false, nullptr, nullptr, nullptr},
    {"is_nested", THPVariable_false, nullptr, nullptr, nullptr},
    {"is_leaf", THPVariable_is_leaf, nullptr, "True if no operation made this tensor (it has no grad_fn).", nullptr},
    {"grad", THPVariable_get_grad, THPVariable_set_grad, "The gradient backward() accumulated here.", nullptr},
    {"grad_fn", THPVariable_get_grad_fn, nullptr, "The backward node that made this tensor.", nullptr},
    {"output_nr", THPVariable_get_output_nr, nullptr, "Which output of grad_fn this tensor is.", nullptr},
    {"retains_grad", THPVariable_get_retains_grad, nullptr, nullptr, nullptr},
    {"_base", THPVariable_get_base, nullptr, "The tensor this view looks into (None if not a view).", nullptr},
    {"data", THPVariable_get_data, THPVariable_set_data, "The same data without autograd history.", nullptr},
    {"nbytes", THPVariable_get_nbytes, nullptr, "numel() * itemsize.", nullptr},
    {"itemsize", THPVariable_get_itemsize, nullptr, "Bytes per element.", nullptr},
    {"_version", THPVariable_get_version, nullptr, "The version counter: +1 per in-place write.", nullptr},
    {"requires_grad", THPVariable_get_requires_grad, THPVariable_set_requires_grad, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

// ---- methods ----

PyObject* THPVariable_size(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static PythonArgParser parser({"size(int64_t? dim=None)"});
  ParsedArgs<1> parsed_args;
  auto r = parser.parse(self, args, kwargs, parsed_args);
  const auto& t = self_tensor(self);
  if (r.isNone(0)) return THPSize_NewFromSizes(t.sizes());
  return PyLong_FromLongLong(t.size(r.toInt64(0)));
  END_HANDLE_TH_ERRORS
}

PyObject* THPVariable_stride(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static PythonArgParser parser({"stride(int64_t? dim=None)"});
  ParsedArgs<1> parsed_args;
  auto r = parser.parse(self, args, kwargs, parsed_args);
  const auto& t = self_tensor(self);
  if (r.isNone(0)) {
    // a plain tuple, as in PyTorch
    py::tuple strides(t.dim());
    for (int64_t i = 0; i < t.dim(); ++i) strides[i] = py::int_(t.strides()[i]);
    return strides.release().ptr();
  }
  return PyLong_FromLongLong(t.stride(r.toInt64(0)));
  END_HANDLE_TH_ERRORS
}

PyObject* THPVariable_dim(PyObject* self, PyObject*) {
  return PyLong_FromLongLong(self_tensor(self).dim());
}
PyObject* THPVariable_numel(PyObject* self, PyObject*) {
  return PyLong_FromLongLong(self_tensor(self).numel());
}
PyObject* THPVariable_storage_offset(PyObject* self, PyObject*) {
  return PyLong_FromLongLong(self_tensor(self).storage_offset());
}
PyObject* THPVariable_element_size(PyObject* self, PyObject*) {
  return PyLong_FromLongLong(self_tensor(self).element_size());
}
PyObject* THPVariable_is_floating_point(PyObject* self, PyObject*) {
  return PyBool_FromLong(c10::isFloatingType(self_tensor(self).scalar_type()));
}
PyObject* THPVariable_is_complex(PyObject* self, PyObject*) {
  return PyBool_FromLong(c10::isComplexType(self_tensor(self).scalar_type()));
}
PyObject* THPVariable_get_device_index(PyObject* self, PyObject*) {
  const auto& t = self_tensor(self);
  return PyLong_FromLongLong(t.is_cpu() ? -1 : t.device().index());
}

PyObject* THPVariable_is_contiguous(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static PythonArgParser parser({"is_contiguous(*, MemoryFormat memory_format=torch.contiguous_format)"});
  ParsedArgs<1> parsed_args;
  auto r = parser.parse(self, args, kwargs, parsed_args);
  TORCH_CHECK(r.memoryformat(0) == at::MemoryFormat::Contiguous,
              "is_contiguous() supports memory_format=torch.contiguous_format only in this tree");
  return PyBool_FromLong(self_tensor(self).is_contiguous());
  END_HANDLE_TH_ERRORS
}

PyObject* THPVariable_data_ptr(PyObject* self, PyObject*) {
  HANDLE_TH_ERRORS
  const auto& t = self_tensor(self);
  // A tensor without memory (meta, or no elements allocated) has data_ptr() == 0.
  if (!t.has_storage() || t.storage().data() == nullptr) return PyLong_FromLong(0);
  return PyLong_FromVoidPtr(t.data_ptr());
  END_HANDLE_TH_ERRORS
}

PyObject* THPVariable_untyped_storage(PyObject* self, PyObject*) {
  HANDLE_TH_ERRORS
  // A torch.UntypedStorage holding another reference to this tensor's StorageImpl.
  py::object base = py::cast(THPStorage{self_tensor(self).storage()});
  return py::module_::import("torch").attr("UntypedStorage")(py::arg("_share") = base).release().ptr();
  END_HANDLE_TH_ERRORS
}

PyObject* THPVariable_item(PyObject* self, PyObject*) {
  HANDLE_TH_ERRORS
  return scalarToPython(torch::utils::tensor_item(self_tensor(self)));
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_tolist(PyObject* self, PyObject*) {
  HANDLE_TH_ERRORS
  return torch::utils::tensor_to_list(self_tensor(self));
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_numpy(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static PythonArgParser parser({"numpy(*, bool force=False)"});
  ParsedArgs<1> parsed_args;
  auto r = parser.parse(self, args, kwargs, parsed_args);
  const auto& t = self_tensor(self);
  TORCH_CHECK(r.toBool(0) || !self_tensor(self).requires_grad(),
              "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.");
  return torch::utils::tensor_to_numpy(t, r.toBool(0));
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_requires_grad_(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static PythonArgParser parser({"requires_grad_(bool requires_grad=True)"});
  ParsedArgs<1> parsed_args;
  auto r = parser.parse(self, args, kwargs, parsed_args);
  self_tensor(self).requires_grad_(r.toBool(0));
  Py_INCREF(self);
  return self;
  END_HANDLE_TH_ERRORS
}
// t.to(device), t.to(dtype), t.to(other), t.to(device, dtype): written by hand, as in
// PyTorch (python_variable_methods.cpp), because one Python method folds several schemas
// (to.dtype_layout, to.device, to.dtype, to.other) whose positional arguments overlap.
PyObject* THPVariable_to(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static PythonArgParser parser({
      "to(Device? device=None, ScalarType? dtype=None, bool non_blocking=False, bool copy=False, *, "
      "MemoryFormat? memory_format=None)",
      "to(ScalarType dtype, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
      "to(Tensor tensor, bool non_blocking=False, bool copy=False, *, MemoryFormat? memory_format=None)",
  });
  ParsedArgs<5> parsed_args;
  auto r = parser.parse(self, args, kwargs, parsed_args);
  const auto& t = self_tensor(self);
  std::optional<at::Device> device;
  std::optional<at::ScalarType> dtype;
  bool non_blocking = false, copy = false;
  std::optional<at::MemoryFormat> memory_format;
  if (r.idx == 0) {
    device = r.deviceOptional(0);
    dtype = r.scalartypeOptional(1);
    non_blocking = r.toBool(2);
    copy = r.toBool(3);
    memory_format = r.memoryformatOptional(4);
  } else if (r.idx == 1) {
    dtype = r.scalartype(0);
    non_blocking = r.toBool(1);
    copy = r.toBool(2);
    memory_format = r.memoryformatOptional(3);
  } else {
    const auto other = r.tensor(0);
    device = other.device();
    dtype = other.scalar_type();
    non_blocking = r.toBool(1);
    copy = r.toBool(2);
    memory_format = r.memoryformatOptional(3);
  }
  if (device) {
    torch::utils::device_lazy_init(device->type());
  }
  at::Tensor result;
  {
    pybind11::gil_scoped_release no_gil;
    result = at::_ops::to_dtype_layout::call(t, dtype, std::nullopt, device, std::nullopt, non_blocking, copy,
                                             memory_format);
  }
  return THPVariable_Wrap(result);
  END_HANDLE_TH_ERRORS
}

// t.float(), t.double(), t.long() ...: t.to(dtype) (self itself when the dtype is already
// right), as PyTorch's THPVariable_float & co. in python_variable_methods.cpp.
template <c10::ScalarType scalar_type>
PyObject* THPVariable_to_type(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static PythonArgParser parser({"method(*, MemoryFormat? memory_format=None)"});
  ParsedArgs<1> parsed_args;
  auto r = parser.parse(self, args, kwargs, parsed_args);
  const auto& t = self_tensor(self);
  at::Tensor result;
  {
    pybind11::gil_scoped_release no_gil;
    result = at::_ops::to_dtype_layout::call(t, scalar_type, std::nullopt, std::nullopt, std::nullopt,
                                             /*non_blocking=*/false, /*copy=*/false, r.memoryformatOptional(0));
  }
  return THPVariable_Wrap(result);
  END_HANDLE_TH_ERRORS
}

PyObject* THPVariable_retain_grad(PyObject* self, PyObject*) {
  HANDLE_TH_ERRORS
  self_tensor(self).retain_grad();
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}
PyObject* THPVariable_is_inference(PyObject* self, PyObject*) {
  return PyBool_FromLong(self_tensor(self).is_inference());
}
PyObject* THPVariable_is_view(PyObject* self, PyObject*) {
  HANDLE_TH_ERRORS
  return PyBool_FromLong(self_tensor(self).is_view());
  END_HANDLE_TH_ERRORS
}
// t.as_subclass(cls): the same data and metadata in a new TensorImpl, as an instance of cls.
PyObject* THPVariable_as_subclass(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static PythonArgParser parser({"as_subclass(PyObject* cls)"});
  ParsedArgs<1> parsed_args;
  auto r = parser.parse(self, args, kwargs, parsed_args);
  PyObject* cls = r.pyobject(0);
  TORCH_CHECK_TYPE(PyType_Check(cls) && PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls), &THPVariableType),
                   "cls must be a type (got ", Py_TYPE(cls)->tp_name, ")");
  const auto& t = self_tensor(self);
  // the alias shares storage and version counter (PyTorch's Tensor::alias)
  auto impl = c10::make_intrusive<c10::TensorImpl>(c10::Storage(t.storage()), t.key_set(), t.dtype());
  impl->set_sizes_and_strides(t.sizes(), t.strides(), t.storage_offset());
  impl->set_version_counter(t.unsafeGetTensorImpl()->version_counter());
  return THPVariable_NewWithVar(reinterpret_cast<PyTypeObject*>(cls), at::Tensor(std::move(impl)));
  END_HANDLE_TH_ERRORS
}

// t.nonzero(*, as_tuple=False): written by hand, as in PyTorch, because as_tuple picks
// between two operators (nonzero: one [n, dim] tensor; nonzero_numpy: a tuple of them).
PyObject* THPVariable_nonzero(PyObject* self, PyObject* args, PyObject* kwargs) {
  HANDLE_TH_ERRORS
  static PythonArgParser parser({"nonzero(*, bool as_tuple=False)"});
  ParsedArgs<1> parsed_args;
  auto r = parser.parse(self, args, kwargs, parsed_args);
  const auto& t = self_tensor(self);
  if (r.toBool(0)) {
    auto parts = t.nonzero_numpy();
    py::tuple result(parts.size());
    for (size_t i = 0; i < parts.size(); i++) result[i] = py::reinterpret_steal<py::object>(THPVariable_Wrap(parts[i]));
    return result.release().ptr();
  }
  return THPVariable_Wrap(t.nonzero());
  END_HANDLE_TH_ERRORS
}

PyObject* THPVariable_dim_noargs(PyObject* self, PyObject* a) {
  return THPVariable_dim(self, a);
}

std::vector<PyMethodDef> manual_methods = {
    {"size", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_size)),
     METH_VARARGS | METH_KEYWORDS, "size(dim=None): the sizes (a torch.Size) or one of them."},
    {"stride", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_stride)),
     METH_VARARGS | METH_KEYWORDS, "stride(dim=None): elements to step in memory per index, per dimension."},
    {"dim", THPVariable_dim, METH_NOARGS, "The number of dimensions."},
    {"ndimension", THPVariable_dim_noargs, METH_NOARGS, "The number of dimensions."},
    {"numel", THPVariable_numel, METH_NOARGS, "The number of elements."},
    {"nelement", THPVariable_numel, METH_NOARGS, "The number of elements."},
    {"storage_offset", THPVariable_storage_offset, METH_NOARGS, "Where element 0 is in the storage, in elements."},
    {"element_size", THPVariable_element_size, METH_NOARGS, "Bytes per element."},
    {"is_floating_point", THPVariable_is_floating_point, METH_NOARGS, nullptr},
    {"is_complex", THPVariable_is_complex, METH_NOARGS, nullptr},
    {"get_device", THPVariable_get_device_index, METH_NOARGS, nullptr},
    {"is_contiguous", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_is_contiguous)),
     METH_VARARGS | METH_KEYWORDS, "Whether the elements are laid out row-major without gaps."},
    {"data_ptr", THPVariable_data_ptr, METH_NOARGS, "The address of element 0."},
    {"untyped_storage", THPVariable_untyped_storage, METH_NOARGS, "The storage (shared, not copied)."},
    {"item", THPVariable_item, METH_NOARGS, "The one element as a Python number."},
    {"tolist", THPVariable_tolist, METH_NOARGS, "Nested lists of Python numbers."},
    {"numpy", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_numpy)),
     METH_VARARGS | METH_KEYWORDS, "A numpy array sharing this tensor's memory."},
    {"requires_grad_", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_requires_grad_)),
     METH_VARARGS | METH_KEYWORDS, nullptr},
    {"to", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_to)),
     METH_VARARGS | METH_KEYWORDS, "to(device=None, dtype=None, non_blocking=False, copy=False), to(dtype), to(other)."},
    {"float", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_to_type<c10::ScalarType::Float>)),
     METH_VARARGS | METH_KEYWORDS, "self.to(torch.float32)."},
    {"double", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_to_type<c10::ScalarType::Double>)),
     METH_VARARGS | METH_KEYWORDS, "self.to(torch.float64)."},
    {"half", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_to_type<c10::ScalarType::Half>)),
     METH_VARARGS | METH_KEYWORDS, "self.to(torch.float16)."},
    {"bfloat16", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_to_type<c10::ScalarType::BFloat16>)),
     METH_VARARGS | METH_KEYWORDS, "self.to(torch.bfloat16)."},
    {"long", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_to_type<c10::ScalarType::Long>)),
     METH_VARARGS | METH_KEYWORDS, "self.to(torch.int64)."},
    {"int", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_to_type<c10::ScalarType::Int>)),
     METH_VARARGS | METH_KEYWORDS, "self.to(torch.int32)."},
    {"short", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_to_type<c10::ScalarType::Short>)),
     METH_VARARGS | METH_KEYWORDS, "self.to(torch.int16)."},
    {"char", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_to_type<c10::ScalarType::Char>)),
     METH_VARARGS | METH_KEYWORDS, "self.to(torch.int8)."},
    {"byte", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_to_type<c10::ScalarType::Byte>)),
     METH_VARARGS | METH_KEYWORDS, "self.to(torch.uint8)."},
    {"bool", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_to_type<c10::ScalarType::Bool>)),
     METH_VARARGS | METH_KEYWORDS, "self.to(torch.bool)."},
    {"cfloat", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_to_type<c10::ScalarType::ComplexFloat>)),
     METH_VARARGS | METH_KEYWORDS, "self.to(torch.complex64)."},
    {"cdouble", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_to_type<c10::ScalarType::ComplexDouble>)),
     METH_VARARGS | METH_KEYWORDS, "self.to(torch.complex128)."},
    {"retain_grad", THPVariable_retain_grad, METH_NOARGS, "Keep this non-leaf tensor's gradient in .grad."},
    {"is_inference", THPVariable_is_inference, METH_NOARGS, "Was this tensor made in torch.inference_mode()?"},
    {"_is_view", THPVariable_is_view, METH_NOARGS, nullptr},
    {"nonzero", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_nonzero)),
     METH_VARARGS | METH_KEYWORDS, "nonzero(*, as_tuple=False): the indices of the nonzero elements."},
    {"as_subclass", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(THPVariable_as_subclass)),
     METH_VARARGS | METH_KEYWORDS, "The same tensor data as an instance of cls."},
};

std::vector<PyMethodDef> all_methods;

// torch._C._set_tensor_class(cls): the class C++ makes tensors as (torch.Tensor).
PyObject* THPModule_setTensorClass(PyObject* module, PyObject* cls) {
  HANDLE_TH_ERRORS
  TORCH_CHECK_TYPE(PyType_Check(cls) && PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls), &THPVariableType),
                   "_set_tensor_class expects a subclass of torch._C.TensorBase");
  Py_INCREF(cls);
  Py_XDECREF(THPVariableClass);
  THPVariableClass = cls;
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

PyMethodDef module_methods[] = {
    {"_set_tensor_class", THPModule_setTensorClass, METH_O, "Register torch.Tensor as the class of new tensors."},
    {"_tensor_to_int", THPVariable_tensor_to_int, METH_O, "int(t) for a one-element tensor."},
    {"_tensor_to_float", THPVariable_tensor_to_float, METH_O, "float(t) for a one-element tensor."},
    {"_legacy_tensor_new", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(THPVariable_legacy_tensor_new)),
     METH_VARARGS | METH_KEYWORDS, "The body of torch.FloatTensor(...) and the other legacy type names."},
    {nullptr, nullptr, 0, nullptr}};

}  // namespace

// t[index] and t[index] = value (python_variable_indexing.cpp).
PyMappingMethods THPVariable_as_mapping = {
    nullptr,  // mp_length: __len__ is torch.Tensor's (torch/_tensor.py)
    torch::autograd::THPVariable_getitem,
    torch::autograd::THPVariable_setitem,
};

PyTypeObject THPVariableType = {PyVarObject_HEAD_INIT(nullptr, 0) "torch._C.TensorBase"};

namespace torch::autograd {

void set_requires_grad(PyObject* obj, bool value) {
  // A factory's requires_grad=True (PyTorch's utils/python_arg_parser.h words).
  const auto& t = THPVariable_Unpack(obj);
  TORCH_CHECK(!value || c10::isFloatingType(t.scalar_type()) || c10::isComplexType(t.scalar_type()),
              "Only Tensors of floating point and complex dtype can require gradients");
  t.set_requires_grad(value);
}

void initTensorBindings(PyObject* module) {
  all_methods = manual_methods;
  for (PyMethodDef* def = generated_variable_methods(); def->ml_name != nullptr; ++def) {
    all_methods.push_back(*def);
  }
  all_methods.push_back({nullptr, nullptr, 0, nullptr});

  THPVariableType.tp_basicsize = sizeof(THPVariable);
  THPVariableType.tp_dealloc = THPVariable_dealloc;
  // BASETYPE: torch.Tensor (torch/_tensor.py) and user classes subclass it.
  THPVariableType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
  THPVariableType.tp_doc = "The C++ half of torch.Tensor: one at::Tensor per object.";
  THPVariableType.tp_methods = all_methods.data();
  THPVariableType.tp_getset = THPVariable_properties;
  THPVariableType.tp_as_mapping = &THPVariable_as_mapping;
  THPVariableType.tp_new = THPVariable_pynew;
  if (PyType_Ready(&THPVariableType) < 0) throw py::error_already_set();
  Py_INCREF(&THPVariableType);
  PyModule_AddObject(module, "TensorBase", reinterpret_cast<PyObject*>(&THPVariableType));
  PyModule_AddFunctions(module, module_methods);
}

}  // namespace torch::autograd
