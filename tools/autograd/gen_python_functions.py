"""tools/autograd/gen_python_functions.py - the Python classes of the backward nodes.

Mirrors the grad_fn part of PyTorch's tools/autograd/gen_autograd_functions.py
(python_functions.cpp). Guide: docs/source/internals/autograd.rst.

type(t.grad_fn) is a class named after the node (MulBackward0) with the common methods of
torch/csrc/autograd/python_cpp_function.cpp (name(), next_functions, register_hook ...)
plus one read-only attribute per saved value: grad_fn._saved_self, _saved_other,
_saved_self_sym_sizes ... (seed 001: "the _saved_* attributes").
"""

from typing import Callable, List

from tools.autograd.load_derivatives import DifferentiabilityInfo

# How a saved member becomes a Python object. (A plain at::ScalarType member, such as
# self_scalar_type, has no attribute: PyTorch exposes none.)
_TO_PYTHON = {
    "SavedVariable": "THPVariable_Wrap(node->{m}.unpack(self->cdata))",
    "std::vector<int64_t>": "torch::autograd::utils::wrap_int_tuple(node->{m})",
    "std::optional<std::vector<int64_t>>": "node->{m}.has_value() ? torch::autograd::utils::wrap_int_tuple(*node->{m}) : torch::autograd::utils::none()",
    "int64_t": "PyLong_FromLongLong(node->{m})",
    "std::optional<int64_t>": "node->{m}.has_value() ? PyLong_FromLongLong(*node->{m}) : torch::autograd::utils::none()",
    "double": "PyFloat_FromDouble(node->{m})",
    "bool": "PyBool_FromLong(node->{m})",
    "at::Scalar": "torch::autograd::utils::wrap_scalar(node->{m})",
    "std::optional<at::Scalar>": "node->{m}.has_value() ? torch::autograd::utils::wrap_scalar(*node->{m}) : torch::autograd::utils::none()",
    "std::optional<at::ScalarType>": "node->{m}.has_value() ? torch::autograd::utils::wrap_dtype(*node->{m}) : torch::autograd::utils::none()",
    "std::string": "PyUnicode_FromString(node->{m}.c_str())",
    "std::optional<std::string>": "node->{m}.has_value() ? PyUnicode_FromString(node->{m}->c_str()) : torch::autograd::utils::none()",
}


def gen(infos: List[DifferentiabilityInfo], install_dir: str, render: Callable) -> None:
    import os

    from tools.codegen.utils import write_if_changed

    getters, tables, inits = [], [], []
    for info in infos:
        props = []
        for s in info.saved_inputs + info.saved_outputs:
            conv = _TO_PYTHON.get(s.cpp_type)
            if s.cpp_type == "SavedVariable" and s.is_list:
                # Tensor[] / Tensor?[] (index's indices): a tuple, None for an undefined element.
                conv = ("[&]() -> PyObject* {{\n"
                        "    TORCH_CHECK(!node->{m}released_, ERR_BACKWARD_TWICE);\n"
                        "    PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(node->{m}.size()));\n"
                        "    for (size_t i = 0; i < node->{m}.size(); ++i) {{\n"
                        "      auto t = node->{m}[i].unpack(self->cdata);\n"
                        "      PyTuple_SET_ITEM(tuple, i, t.defined() ? THPVariable_Wrap(t) : torch::autograd::utils::none());\n"
                        "    }}\n"
                        "    return tuple;\n"
                        "  }}()")
            if conv is None:
                continue
            attr = s.name[:-1] if s.name.endswith("_") else s.name
            fn = f"THP{info.op}_{attr}_getter"
            getters.append(f"""PyObject* {fn}(THPCppFunction* self, void*) {{
  HANDLE_TH_ERRORS
  auto* node = static_cast<{info.op}*>(self->cdata.get());
  return {conv.format(m=s.name)};
  END_HANDLE_TH_ERRORS
}}
""")
            props.append(f'{{(char*)"_saved_{attr}", (getter){fn}, nullptr, nullptr, nullptr}},')
        tables.append(f"PyGetSetDef {info.op}_properties[] = {{\n  THP_FUNCTION_DEFAULT_PROPERTIES,\n  "
                      + "\n  ".join(props) + ("\n  " if props else "") + "{nullptr}\n};\n")
        inits.append(f'static PyTypeObject {info.op}Class;\n'
                     f'addClass<{info.op}>(module, {info.op}Class, "{info.op}", {info.op}_properties);')
    write_if_changed(os.path.join(install_dir, "python_functions.cpp"), render("python_functions.cpp", {
        "py_function_props_and_getters": getters + tables,
        "py_function_initializers": inits,
    }))
