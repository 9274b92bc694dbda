// torch/csrc/jit/python/pybind_utils.h - Python values to IValues by an operator's schema, and
// back: what a boxed call from Python (torch.ops.myops.lltm(x, ...)) needs.
// Mirrors PyTorch's torch/csrc/jit/python/pybind_utils.h (toIValue, toPyObject,
// createStackForSchema, invokeOperatorFromPython). Guide: docs/source/internals/cpp_extensions.rst.
#pragma once

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <torch/csrc/Export.h>

#include <pybind11/pybind11.h>

namespace torch::jit {

// One Python value as the IValue an argument of this schema type holds ("Tensor", "int[]",
// "float?", ...); a TypeError names the argument when it does not fit.
TORCH_PYTHON_API c10::IValue toIValue(pybind11::handle obj, const c10::Argument& arg, const std::string& op_name);
// An IValue as the Python object it stands for (tensors keep their one Python object).
TORCH_PYTHON_API pybind11::object toPyObject(c10::IValue v);
// Positional and keyword arguments, in schema order, with the schema's defaults filled in.
TORCH_PYTHON_API Stack createStackForSchema(const c10::FunctionSchema& schema, const pybind11::args& args,
                                            const pybind11::kwargs& kwargs);
// The returns left on the stack by a boxed call: None, one value, or a tuple of them.
TORCH_PYTHON_API pybind11::object createPyObjectForStack(Stack&& stack);
// The whole of torch.ops.ns.op.overload(*args, **kwargs).
TORCH_PYTHON_API pybind11::object invokeOperatorFromPython(const c10::OperatorHandle& op, const pybind11::args& args,
                                                           const pybind11::kwargs& kwargs);

}  // namespace torch::jit
