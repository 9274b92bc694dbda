// torch/csrc/autograd/python_engine.cpp - torch._C._ImperativeEngine: backward() and grad() from Python.
// Mirrors PyTorch's torch/csrc/autograd/python_engine.cpp. Guide: docs/source/internals/autograd.rst.
//
// torch.autograd.backward / grad (torch/autograd/__init__.py) check their arguments in
// Python, then call run_backward here, which turns tensors into root edges and runs the
// C++ engine. A Python exception raised inside a node (a custom Function's backward, a
// hook) travels through the engine as a C++ exception and comes out here as itself.
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/engine.h>
#include <torch/csrc/autograd/python_variable.h>

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace torch::autograd {

namespace {

variable_list unpack_sequence(const py::handle& seq, bool allow_none) {
  variable_list out;
  for (auto item : py::reinterpret_borrow<py::sequence>(seq)) {
    if (item.is_none()) {
      TORCH_CHECK(allow_none, "expected a Tensor, got None");
      out.emplace_back();
    } else {
      TORCH_CHECK_TYPE(THPVariable_Check(item.ptr()), "expected a Tensor, got ", Py_TYPE(item.ptr())->tp_name);
      out.push_back(THPVariable_Unpack(item.ptr()));
    }
  }
  return out;
}

py::object run_backward(py::handle tensors, py::handle grad_tensors, bool keep_graph, bool create_graph,
                        py::handle inputs, bool allow_unreachable, bool accumulate_grad) {
  variable_list outputs = unpack_sequence(tensors, false);
  variable_list grads = unpack_sequence(grad_tensors, true);
  variable_list input_vars = inputs.is_none() ? variable_list() : unpack_sequence(inputs, false);
  variable_list result;
  {
    torch::PyWarningHandler warnings;
    // Without the GIL: nodes of CUDA tensors run on the devices' worker threads, and a
    // Python node or hook there takes the GIL itself (PyNode::apply).
    pybind11::gil_scoped_release no_gil;
    result = torch::autograd::run_backward(outputs, grads, keep_graph, create_graph, input_vars, allow_unreachable,
                                           accumulate_grad);
  }
  if (input_vars.empty() || accumulate_grad) {
    return py::none();
  }
  py::tuple t(result.size());
  for (size_t i = 0; i < result.size(); ++i) {
    t[i] = py::reinterpret_steal<py::object>(THPVariable_Wrap(result[i]));
  }
  return std::move(t);
}

}  // namespace

void initEngineBindings(py::module_& m) {
  py::class_<Engine, std::unique_ptr<Engine, py::nodelete>>(m, "_ImperativeEngine")
      .def(py::init([]() { return &Engine::get_default_engine(); }))
      .def("run_backward",
           [](Engine&, py::handle tensors, py::handle grad_tensors, bool keep_graph, bool create_graph,
              py::handle inputs, bool allow_unreachable, bool accumulate_grad) {
             return run_backward(tensors, grad_tensors, keep_graph, create_graph, inputs, allow_unreachable,
                                 accumulate_grad);
           },
           py::arg("tensors"), py::arg("grad_tensors"), py::arg("keep_graph"), py::arg("create_graph"),
           py::arg("inputs"), py::arg("allow_unreachable"), py::arg("accumulate_grad"));
}

}  // namespace torch::autograd
