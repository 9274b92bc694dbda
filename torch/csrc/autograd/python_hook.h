// torch/csrc/autograd/python_hook.h - Python functions as hooks of the backward graph.
// Mirrors PyTorch's torch/csrc/autograd/python_hook.h. Guide: docs/source/internals/autograd.rst.
//
// Each holds an OrderedDict of Python callables (the dict torch.utils.hooks.RemovableHandle
// removes from) and runs them in order, with the GIL.
#pragma once

#include <torch/csrc/autograd/function_hook.h>

#include <Python.h>

#include <pybind11/pybind11.h>

namespace torch::autograd {

// An owned reference to a hooks dict (released with the GIL, whichever thread frees the node).
struct PyHookDict {
  explicit PyHookDict(PyObject* dict);
  ~PyHookDict();
  PyHookDict(const PyHookDict&) = delete;
  PyHookDict& operator=(const PyHookDict&) = delete;
  // The hooks in registration order, copied: a hook may remove itself while running.
  pybind11::list hooks() const;
  PyObject* dict;
};

// tensor.register_hook: fn(grad) -> new grad or None, on input value_idx of the node.
struct PyFunctionTensorPreHook : public FunctionPreHook {
  PyFunctionTensorPreHook(PyObject* dict, size_t value_idx) : dict(dict), value_idx(value_idx) {}
  variable_list operator()(const variable_list& values) override;
  PyHookDict dict;
  size_t value_idx;
};

// grad_fn.register_prehook: fn(grad_outputs) -> new grad_outputs or None.
struct PyFunctionPreHook : public FunctionPreHook {
  explicit PyFunctionPreHook(PyObject* dict) : dict(dict) {}
  variable_list operator()(const variable_list& values) override;
  PyHookDict dict;
};

// grad_fn.register_hook: fn(grad_inputs, grad_outputs) -> new grad_inputs or None.
struct PyFunctionPostHook : public FunctionPostHook {
  explicit PyFunctionPostHook(PyObject* dict) : dict(dict) {}
  variable_list operator()(const variable_list& outputs, const variable_list& inputs) override;
  PyHookDict dict;
};

}  // namespace torch::autograd
