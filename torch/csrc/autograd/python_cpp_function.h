// torch/csrc/autograd/python_cpp_function.h - grad_fn objects: Python views of C++ nodes.
// Mirrors PyTorch's torch/csrc/autograd/python_cpp_function.h. Guide: docs/source/internals/autograd.rst.
//
// t.grad_fn is a THPCppFunction: a PyObject holding a shared_ptr to the node. Its class is
// the node's own (MulBackward0, generated in python_functions.cpp), registered by C++ type,
// so functionToPyObject can find it. Like tensors, a node has at most one Python object,
// kept in the node's pyobj slot.
#pragma once

#include <torch/csrc/autograd/function.h>

#include <Python.h>

#include <memory>
#include <typeinfo>

namespace torch::autograd {

struct THPCppFunction {
  PyObject_HEAD
  std::shared_ptr<Node> cdata;
};

PyObject* THPCppFunction_next_functions(PyObject* self, void* _unused);
PyObject* THPCppFunction_metadata(PyObject* self, void* _unused);
// A node's metadata dict (new reference).
PyObject* THPCppFunction_metadata_of(Node* node);
PyObject* THPCppFunction_requires_grad(PyObject* self, void* _unused);

// The properties every node class has; generated classes add their _saved_* after these.
#define THP_FUNCTION_DEFAULT_PROPERTIES                                                          \
  {(char*)"next_functions", (getter)torch::autograd::THPCppFunction_next_functions, nullptr, nullptr, nullptr}, \
  {(char*)"requires_grad", (getter)torch::autograd::THPCppFunction_requires_grad, nullptr, nullptr, nullptr},   \
  {(char*)"metadata", (getter)torch::autograd::THPCppFunction_metadata, nullptr, nullptr, nullptr}

PyTypeObject* _initFunctionPyTypeObject(PyTypeObject& type, const char* name, PyGetSetDef* function_properties,
                                        PyMethodDef* function_methods);
void registerCppFunction(const std::type_info& type, PyTypeObject* pytype);

// What grad_fn.next_functions returns: ((node, input_nr), ...). Shared by C++ nodes and
// custom Functions' ctx objects.
PyObject* next_functions_of(const Node& node);
// grad_fn.register_hook / register_prehook: a RemovableHandle over a new hooks dict.
PyObject* register_function_hook(Node& node, PyObject* hook, bool pre);

// The Python object of a node (new reference); None for nullptr.
PyObject* functionToPyObject(const std::shared_ptr<Node>& cdata);

// torch._C._functions: AccumulateGrad, GraphRoot ... and the generated node classes.
void initAutogradFunctionBindings(PyObject* module);

}  // namespace torch::autograd
