// torch/csrc/autograd/python_function.cpp - Function.apply (forward) and PyNode::apply (backward).
// Mirrors PyTorch's torch/csrc/autograd/python_function.cpp. Guide: docs/source/internals/autograd.rst.
#include <torch/csrc/autograd/python_function.h>

#include <c10/core/GradMode.h>
#include <ATen/Functions.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/VariableTypeUtils.h>
#include <torch/csrc/autograd/python_cpp_function.h>
#include <torch/csrc/autograd/python_hook.h>
#include <torch/csrc/autograd/python_variable.h>

#include <pybind11/pybind11.h>
#include <structmember.h>

#include <sstream>
#include <unordered_set>

namespace py = pybind11;
using namespace torch::autograd;

PyTypeObject THPFunctionType = {PyVarObject_HEAD_INIT(nullptr, 0) "torch._C._FunctionBase"};

namespace torch::autograd {

PyNode::PyNode(PyObject* obj_) : obj(obj_) {
  Py_INCREF(obj);
}

PyNode::~PyNode() {
  if (Py_IsInitialized()) {
    py::gil_scoped_acquire gil;
    Py_DECREF(obj);
  }
}

std::string PyNode::name() const {
  py::gil_scoped_acquire gil;
  return Py_TYPE(obj)->tp_name;
}

// [marker: PyNode::apply]
variable_list PyNode::apply(variable_list&& inputs) {
  py::gil_scoped_acquire gil;
  auto* py_fn = reinterpret_cast<THPFunction*>(obj);
  // The gradients as Python objects: None for missing ones, or zeros of the output's shape
  // (ctx.set_materialize_grads(False) turns that off).
  py::tuple py_inputs(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    at::Tensor g = inputs[i];
    if (!g.defined() && py_fn->materialize_grads && input_metadata(i).is_defined()) {
      const auto& meta = input_metadata(i);
      g = at::zeros(meta.shape(), meta.dtype(), std::nullopt, meta.device());
    }
    py_inputs[i] = py::reinterpret_steal<py::object>(THPVariable_Wrap(g));
  }
  // ctx.apply(*grads) -> MyFn.backward(ctx, *grads) (torch/autograd/function.py).
  py::object r = py::reinterpret_borrow<py::object>(obj).attr("apply")(*py_inputs);
  if (!PyTuple_Check(r.ptr())) {
    r = py::make_tuple(r);
  }
  auto results = py::reinterpret_borrow<py::tuple>(r);
  const size_t num_forward_inputs = py_fn->is_variable_input.size();
  size_t num_outputs = results.size();
  // Extra trailing Nones are allowed (PyTorch's rule).
  if (num_outputs > num_forward_inputs) {
    bool all_none = true;
    for (size_t i = num_forward_inputs; i < num_outputs; ++i) {
      all_none &= results[i].is_none();
    }
    if (all_none) {
      num_outputs = num_forward_inputs;
    }
  }
  if (num_outputs != num_forward_inputs) {
    std::stringstream ss;
    ss << "function " << name() << " returned an incorrect number of gradients (expected " << num_forward_inputs
       << ", got " << num_outputs << ")";
    TORCH_CHECK(false, ss.str());
  }
  variable_list grads;
  for (size_t i = 0; i < num_outputs; ++i) {
    py::handle output = results[i];
    if (!py_fn->is_variable_input[i]) {
      TORCH_CHECK(output.is_none(), "function ", name(), " returned a gradient different than None at position ",
                  i + 1, ", but the corresponding forward input was not a Variable");
      continue;
    }
    if (output.is_none()) {
      grads.emplace_back();
    } else {
      TORCH_CHECK_TYPE(THPVariable_Check(output.ptr()), "expected Variable or None (got ",
                       Py_TYPE(output.ptr())->tp_name, ")");
      grads.push_back(THPVariable_Unpack(output.ptr()));
    }
  }
  return grads;
}
// [end marker: PyNode::apply]

void PyNode::release_variables() {
  py::gil_scoped_acquire gil;
  auto* f = reinterpret_cast<THPFunction*>(obj);
  f->saved_variables.clear();
  f->has_freed_buffers = true;
}

}  // namespace torch::autograd

namespace {

PyObject* THPFunction_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject* obj = type->tp_alloc(type, 0);
  if (!obj) return nullptr;
  auto* self = reinterpret_cast<THPFunction*>(obj);
  new (&self->saved_variables) std::vector<SavedVariable>();
  new (&self->is_variable_input) std::vector<bool>();
  new (&self->cdata) std::weak_ptr<PyNode>();
  self->materialize_grads = true;
  self->has_freed_buffers = false;
  return obj;
}

int THPFunction_traverse(THPFunction* self, visitproc visit, void* arg) {
  Py_VISIT(self->needs_input_grad);
  Py_VISIT(self->to_save);
  Py_VISIT(self->non_differentiable);
  Py_VISIT(self->dirty_tensors);
  return 0;
}

int THPFunction_clear(THPFunction* self) {
  Py_CLEAR(self->needs_input_grad);
  Py_CLEAR(self->to_save);
  Py_CLEAR(self->non_differentiable);
  Py_CLEAR(self->dirty_tensors);
  return 0;
}

void THPFunction_dealloc(THPFunction* self) {
  PyObject_GC_UnTrack(self);
  THPFunction_clear(self);
  self->saved_variables.~vector();
  self->is_variable_input.~vector();
  self->cdata.~weak_ptr();
  Py_TYPE(self)->tp_free(reinterpret_cast<PyObject*>(self));
}

std::unordered_set<PyObject*> tuple_members(PyObject* tuple) {
  std::unordered_set<PyObject*> set;
  if (tuple && PyTuple_Check(tuple)) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); ++i) {
      set.insert(PyTuple_GET_ITEM(tuple, i));
    }
  }
  return set;
}

// [marker: THPFunction_apply]
PyObject* THPFunction_apply(PyObject* cls, PyObject* inputs) {
  HANDLE_TH_ERRORS
  py::object backward_cls = py::reinterpret_borrow<py::object>(cls).attr("_backward_cls");
  py::object ctx_obj = backward_cls();
  auto* ctx = reinterpret_cast<THPFunction*>(ctx_obj.ptr());
  auto cdata = std::shared_ptr<PyNode>(new PyNode(ctx_obj.ptr()), deleteNode);
  ctx->cdata = cdata;

  // Which inputs are tensors, which need a gradient.
  const Py_ssize_t num_args = PyTuple_GET_SIZE(inputs);
  variable_list input_vars;
  py::tuple needs_input_grad(num_args);
  bool is_executable = false;
  for (Py_ssize_t i = 0; i < num_args; ++i) {
    PyObject* arg = PyTuple_GET_ITEM(inputs, i);
    const bool is_var = THPVariable_Check(arg);
    ctx->is_variable_input.push_back(is_var);
    bool needs = false;
    if (is_var) {
      const auto& t = THPVariable_Unpack(arg);
      input_vars.push_back(t);
      needs = c10::GradMode::is_enabled() && t.requires_grad();
    }
    is_executable |= needs;
    needs_input_grad[i] = py::bool_(needs);
  }
  ctx->needs_input_grad = needs_input_grad.release().ptr();
  if (is_executable) {
    cdata->set_next_edges(collect_next_edges(at::ArrayRef<at::Tensor>(input_vars)));
  }

  // forward(ctx, *inputs) runs with grad mode off: its operations are not recorded. A Function
  // that defines setup_context (the PyTorch 2.x style) has forward(*inputs) without ctx, then
  // setup_context(ctx, inputs, output) saves and marks, still with grad mode off.
  py::handle py_cls(cls);
  py::object forward = py_cls.attr("forward");
  py::object base_setup_context =
      py::module_::import("torch.autograd.function").attr("_SingleLevelFunction").attr("setup_context");
  py::object setup_context = py_cls.attr("setup_context");
  const bool is_setup_ctx_defined = !setup_context.is(base_setup_context);
  py::object raw_output;
  {
    c10::AutoGradMode no_grad(false);
    if (is_setup_ctx_defined) {
      py::tuple input_tuple = py::reinterpret_borrow<py::tuple>(inputs);
      raw_output = forward(*input_tuple);
      setup_context(ctx_obj, input_tuple, raw_output);
    } else {
      py::tuple args(num_args + 1);
      args[0] = ctx_obj;
      for (Py_ssize_t i = 0; i < num_args; ++i) {
        args[i + 1] = py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(inputs, i));
      }
      raw_output = forward(*args);
    }
  }
  const bool unpack_output = !PyTuple_Check(raw_output.ptr());
  py::tuple outputs = unpack_output ? py::make_tuple(raw_output) : py::reinterpret_borrow<py::tuple>(raw_output);

  // Give each output its history (outputs.size() inputs of the node, one per output).
  auto non_differentiable = tuple_members(ctx->non_differentiable);
  auto dirty = tuple_members(ctx->dirty_tensors);
  std::unordered_set<PyObject*> input_objs;
  for (Py_ssize_t i = 0; i < num_args; ++i) input_objs.insert(PyTuple_GET_ITEM(inputs, i));
  py::list wrapped;
  for (size_t i = 0; i < outputs.size(); ++i) {
    py::object out = outputs[i];
    if (!THPVariable_Check(out.ptr())) {
      if (is_executable) cdata->add_input_metadata_undefined();
      wrapped.append(out);
      continue;
    }
    at::Tensor var = THPVariable_Unpack(out.ptr());
    const bool is_modified = dirty.count(out.ptr()) > 0;
    const bool is_differentiable = is_executable && non_differentiable.count(out.ptr()) == 0 &&
                                   torch::autograd::isDifferentiableType(var.scalar_type());
    if (is_modified) {
      // ctx.mark_dirty(x): x was written in place by forward.
      check_inplace(var, is_executable);
      impl::bump_version(var);
    }
    if (!is_executable) {
      wrapped.append(out);
      continue;
    }
    if (!is_differentiable) {
      cdata->add_input_metadata_undefined();
      if (!is_modified && input_objs.count(out.ptr())) {
        var = at::Tensor(var.tensor_data());  // an input returned as is, marked non-differentiable
      }
      wrapped.append(py::reinterpret_steal<py::object>(THPVariable_Wrap(var)));
      continue;
    }
    if (is_modified) {
      auto output_nr = cdata->add_input_metadata(var);
      impl::rebase_history(var, Edge(cdata, output_nr));
    } else {
      if (input_objs.count(out.ptr())) {
        // An input returned unchanged: a new tensor (a view) gets the history, not the input.
        var = var.view_as(var);
      }
      auto output_nr = cdata->add_input_metadata(var);
      impl::set_gradient_edge(var, Edge(cdata, output_nr));
    }
    wrapped.append(py::reinterpret_steal<py::object>(THPVariable_Wrap(var)));
  }

  // ctx.save_for_backward(...): saved as SavedVariables, outputs without their grad_fn.
  if (is_executable && ctx->to_save && ctx->to_save != Py_None) {
    std::unordered_set<PyObject*> output_objs;
    for (auto o : wrapped) output_objs.insert(o.ptr());
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(ctx->to_save); ++i) {
      PyObject* obj = PyTuple_GET_ITEM(ctx->to_save, i);
      if (obj == Py_None) {
        ctx->saved_variables.emplace_back();
        continue;
      }
      TORCH_CHECK_TYPE(THPVariable_Check(obj), "save_for_backward can only save variables, but argument ", i,
                       " is of type ", Py_TYPE(obj)->tp_name);
      const bool is_output = output_objs.count(obj) > 0;
      ctx->saved_variables.emplace_back(THPVariable_Unpack(obj), is_output);
    }
  } else if (ctx->to_save && ctx->to_save != Py_None) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(ctx->to_save); ++i) {
      PyObject* obj = PyTuple_GET_ITEM(ctx->to_save, i);
      TORCH_CHECK_TYPE(obj == Py_None || THPVariable_Check(obj), "save_for_backward can only save variables, but argument ",
                       i, " is of type ", Py_TYPE(obj)->tp_name);
    }
  }
  Py_CLEAR(ctx->to_save);
  Py_CLEAR(ctx->non_differentiable);
  Py_CLEAR(ctx->dirty_tensors);

  if (unpack_output) {
    return py::object(wrapped[0]).release().ptr();
  }
  return py::tuple(wrapped).release().ptr();
  END_HANDLE_TH_ERRORS
}
// [end marker: THPFunction_apply]

PyObject* THPFunction_saved_tensors(THPFunction* self, void*) {
  HANDLE_TH_ERRORS
  TORCH_CHECK(!self->has_freed_buffers, torch::autograd::ERR_BACKWARD_TWICE);
  auto node = self->cdata.lock();
  py::tuple result(self->saved_variables.size());
  for (size_t i = 0; i < self->saved_variables.size(); ++i) {
    result[i] = py::reinterpret_steal<py::object>(THPVariable_Wrap(self->saved_variables[i].unpack(node)));
  }
  return result.release().ptr();
  END_HANDLE_TH_ERRORS
}

PyObject* THPFunction_next_functions(THPFunction* self, void*) {
  HANDLE_TH_ERRORS
  auto node = self->cdata.lock();
  if (!node) Py_RETURN_NONE;
  return next_functions_of(*node);
  END_HANDLE_TH_ERRORS
}

PyObject* THPFunction_get_materialize_grads(THPFunction* self, void*) {
  return PyBool_FromLong(self->materialize_grads);
}
int THPFunction_set_materialize_grads(THPFunction* self, PyObject* value, void*) {
  self->materialize_grads = PyObject_IsTrue(value);
  return 0;
}

PyObject* THPFunction_name(PyObject* self, PyObject*) {
  return PyUnicode_FromString(Py_TYPE(self)->tp_name);
}

PyObject* THPFunction_register_hook_impl(THPFunction* self, PyObject* hook, bool pre) {
  HANDLE_TH_ERRORS
  auto node = self->cdata.lock();
  TORCH_CHECK(node, "Attempted to register a hook on a Function that has no node (not part of a graph)");
  return register_function_hook(*node, hook, pre);
  END_HANDLE_TH_ERRORS
}
PyObject* THPFunction_register_hook(THPFunction* self, PyObject* hook) {
  return THPFunction_register_hook_impl(self, hook, /*pre=*/false);
}
PyObject* THPFunction_register_prehook(THPFunction* self, PyObject* hook) {
  return THPFunction_register_hook_impl(self, hook, /*pre=*/true);
}

PyObject* THPFunction_register_hook_dict(THPFunction* self, PyObject* var) {
  HANDLE_TH_ERRORS
  auto node = self->cdata.lock();
  const auto& tensor = THPVariable_Unpack(var);
  py::object dict = py::reinterpret_borrow<py::object>(var).attr("_backward_hooks");
  node->add_tensor_pre_hook(std::make_unique<PyFunctionTensorPreHook>(dict.ptr(), tensor.output_nr()));
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}

PyObject* THPFunction_metadata(THPFunction* self, void*) {
  auto node = self->cdata.lock();
  if (!node) return PyDict_New();
  return torch::autograd::THPCppFunction_metadata_of(node.get());
}

PyMemberDef THPFunction_members[] = {
    {"needs_input_grad", T_OBJECT, offsetof(THPFunction, needs_input_grad), READONLY, nullptr},
    {"to_save", T_OBJECT, offsetof(THPFunction, to_save), 0, nullptr},
    {"non_differentiable", T_OBJECT, offsetof(THPFunction, non_differentiable), 0, nullptr},
    {"dirty_tensors", T_OBJECT, offsetof(THPFunction, dirty_tensors), 0, nullptr},
    {nullptr}};

PyGetSetDef THPFunction_properties[] = {
    {"saved_tensors", (getter)THPFunction_saved_tensors, nullptr, nullptr, nullptr},
    {"next_functions", (getter)THPFunction_next_functions, nullptr, nullptr, nullptr},
    {"metadata", (getter)THPFunction_metadata, nullptr, nullptr, nullptr},
    {"materialize_grads", (getter)THPFunction_get_materialize_grads, (setter)THPFunction_set_materialize_grads,
     nullptr, nullptr},
    {nullptr}};

PyMethodDef THPFunction_methods[] = {
    {"apply", THPFunction_apply, METH_CLASS | METH_VARARGS, "Run forward and record the node."},
    {"name", THPFunction_name, METH_NOARGS, nullptr},
    {"register_hook", (PyCFunction)THPFunction_register_hook, METH_O, nullptr},
    {"register_prehook", (PyCFunction)THPFunction_register_prehook, METH_O, nullptr},
    {"_register_hook_dict", (PyCFunction)THPFunction_register_hook_dict, METH_O, nullptr},
    {nullptr}};

}  // namespace

bool THPFunction_initModule(PyObject* module) {
  THPFunctionType.tp_basicsize = sizeof(THPFunction);
  THPFunctionType.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC;
  THPFunctionType.tp_new = THPFunction_new;
  THPFunctionType.tp_dealloc = (destructor)THPFunction_dealloc;
  THPFunctionType.tp_traverse = (traverseproc)THPFunction_traverse;
  THPFunctionType.tp_clear = (inquiry)THPFunction_clear;
  THPFunctionType.tp_members = THPFunction_members;
  THPFunctionType.tp_getset = THPFunction_properties;
  THPFunctionType.tp_methods = THPFunction_methods;
  if (PyType_Ready(&THPFunctionType) < 0) return false;
  Py_INCREF(&THPFunctionType);
  PyModule_AddObject(module, "_FunctionBase", reinterpret_cast<PyObject*>(&THPFunctionType));
  return true;
}
