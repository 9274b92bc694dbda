// torch/csrc/autograd/python_function.h - torch.autograd.Function: backward written in Python.
// Mirrors PyTorch's torch/csrc/autograd/python_function.h. Guide: docs/source/internals/autograd.rst.
//
// MyFn.apply(x) makes a ctx object (THPFunction, an instance of MyFnBackward), runs
// MyFn.forward(ctx, x) with grad mode off, and gives the outputs a PyNode as grad_fn. The
// engine later calls PyNode::apply, which calls MyFn.backward(ctx, *grads) with the GIL.
#pragma once

#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/saved_variable.h>

#include <Python.h>

#include <memory>
#include <vector>

namespace torch::autograd {

struct PyNode : public Node {
  explicit PyNode(PyObject* obj);
  ~PyNode() override;
  variable_list apply(variable_list&& inputs) override;
  void release_variables() override;
  std::string name() const override;

  // The ctx object (owned: the node keeps its Python half alive).
  PyObject* obj;
};

}  // namespace torch::autograd

struct THPFunction {
  PyObject_HEAD
  PyObject* needs_input_grad;   // ctx.needs_input_grad: a tuple of bools, one per forward input
  PyObject* to_save;            // set by ctx.save_for_backward(...), consumed by apply
  PyObject* non_differentiable; // set by ctx.mark_non_differentiable(...)
  PyObject* dirty_tensors;      // set by ctx.mark_dirty(...)
  bool materialize_grads;       // undefined gradients become zeros before backward
  bool has_freed_buffers;
  std::vector<torch::autograd::SavedVariable> saved_variables;
  std::vector<bool> is_variable_input;  // which forward inputs were tensors
  std::weak_ptr<torch::autograd::PyNode> cdata;
};

extern PyTypeObject THPFunctionType;
bool THPFunction_initModule(PyObject* module);
