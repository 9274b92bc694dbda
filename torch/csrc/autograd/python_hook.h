// torch/csrc/autograd/python_hook.h - Python functions as hooks of the backward graph.
// Mirrors PyTorch's torch/csrc/autograd/python_hook.h. Guide: docs/source/internals/autograd.rst.
//
// Each holds an OrderedDict of Python callables (the dict torch.utils.hooks.RemovableHandle
// removes from) and runs them in order, with the GIL.
#pragma once

#include <torch/csrc/autograd/function_hook.h>

#include <Python.h>

namespace torch::autograd {

// tensor.register_hook: fn(grad) -> new grad or None, on input value_idx of the node.
struct PyFunctionTensorPreHook : public FunctionPreHook {
  PyFunctionTensorPreHook(PyObject* dict, size_t value_idx);
  ~PyFunctionTensorPreHook() override;
  variable_list operator()(const variable_list& values) override;
  PyObject* dict;
  size_t value_idx;
};

// grad_fn.register_prehook: fn(grad_outputs) -> new grad_outputs or None.
struct PyFunctionPreHook : public FunctionPreHook {
  explicit PyFunctionPreHook(PyObject* dict);
  ~PyFunctionPreHook() override;
  variable_list operator()(const variable_list& values) override;
  PyObject* dict;
};

// grad_fn.register_hook: fn(grad_inputs, grad_outputs) -> new grad_inputs or None.
struct PyFunctionPostHook : public FunctionPostHook {
  explicit PyFunctionPostHook(PyObject* dict);
  ~PyFunctionPostHook() override;
  variable_list operator()(const variable_list& outputs, const variable_list& inputs) override;
  PyObject* dict;
};

}  // namespace torch::autograd
