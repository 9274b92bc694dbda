// torch/csrc/autograd/python_variable.h - THPVariable, the Python object of an at::Tensor.
// Mirrors PyTorch's torch/csrc/autograd/python_variable.h. Guide: docs/source/internals/python_bindings.rst.
//
// torch._C.TensorBase is a type written with the CPython API (not a pybind11 class): its
// instances are THPVariable structs, a PyObject header followed by the at::Tensor they hold.
// torch.Tensor (torch/_tensor.py) subclasses it and registers itself with
// torch._C._set_tensor_class, so tensors made in C++ come back to Python as torch.Tensor.
//
// One Python object per TensorImpl: THPVariable_Wrap stores the new object in the
// TensorImpl's pyobj slot (c10/core/TensorImpl.h) and returns that same object every later
// time the tensor comes back from C++, so `t.fill_(1) is t` and attributes set on t survive.
// The slot does not own the object; THPVariable's tp_dealloc clears it.
#pragma once

#include <ATen/core/Tensor.h>
#include <torch/csrc/Export.h>

#include <Python.h>

// [marker: THPVariable]
struct THPVariable {
  PyObject_HEAD
  // The tensor this Python object stands for (one reference to its TensorImpl).
  at::Tensor cdata;
};
// [end marker: THPVariable]

// torch._C.TensorBase, and the class C++ creates tensors as (torch.Tensor once registered).
extern TORCH_PYTHON_API PyTypeObject THPVariableType;
extern TORCH_PYTHON_API PyObject* THPVariableClass;

// isinstance(obj, torch._C.TensorBase).
inline bool THPVariable_Check(PyObject* obj) {
  return PyObject_TypeCheck(obj, &THPVariableType);
}
// type(obj) is torch.Tensor (or TensorBase): no subclass that could override __torch_function__.
inline bool THPVariable_CheckExact(PyObject* obj) {
  PyTypeObject* tp = Py_TYPE(obj);
  return tp == &THPVariableType || reinterpret_cast<PyObject*>(tp) == THPVariableClass;
}

// The Python object of a tensor: the one in its pyobj slot, or a new one (new reference).
// An undefined tensor becomes None.
TORCH_PYTHON_API PyObject* THPVariable_Wrap(const at::TensorBase& var);
// A new Python object of class `type` (a subclass of TensorBase) for var, which must not
// have one yet.
PyObject* THPVariable_NewWithVar(PyTypeObject* type, const at::TensorBase& var);

inline const at::Tensor& THPVariable_Unpack(THPVariable* var) {
  return var->cdata;
}
inline const at::Tensor& THPVariable_Unpack(PyObject* obj) {
  return THPVariable_Unpack(reinterpret_cast<THPVariable*>(obj));
}

namespace torch::autograd {
// Adds torch._C.TensorBase and torch._C._set_tensor_class to the module.
void initTensorBindings(PyObject* module);
// The methods of torch._C.TensorBase generated from native_functions.yaml
// (build/torch/csrc/autograd/generated/python_variable_methods.cpp), ending with a null entry.
PyMethodDef* generated_variable_methods();
// Tensor.requires_grad (what factories' requires_grad=True sets).
void set_requires_grad(PyObject* obj, bool value);
}  // namespace torch::autograd
