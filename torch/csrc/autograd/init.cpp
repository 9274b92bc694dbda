// torch/csrc/autograd/init.cpp - grad mode, inference mode and autograd's node classes in torch._C.
// Mirrors PyTorch's torch/csrc/autograd/init.cpp. Guide: docs/source/internals/autograd.rst.
//
//   torch._C._set_grad_enabled / is_grad_enabled   (torch.no_grad, torch.enable_grad ...)
//   torch._C._InferenceMode                         (torch.inference_mode)
//   torch._C._set_autocast_enabled ...              (torch.autocast: torch/amp/autocast_mode.py)
//   torch._C._ImperativeEngine                      (torch/autograd/__init__.py)
//   torch._C._FunctionBase                          (torch.autograd.Function's C half)
//   torch._C._functions.AccumulateGrad, MulBackward0 ... (the grad_fn classes)
//   torch._C._autograd._register_hook_dict          (Tensor.register_hook on a leaf)
//   torch._C._autograd._enable_profiler_legacy ...  (torch.autograd.profiler: profiler_legacy.cpp)
#include <ATen/autocast_mode.h>
#include <ATen/core/ivalue.h>
#include <ATen/record_function.h>
#include <c10/core/GradMode.h>
#include <c10/core/InferenceMode.h>
#include <torch/csrc/Dtype.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_cpp_function.h>
#include <torch/csrc/autograd/python_function.h>
#include <torch/csrc/autograd/python_hook.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/autograd/profiler_legacy.h>
#include <torch/csrc/autograd/variable.h>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>

namespace py = pybind11;

namespace torch::autograd {

void initEngineBindings(py::module_& m);

void initAutogradBindings(py::module_& m) {
  m.def("_set_grad_enabled", [](bool enabled) { c10::GradMode::set_enabled(enabled); });
  m.def("is_grad_enabled", []() { return c10::GradMode::is_enabled(); });
  m.def("is_inference_mode_enabled", []() { return c10::InferenceMode::is_enabled(); });
  // The autocast state of this thread (aten/src/ATen/autocast_mode.cpp), per device type:
  // torch/amp/autocast_mode.py checks the arguments, then sets or reads it here.
  m.def("_is_autocast_enabled", [](const std::string& device_type) {
    return at::autocast::is_autocast_enabled(c10::Device(device_type).type());
  });
  m.def("_set_autocast_enabled", [](const std::string& device_type, bool enabled) {
    at::autocast::set_autocast_enabled(c10::Device(device_type).type(), enabled);
  });
  m.def("_get_autocast_dtype", [](const std::string& device_type) {
    return torch::getTHPDtype(at::autocast::get_autocast_dtype(c10::Device(device_type).type()));
  });
  m.def("_set_autocast_dtype", [](const std::string& device_type, py::handle dtype) {
    at::autocast::set_autocast_dtype(c10::Device(device_type).type(),
                                     torch::toScalarType(dtype, "set_autocast_dtype", "dtype", 2));
  });
  // A context manager object: the guard lives as long as the Python object.
  py::class_<c10::InferenceMode>(m, "_InferenceMode").def(py::init<bool>());
  initEngineBindings(m);
  TORCH_CHECK(THPFunction_initModule(m.ptr()), "could not initialize torch._C._FunctionBase");

  auto functions = m.def_submodule("_functions", "The classes of autograd's nodes (grad_fn objects).");
  initAutogradFunctionBindings(functions.ptr());

  auto autograd = m.def_submodule("_autograd", "Autograd helpers used by torch/autograd and torch/_tensor.py.");
  // tensor.register_hook on a leaf: the hooks dict goes on the tensor (AccumulateGrad reads it).
  autograd.def("_register_hook_dict", [](py::handle var, py::handle dict) {
    const auto& t = THPVariable_Unpack(var.ptr());
    impl::add_hook(t, std::make_unique<PyFunctionTensorPreHook>(dict.ptr(), 0));
  });
  // t._version, and torch.autograd.graph helpers.
  autograd.def("_current_graph_task_id", []() { return -1; });

  // [marker: profiler bindings]
  // The CPU profiler (torch/autograd/profiler.py). Each event comes back as a tuple
  // (name, start_ns, end_ns, thread, sequence_nr, scope, input_shapes or None, fwd_thread),
  // times counted from the enable call.
  autograd.def("_enable_profiler_legacy", [](bool record_shapes) {
    profiler::ProfilerConfig config;
    config.report_input_shapes = record_shapes;
    profiler::enableProfilerLegacy(config);
  }, py::arg("record_shapes") = false);
  autograd.def("_disable_profiler_legacy", []() {
    const auto events = profiler::disableProfilerLegacy();
    py::list out;
    for (const auto& e : events) {
      py::object shapes = py::none();
      if (e.has_shapes) shapes = py::cast(e.shapes);
      out.append(py::make_tuple(e.name, e.start_ns, e.end_ns, e.thread_id, e.sequence_nr,
                                static_cast<int>(e.scope), shapes, e.fwd_thread_id));
    }
    return out;
  });
  autograd.def("_profiler_enabled", []() { return profiler::profilerEnabled(); });
  // A user scope (torch.profiler.record_function). PyTorch reaches it through the operator
  // torch.ops.profiler._record_function_enter_new; a binding here does the same job without
  // making the scope an operator. The handle owns the RecordFunction: exit ends it, and so
  // does the handle's destruction if exit never comes.
  py::class_<at::RecordFunction>(autograd, "_RecordFunction");
  autograd.def("_record_function_enter", [](const std::string& name, std::optional<std::string> args) {
    auto rec = std::make_unique<at::RecordFunction>(at::RecordScope::USER_SCOPE);
    if (rec->isActive()) {
      if (args.has_value() && rec->needsInputs()) {
        std::vector<c10::IValue> inputs{c10::IValue(*args)};
        rec->before(name, c10::ArrayRef<const c10::IValue>(inputs.data(), inputs.size()));
      } else {
        rec->before(name);
      }
    }
    return rec;
  }, py::arg("name"), py::arg("args") = py::none());
  autograd.def("_record_function_exit", [](at::RecordFunction& rec) { rec.end(); });
  // [end marker: profiler bindings]
}

}  // namespace torch::autograd
