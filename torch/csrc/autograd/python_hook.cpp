// torch/csrc/autograd/python_hook.cpp - calling Python hooks from the engine.
// Mirrors PyTorch's torch/csrc/autograd/python_hook.cpp. Guide: docs/source/internals/autograd.rst.
#include <torch/csrc/autograd/python_hook.h>

#include <torch/csrc/autograd/python_variable.h>

#include <pybind11/pybind11.h>

#include <sstream>

namespace py = pybind11;

namespace torch::autograd {

namespace {

py::object wrap_list(const variable_list& vs) {
  py::tuple t(vs.size());
  for (size_t i = 0; i < vs.size(); ++i) {
    t[i] = py::reinterpret_steal<py::object>(THPVariable_Wrap(vs[i]));
  }
  return std::move(t);
}

// A hook is named by its __name__ (a function's name, '<lambda>'), else '<unknown>'.
std::string hook_name(const py::handle& hook) {
  if (py::hasattr(hook, "__name__")) {
    return py::str(hook.attr("__name__")).cast<std::string>();
  }
  return "<unknown>";
}

// "torch.FloatTensor": the legacy type name PyTorch's messages use.
std::string legacy_type_string(const at::Tensor& t) {
  return std::string(t.is_cuda() ? "torch.cuda." : "torch.") + c10::toString(t.scalar_type()) + "Tensor";
}

// [marker: check_single_result]
// A hook's return value: None keeps the gradient; anything else must be a tensor of the
// gradient's type, device and size (PyTorch's check_variable_result): a gradient of another
// shape would reach the next node, which expects this one.
void check_single_result(const at::Tensor& original, const py::handle& result, const py::handle& hook) {
  if (result.is_none()) {
    return;
  }
  TORCH_CHECK(original.defined(), "can't replace a None gradient with a non-None value");
  if (!THPVariable_Check(result.ptr())) {
    std::stringstream ss;
    ss << "expected Variable, but hook returned '" << Py_TYPE(result.ptr())->tp_name << "'";
    throw py::type_error(ss.str());
  }
  const at::Tensor& value = THPVariable_Unpack(result.ptr());
  TORCH_CHECK(original.scalar_type() == value.scalar_type() && original.device().type() == value.device().type(),
              "hook '", hook_name(hook), "' has changed the type of value (was ", legacy_type_string(original), " got ",
              legacy_type_string(value), ")");
  TORCH_CHECK(original.sizes().equals(value.sizes()), "hook '", hook_name(hook), "' has changed the size of value");
}
// [end marker: check_single_result]

variable_list unwrap_list(const py::handle& result, const variable_list& original, const py::handle& hook) {
  TORCH_CHECK_TYPE(PyTuple_Check(result.ptr()) || PyList_Check(result.ptr()), "hook '", hook_name(hook),
                   "' has returned an incorrect type (expected a tuple of Tensors or None)");
  auto seq = py::reinterpret_borrow<py::sequence>(result);
  TORCH_CHECK(static_cast<size_t>(py::len(seq)) == original.size(), "hook '", hook_name(hook),
              "' has returned an incorrect number of values (got ", py::len(seq), ", but expected ", original.size(),
              ")");
  variable_list out;
  size_t i = 0;
  for (auto item : seq) {
    check_single_result(original[i], item, hook);
    out.push_back(item.is_none() ? at::Tensor() : THPVariable_Unpack(item.ptr()));
    ++i;
  }
  return out;
}

}  // namespace

PyHookDict::PyHookDict(PyObject* dict_) : dict(dict_) {
  Py_INCREF(dict);
}

PyHookDict::~PyHookDict() {
  if (Py_IsInitialized()) {
    py::gil_scoped_acquire gil;
    Py_DECREF(dict);
  }
}

py::list PyHookDict::hooks() const {
  return py::list(py::reinterpret_borrow<py::object>(dict).attr("values")());
}

// [marker: PyFunctionTensorPreHook]
variable_list PyFunctionTensorPreHook::operator()(const variable_list& values) {
  py::gil_scoped_acquire gil;
  variable_list result = values;
  for (auto hook : dict.hooks()) {
    py::object grad = py::reinterpret_steal<py::object>(THPVariable_Wrap(result[value_idx]));
    py::object res = hook(grad);
    check_single_result(result[value_idx], res, hook);
    if (!res.is_none()) {
      result[value_idx] = THPVariable_Unpack(res.ptr());
    }
  }
  return result;
}
// [end marker: PyFunctionTensorPreHook]


variable_list PyFunctionPreHook::operator()(const variable_list& values) {
  py::gil_scoped_acquire gil;
  variable_list result = values;
  for (auto hook : dict.hooks()) {
    py::object res = hook(wrap_list(result));
    if (!res.is_none()) {
      result = unwrap_list(res, result, hook);
    }
  }
  return result;
}


variable_list PyFunctionPostHook::operator()(const variable_list& outputs, const variable_list& inputs) {
  py::gil_scoped_acquire gil;
  variable_list result = outputs;
  py::object py_inputs = wrap_list(inputs);
  for (auto hook : dict.hooks()) {
    py::object res = hook(wrap_list(result), py_inputs);
    if (!res.is_none()) {
      result = unwrap_list(res, result, hook);
    }
  }
  return result;
}

}  // namespace torch::autograd
