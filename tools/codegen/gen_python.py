"""tools/codegen/gen_python.py - generate the Python bindings of the operators.

Mirrors PyTorch's tools/autograd/gen_python_functions.py (and tools/pyi/gen_pyi.py for the
stubs). Guide: docs/source/internals/generated_code.rst.

From native_functions.yaml it writes, into build/torch/csrc/autograd/generated:

* python_torch_functions.cpp - torch._C._VariableFunctions: one C function per Python name
  (``zeros``, ``fill_``), every overload's signature in one PythonArgParser, the out=
  variant folded in as the ``out`` keyword, factories given ``requires_grad``;
* python_variable_methods.cpp - the methods of torch._C.TensorBase (``t.fill_(1)``), with
  ``self`` implicit;

and, into torch/_C, the stubs _VariableFunctions.pyi and __init__.pyi.

Each binding parses the arguments, hands tensor subclasses with __torch_function__ to
handle_torch_function, converts each argument to its C++ type and calls
``at::_ops::<op>::call`` - the dispatcher's entry point - with the GIL released.
"""

import json
import os
from collections import OrderedDict, defaultdict
from typing import Dict, List, Optional, Tuple

from tools.codegen import cpp
from tools.codegen.model import Argument, NativeFunction, Type
from tools.codegen.utils import write_if_changed

GENERATED = "@" + "generated"

# Not bound: PyTorch binds add(Tensor, Tensor) and turns numbers into tensors instead.
SKIP_PYTHON_BINDINGS_SIGNATURES = {
    "add.Scalar", "add_.Scalar", "sub.Scalar", "sub_.Scalar",
    "mul.Scalar", "mul_.Scalar", "div.Scalar", "div_.Scalar",
}
# Hand-written bindings (torch/csrc/autograd/python_torch_functions_manual.cpp,
# python_variable.cpp) take these names.
MANUAL_FUNCTIONS = {"tensor", "as_tensor", "from_numpy", "nonzero"}  # nonzero: as_tuple=
MANUAL_METHODS = {"size", "stride", "dim", "numel", "item", "tolist", "numpy", "data_ptr", "is_contiguous",
                  "element_size", "storage_offset", "untyped_storage", "requires_grad_", "as_subclass",
                  "nonzero", "to"}

TENSOR_OPTIONS = ["dtype", "layout", "device", "pin_memory"]

# schema type -> (PythonArgParser type, PythonArgs accessor, C++ local type)
_PY = {
    "Tensor": ("Tensor", "tensor", "at::Tensor"),
    "Scalar": ("Scalar", "scalar", "at::Scalar"),
    "int": ("int64_t", "toInt64", "int64_t"),
    "float": ("double", "toDouble", "double"),
    "bool": ("bool", "toBool", "bool"),
    "str": ("c10::string_view", "string", "std::string"),
    "ScalarType": ("ScalarType", "scalartype", "at::ScalarType"),
    "Device": ("Device", "device", "at::Device"),
    "Layout": ("Layout", "layout", "at::Layout"),
    "MemoryFormat": ("MemoryFormat", "memoryformat", "at::MemoryFormat"),
    "Generator": ("Generator", "generator", "at::Generator"),
}

# the Python spelling of a type in .pyi stubs
_PYI = {
    "Tensor": "Tensor", "Scalar": "Union[Number, _complex]", "int": "_int", "float": "_float", "bool": "_bool",
    "str": "str", "ScalarType": "Optional[_dtype]", "Device": "Optional[DeviceLikeType]",
    "Layout": "Optional[_layout]", "MemoryFormat": "Optional[memory_format]",
    "Generator": "Optional[Any]",
}


class Unsupported(Exception):
    """A schema type the Python bindings do not handle yet: the overload is left out."""


# ---- one overload as the parser sees it -----------------------------------------------------

class PyParam:
    def __init__(self, name: str, type_str: str, default: Optional[str], kwarg_only: bool,
                 arg: Optional[Argument], pyi_type: str) -> None:
        self.name, self.type_str, self.default, self.kwarg_only = name, type_str, default, kwarg_only
        self.arg = arg  # the schema argument it feeds (None for requires_grad, out)
        self.pyi_type = pyi_type

    def signature(self) -> str:
        text = f"{self.type_str} {self.name}"
        if self.default is not None:
            text += f"={self.default}"
        return text


def parser_type(t: Type) -> Tuple[str, str]:
    """(the type in a PythonArgParser signature, the .pyi type)."""
    if t.base == "Tensor":
        if t.is_list and t.elem_optional:  # Tensor?[] (index_put_): PyTorch's spelling
            return "c10::List<::std::optional<Tensor>>", "Union[tuple[Optional[Tensor], ...], list[Optional[Tensor]]]"
        if t.is_list:
            return "TensorList", "Union[tuple[Tensor, ...], list[Tensor]]"
        return ("Tensor?" if t.is_optional else "Tensor"), ("Optional[Tensor]" if t.is_optional else "Tensor")
    if t.is_list:
        if t.base != "int":
            raise Unsupported(str(t))
        size = f"[{t.list_size}]" if t.list_size else ""
        pyi = "Sequence[Union[_int, SymInt]]"
        return f"IntArrayRef{size}{'?' if t.is_optional else ''}", (f"Optional[{pyi}]" if t.is_optional else pyi)
    if t.base not in _PY:
        raise Unsupported(str(t))
    pyi = _PYI[t.base]
    if t.is_optional and not pyi.startswith("Optional"):
        pyi = f"Optional[{pyi}]"
    return _PY[t.base][0] + ("?" if t.is_optional else ""), pyi


def python_default(arg: Argument) -> Optional[str]:
    d = arg.default
    if d is None:
        return None
    if d == "[]":
        return "None" if arg.type.is_optional else "[]"
    if d == "contiguous_format":
        return "torch.contiguous_format"
    if d == "long":
        return "torch.int64"
    return d


def is_out_arg(a: Argument) -> bool:
    return a.kwarg_only and a.type.is_write


def is_factory(f: NativeFunction) -> bool:
    names = {a.name for a in f.func.arguments}
    return all(n in names for n in TENSOR_OPTIONS)


class Overload:
    """One Python signature: a functional overload, perhaps with its out= variant folded in."""

    def __init__(self, f: NativeFunction, method: bool, out: Optional[NativeFunction] = None) -> None:
        self.f, self.method, self.out = f, method, out
        # x.new_zeros(...) is a factory too (requires_grad=, options default to x's), as in PyTorch.
        self.factory = is_factory(f) and (not method or f.func.name.startswith("new_"))
        self.params: List[PyParam] = []
        positional, kwonly = [], []
        for a in f.func.arguments:
            if is_out_arg(a):
                raise Unsupported("out")
            if method and a.name == "self":
                continue
            type_str, pyi = parser_type(a.type)
            name = "input" if a.name == "self" and a.type.base == "Tensor" else a.name
            default = python_default(a)
            if self.factory and a.name in TENSOR_OPTIONS:
                default = "False" if a.name == "pin_memory" else "None"
            p = PyParam(name, type_str, default, a.kwarg_only, a, pyi)
            (kwonly if a.kwarg_only else positional).append(p)
        if out is not None:
            out_args = [a for a in out.func.arguments if is_out_arg(a)]
            if any(a.type.is_list for a in out_args):
                raise Unsupported("a list output")
            if len(out_args) == 1:
                out_param = PyParam("out", "Tensor", "None", True, out_args[0], "Optional[Tensor]")
            else:
                # max(x, 1, out=(values, indices)): one tuple for several outputs, as in PyTorch.
                out_param = PyParam("out", f"TensorList[{len(out_args)}]", "None", True, None,
                                    "Optional[Tuple[Tensor, ...]]")
            # out goes before the tensor options of a factory, last otherwise (PyTorch's order)
            at = next((i for i, p in enumerate(kwonly) if self.factory and p.name in TENSOR_OPTIONS), len(kwonly))
            kwonly.insert(at, out_param)
        if self.factory:
            kwonly.append(PyParam("requires_grad", "bool", "False", True, None, "_bool"))
        self.params = positional + kwonly
        for r in f.func.returns:
            if r.type.base != "Tensor" and r.type.base not in ("bool", "int", "float", "Scalar", "ScalarType"):
                raise Unsupported("return " + str(r.type))

    @property
    def name(self) -> str:
        return self.f.func.name

    def signature(self) -> str:
        parts, kw = [], False
        for p in self.params:
            if p.kwarg_only and not kw:
                parts.append("*")
                kw = True
            parts.append(p.signature())
        return f"{self.name}({', '.join(parts)})"

    def index_of(self, name: str) -> int:
        return next(i for i, p in enumerate(self.params) if p.name == name)

    def schema_comment(self, f: NativeFunction) -> str:
        return f"// aten::{f.func.text}   (native_functions.yaml:{f.yaml_line})"


# ---- PyTorch's overload order ----------------------------------------------------------------

def _is_arg_smaller(t1: str, t2: str) -> bool:
    return (
        (t1 == "Scalar" and t2 == "Tensor")
        or (t1 == "Scalar?" and t2 == "Tensor?")
        or (t1 == "int[]" and t2 in ("int", "int?"))
        or (t1 == "Tensor[]" and "[]" in t2)
        or (t1 == "int" and t2 == "Tensor")
    )


def _is_smaller(s1: Overload, s2: Overload) -> bool:
    a1 = [str(p.arg.type) if p.arg else p.type_str for p in s1.params if p.name != "out"]
    a2 = [str(p.arg.type) if p.arg else p.type_str for p in s2.params if p.name != "out"]
    if len(a1) != len(a2):
        return False
    equal = all(x == y for x, y in zip(a1, a2))
    smaller_or_equal = all(x == y or _is_arg_smaller(x, y) for x, y in zip(a1, a2))
    return smaller_or_equal and not equal


def sort_overloads(overloads: List[Overload]) -> List[Overload]:
    """PyTorch's sort_overloads: by signature text, then Tensor before Scalar (a partial order)."""
    ordered = sorted(overloads, key=lambda o: o.signature())
    larger_than: Dict[int, set] = defaultdict(set)
    for i1, o1 in enumerate(ordered):
        for i2, o2 in enumerate(ordered):
            if _is_smaller(o1, o2):
                larger_than[i1].add(i2)
    if not larger_than:
        return ordered
    n = len(ordered)
    sorted_ids = [x for x in range(n) if x not in larger_than]
    for idx in range(n):
        i = sorted_ids[idx]
        for j in sorted(larger_than.keys()):
            larger = larger_than[j]
            larger.discard(i)
            if not larger:
                del larger_than[j]
                sorted_ids.append(j)
    return [ordered[x] for x in sorted_ids]


# ---- grouping ---------------------------------------------------------------------------------

def _functional_key(f: NativeFunction) -> Tuple:
    # A factory's out= variant has no tensor options (the out tensor fixes them):
    # arange(end, *, dtype, ...) pairs with arange.out(end, *, out).
    return tuple((a.name, str(a.type)) for a in f.func.arguments
                 if not is_out_arg(a) and not (is_factory(f) and a.name in TENSOR_OPTIONS))


def python_overloads(native_functions: List[NativeFunction], method: bool,
                     python_module: Optional[str] = None) -> "OrderedDict[str, List[Overload]]":
    """Python name -> its overloads (out= variants folded into their functional overload).

    python_module picks the module: None for torch._C._VariableFunctions (torch.*), "nn" for
    torch._C._nn (the entries marked `python_module: nn`, as PyTorch exposes gelu and silu).
    """
    by_name: "OrderedDict[str, List[NativeFunction]]" = OrderedDict()
    for f in native_functions:
        if f.python_module != python_module or f.func.full_name in SKIP_PYTHON_BINDINGS_SIGNATURES:
            continue
        # Backward kernels (convolution_backward, native_batch_norm_backward ...) are reached
        # through autograd, not called from Python (PyTorch's SKIP_PYTHON_BINDINGS ".*_backward").
        if f.func.name.endswith("_backward"):
            continue
        variant = "method" if method else "function"
        if f.func.is_out:
            if method:
                continue
        elif variant not in f.variants:
            continue
        if method and not any(a.name == "self" and a.type.base == "Tensor" for a in f.func.arguments):
            continue
        # numpy_T, matrix_H, mT, mH: Python sees them as the properties t.T, t.H, t.mT, t.mH
        # (python_variable.cpp), so they stay out of the method table, as in PyTorch.
        manual = (MANUAL_METHODS | {"numpy_T", "matrix_H", "mT", "mH"}) if method else MANUAL_FUNCTIONS
        if f.func.name in manual:
            continue
        by_name.setdefault(f.func.name, []).append(f)

    result: "OrderedDict[str, List[Overload]]" = OrderedDict()
    for name, fs in by_name.items():
        outs = [f for f in fs if f.func.is_out]
        functionals = [f for f in fs if not f.func.is_out]
        overloads = []
        used_outs = set()
        for f in functionals:
            out = next((o for o in outs if _functional_key(o) == _functional_key(f)), None)
            try:
                overloads.append(Overload(f, method, out))
                if out is not None:
                    used_outs.add(id(out))
            except Unsupported:
                try:
                    overloads.append(Overload(f, method))
                except Unsupported:
                    pass
        if overloads:
            result[name] = sort_overloads(overloads)
    return result


# ---- C++ for one binding ------------------------------------------------------------------------

def _unpack(o: Overload, a: Argument, index: int) -> Tuple[str, str]:
    """(declaration of a local holding argument a, the expression passed to the operator)."""
    t = a.type
    local = f"_{a.name}"
    if t.base == "Tensor":
        if t.is_list and t.elem_optional:
            return f"std::vector<std::optional<at::Tensor>> {local} = _r.list_of_optional_tensors({index});", local
        if t.is_list:
            return f"std::vector<at::Tensor> {local} = _r.tensorlist({index});", local
        if t.is_optional:
            return f"std::optional<at::Tensor> {local} = _r.optionalTensor({index});", local
        return f"at::Tensor {local} = _r.tensor({index});", local
    if t.is_list:  # int[]
        if t.is_optional:
            return (f"std::optional<std::vector<int64_t>> {local} = _r.intlistOptional({index});",
                    f"({local} ? at::OptionalIntArrayRef(*{local}) : at::OptionalIntArrayRef())")
        return f"std::vector<int64_t> {local} = _r.intlist({index});", local
    _, accessor, ctype = _PY[t.base]
    if t.base == "Scalar":
        if t.is_optional:
            return f"std::optional<at::Scalar> {local} = _r.scalarOptional({index});", local
        return f"at::Scalar {local} = _r.scalar({index});", local
    if t.base == "str":
        if t.is_optional:
            return (f"std::optional<std::string> {local} = _r.stringOptional({index});",
                    f"({local} ? std::optional<c10::string_view>(*{local}) : std::nullopt)")
        return f"std::string {local} = _r.string({index});", f"c10::string_view({local})"
    if t.is_optional:
        return f"std::optional<{ctype}> {local} = _r.{accessor}Optional({index});", local
    return f"{ctype} {local} = _r.{accessor}({index});", local


def _call(o: Overload, f: NativeFunction, self_expr: Optional[str], out_index: Optional[int]) -> List[str]:
    """The statements that unpack the arguments, call the operator and return the result."""
    lines, names = [], []
    out_args = [a for a in f.func.arguments if is_out_arg(a)]
    if len(out_args) > 1:
        # out=(values, indices): the tuple's tensors are the operator's out arguments, in order.
        lines.append(f"std::vector<at::Tensor> _outs = _r.tensorlist({out_index});")
        lines.append(f'TORCH_CHECK_TYPE(_outs.size() == {len(out_args)}, "expected tuple of {len(out_args)} elements '
                     f'but got ", _outs.size());')
    for a in f.func.arguments:
        if o.method and a.name == "self":
            lines.append(f"at::Tensor _self = {self_expr};")
            names.append("_self")
            continue
        if is_out_arg(a) and len(out_args) > 1:
            lines.append(f"at::Tensor _{a.name} = _outs[{out_args.index(a)}];")
            names.append(f"_{a.name}")
            continue
        if is_out_arg(a):
            idx = out_index
        else:
            idx = o.index_of("input" if a.name == "self" and a.type.base == "Tensor" else a.name)
        decl, expr = _unpack(o, a, idx)
        lines.append(decl)
        names.append(expr)
    s = cpp.op_struct_name(f.func)
    ret = cpp.return_type(f.func)
    call = f"at::_ops::{s}::call({', '.join(names)})"
    if not f.func.returns:
        lines.append("{")
        lines.append("  pybind11::gil_scoped_release no_gil;")
        lines.append(f"  {call};")
        lines.append("}")
        lines.append("Py_RETURN_NONE;")
        return lines
    # the dispatcher runs without the GIL, as in PyTorch
    value_type = ret.replace(" &", "").replace("&", "")
    lines.append(f"{value_type} _result = [&]() -> {value_type} {{")
    lines.append("  pybind11::gil_scoped_release no_gil;")
    if o.factory:
        # A new tensor has no history and no version to count yet: its factory's own
        # in-place fills (zeros = empty + zero_) run below autograd and ADInplaceOrView, as
        # PyTorch's torch:: factories (variable_factories.h) do.
        lines.append("  at::AutoDispatchBelowADInplaceOrView _guard;")
    lines.append(f"  return {call};")
    lines.append("}();")
    rtypes = [r.type for r in f.func.returns]
    if len(rtypes) == 1:
        base = rtypes[0].base
        if base == "Tensor" and rtypes[0].is_list:
            # Tensor[] comes back as a tuple, as PyTorch's wrap(TensorList) gives it.
            lines.append("return torch::autograd::wrap_tuple(_result);")
        elif base == "Tensor":
            if o.factory:
                lines.append("PyObject* _py = THPVariable_Wrap(_result);")
                lines.append(f"if (_py && _r.toBool({o.index_of('requires_grad')})) "
                             "torch::autograd::set_requires_grad(_py, true);")
                lines.append("return _py;")
            else:
                lines.append("return THPVariable_Wrap(_result);")
        elif base == "ScalarType":
            lines.append("return torch::getTHPDtype(_result).release().ptr();")
        else:
            lines.append("return torch::scalarToPython(at::Scalar(_result));")
    else:
        items = ", ".join(f"std::get<{i}>(_result)" for i in range(len(rtypes)))
        names = [r.name for r in f.func.returns]
        if all(names):
            # Named returns are a torch.return_types.<name> named tuple (PyTorch's structseq).
            fields = ", ".join(f'"{n}"' for n in names)
            # torch.return_types.max, and torch.return_types.max_out for the out= form.
            type_name = f.func.name + ("_out" if f.func.is_out else "")
            lines.append(f'static PyTypeObject* _ret_type = torch::utils::get_return_type("{type_name}", {{{fields}}});')
            lines.append(f"return torch::utils::wrap_structseq(_ret_type, {{{items}}});")
        else:
            lines.append(f"return torch::autograd::wrap_tuple({{{items}}});")
    return lines


def return_types(native_functions: List[NativeFunction]) -> "OrderedDict[str, List[str]]":
    """torch.return_types: operator name -> field names, for every schema with named returns."""
    result: "OrderedDict[str, List[str]]" = OrderedDict()
    for f in native_functions:
        names = [r.name for r in f.func.returns]
        if len(names) > 1 and all(names) and not f.func.is_out and f.python_module is None:
            result.setdefault(f.func.name, names)
    return result


def gen_return_types(types: "OrderedDict[str, List[str]]") -> str:
    entries = "\n".join(
        "      {\"%s\", {%s}}," % (name, ", ".join(f'"{n}"' for n in fields)) for name, fields in types.items())
    return f"""
namespace torch::autograd {{
std::vector<std::pair<std::string, std::vector<const char*>>> generated_return_types() {{
  return {{
{entries}
  }};
}}
}}  // namespace torch::autograd
"""


def noargs_binding(name: str, o: Overload) -> str:
    body = "\n".join("  " + line for line in [o.schema_comment(o.f)] + _call(o, o.f, "THPVariable_Unpack(self_)", None))
    return f"""// {name}
static PyObject* THPVariableMethod_{name}(PyObject* self_, PyObject* /*args*/) {{
  HANDLE_TH_ERRORS
  if (check_has_torch_function(self_)) {{
    return handle_torch_function(self_, "{name}");
  }}
  ParsedArgs<0> parsed_args;
  static PythonArgParser parser({{"{o.signature()}"}});
  auto _r = parser.parse(self_, nullptr, nullptr, parsed_args);
{body}
  END_HANDLE_TH_ERRORS
}}
"""


# python_module -> (the C++ module object, the Python module named in errors)
MODULES = {
    None: ("THPVariableFunctionsModule", "torch"),
    "nn": ("THPNNVariableFunctionsModule", "torch.nn.functional"),
    "linalg": ("THPLinalgVariableFunctionsModule", "torch.linalg"),
}


def binding(name: str, overloads: List[Overload], method: bool, python_module: Optional[str] = None) -> str:
    if takes_no_arguments(overloads, method):
        return noargs_binding(name, overloads[0])
    fn = f"THPVariable_{name}" if not method else f"THPVariableMethod_{name}"
    # json.dumps gives a C string literal: quotes in defaults (approximate="none") escaped.
    sigs = "\n".join(f"    {json.dumps(o.signature())}," for o in overloads)
    max_args = max(len(o.params) for o in overloads)
    self_arg = "self_" if method else "nullptr"
    api = "THPVariableClass" if method else MODULES[python_module][0]
    module = "Tensor" if method else MODULES[python_module][1]
    cases = []
    for i, o in enumerate(overloads):
        body = []
        self_expr = "THPVariable_Unpack(self_)"
        if o.out is not None:
            out_index = o.index_of("out")
            body.append(f"if (_r.isNone({out_index})) {{")
            body.append("  " + o.schema_comment(o.f))
            body += ["  " + line for line in _call(o, o.f, self_expr, None)]
            body.append("} else {")
            body.append("  " + o.schema_comment(o.out))
            body += ["  " + line for line in _call(o, o.out, self_expr, out_index)]
            body.append("}")
        else:
            body.append(o.schema_comment(o.f))
            body += _call(o, o.f, self_expr, None)
        inner = "\n".join("      " + line for line in body)
        cases.append(f"    case {i}: {{\n{inner}\n    }}")
    cases_text = "\n".join(cases)
    return f"""// {name}
static PyObject* {fn}(PyObject* self_, PyObject* args, PyObject* kwargs) {{
  HANDLE_TH_ERRORS
  static PythonArgParser parser({{
{sigs}
  }}, /*traceable=*/true);
  ParsedArgs<{max(max_args, 1)}> parsed_args;
  auto _r = parser.parse({self_arg}, args, kwargs, parsed_args);
  if (_r.has_torch_function()) {{
    return handle_torch_function(_r, {self_arg}, args, kwargs, {api}, "{module}");
  }}
  switch (_r.idx) {{
{cases_text}
  }}
  Py_RETURN_NONE;
  END_HANDLE_TH_ERRORS
}}
"""


def takes_no_arguments(overloads: List[Overload], method: bool) -> bool:
    """A method with nothing to parse (t.zero_()) is METH_NOARGS, as in PyTorch."""
    return method and len(overloads) == 1 and not overloads[0].params


def method_def(name: str, method: bool, noargs: bool = False) -> str:
    fn = f"THPVariable_{name}" if not method else f"THPVariableMethod_{name}"
    if noargs:
        return f'  {{"{name}", {fn}, METH_NOARGS, nullptr}},'
    return (f'  {{"{name}", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>({fn})), '
            f"METH_VARARGS | METH_KEYWORDS, nullptr}},")


def banner(template_name: str, overloads: "OrderedDict[str, List[Overload]]") -> str:
    entries = []
    for os_ in overloads.values():
        for o in os_:
            entries.append(f"//   aten::{o.f.func.full_name} (native_functions.yaml:{o.f.yaml_line})")
            if o.out is not None:
                entries.append(f"//   aten::{o.out.func.full_name} (native_functions.yaml:{o.out.yaml_line})")
    return (f"// {GENERATED} by tools/codegen/gen_python.py from aten/src/ATen/native/native_functions.yaml "
            f"({template_name}). Do not edit: change the YAML or the generator.\n"
            "// Guide: docs/source/internals/generated_code.rst. From these YAML entries:\n" + "\n".join(entries))


PRELUDE = """
#include <torch/csrc/Dtype.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/python_torch_functions.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/python_arg_parser.h>
#include <torch/csrc/utils/structseq.h>

#include <ATen/Operators.h>
#include <ATen/core/LegacyTypeDispatch.h>
#include <ATen/core/Tensor.h>

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

using namespace torch;
using torch::autograd::THPNNVariableFunctionsModule;
using torch::autograd::THPLinalgVariableFunctionsModule;
using torch::autograd::THPVariableFunctionsModule;

namespace torch::autograd {
namespace {
[[maybe_unused]] PyObject* wrap_tuple(const std::vector<at::Tensor>& tensors) {
  PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(tensors.size()));
  for (size_t i = 0; i < tensors.size(); ++i) PyTuple_SET_ITEM(tuple, i, THPVariable_Wrap(tensors[i]));
  return tuple;
}
}  // namespace
}  // namespace torch::autograd
"""


def gen_cpp(overloads: "OrderedDict[str, List[Overload]]", method: bool, filename: str,
            python_module: Optional[str] = None) -> str:
    if method:
        what = "python_variable_methods.cpp: the methods of torch._C.TensorBase"
        getter = "generated_variable_methods"
    elif python_module:
        what = f"python_{python_module}_functions.cpp: the functions of torch._C._{python_module}"
        getter = f"generated_{python_module}_functions"
    else:
        what = "python_torch_functions.cpp: the functions of torch._C._VariableFunctions"
        getter = "generated_torch_functions"
    bindings = "\n".join(binding(name, os_, method, python_module) for name, os_ in overloads.items())
    defs = "\n".join(method_def(name, method, takes_no_arguments(os_, method)) for name, os_ in overloads.items())
    return f"""{banner(what, overloads)}
{PRELUDE}
{bindings}
static PyMethodDef {getter}_table[] = {{
{defs}
  {{nullptr, nullptr, 0, nullptr}}
}};

namespace torch::autograd {{
PyMethodDef* {getter}() {{
  return {getter}_table;
}}
}}  // namespace torch::autograd
"""


# ---- stubs -----------------------------------------------------------------------------------------

def pyi_signature(o: Overload, method: bool) -> str:
    parts = ["self"] if method else []
    kw = False
    for p in o.params:
        if p.kwarg_only and not kw:
            parts.append("*")
            kw = True
        default = ""
        if p.default is not None:
            default = " = None" if p.default == "None" else f" = {p.default}" if p.default in (
                "True", "False") or p.default.lstrip("-").replace(".", "").isdigit() else " = ..."
        parts.append(f"{p.name}: {p.pyi_type}{default}")
    rets = [r.type for r in o.f.func.returns]
    ret = "None" if not rets else "Tensor" if len(rets) == 1 and rets[0].base == "Tensor" else "Any"
    return f"def {o.name}({', '.join(parts)}) -> {ret}: ..."


PYI_HEADER = """# {generated} by tools/codegen/gen_python.py from aten/src/ATen/native/native_functions.yaml.
# Type stubs for {what}. Do not edit. Guide: docs/source/internals/generated_code.rst.
from typing import Any, Optional, Sequence, Union, overload

from torch import Tensor, SymInt
from torch.types import Number, _bool, _complex, _dtype, _float, _int, _layout, DeviceLikeType
from torch import memory_format
"""


def gen_pyi(functions, methods) -> Tuple[str, str]:
    lines = [PYI_HEADER.format(generated=GENERATED, what="torch._C._VariableFunctions")]
    lines.append("def tensor(data: Any, dtype: Optional[_dtype] = None, device: Optional[DeviceLikeType] = None, "
                 "requires_grad: _bool = False, pin_memory: _bool = False) -> Tensor: ...")
    lines.append("def as_tensor(data: Any, dtype: Optional[_dtype] = None, device: Optional[DeviceLikeType] = None)"
                 " -> Tensor: ...")
    lines.append("def from_numpy(ndarray: Any) -> Tensor: ...")
    for name, os_ in functions.items():
        for o in os_:
            if len(os_) > 1:
                lines.append("@overload")
            lines.append(pyi_signature(o, False))
    var_funcs = "\n".join(lines) + "\n"

    init = [PYI_HEADER.format(generated=GENERATED, what="torch._C")]
    init.append("class Size(tuple[int, ...]):\n    def numel(self) -> _int: ...\n")
    init.append("class TensorBase:")
    init.append("    shape: Size\n    dtype: _dtype\n    device: Any\n    ndim: _int\n    requires_grad: _bool\n"
                "    _version: _int\n    nbytes: _int\n    itemsize: _int")
    for sig in ["def size(self, dim: Optional[_int] = None) -> Any: ...",
                "def stride(self, dim: Optional[_int] = None) -> Any: ...",
                "def dim(self) -> _int: ...", "def numel(self) -> _int: ...", "def item(self) -> Number: ...",
                "def tolist(self) -> Any: ...", "def numpy(self, *, force: _bool = False) -> Any: ...",
                "def data_ptr(self) -> _int: ...", "def storage_offset(self) -> _int: ...",
                "def is_contiguous(self, *, memory_format: memory_format = ...) -> _bool: ...",
                "def element_size(self) -> _int: ...", "def untyped_storage(self) -> Any: ..."]:
        init.append("    " + sig)
    for name, os_ in methods.items():
        for o in os_:
            if len(os_) > 1:
                init.append("    @overload")
            init.append("    " + pyi_signature(o, True))
    init.append("\ndef _set_tensor_class(cls: type) -> None: ...")
    return var_funcs, "\n".join(init) + "\n"


def gen(native_functions: List[NativeFunction], python_install_dir: str, pyi_install_dir: Optional[str]) -> None:
    functions = python_overloads(native_functions, method=False)
    methods = python_overloads(native_functions, method=True)
    write_if_changed(os.path.join(python_install_dir, "python_torch_functions.cpp"),
                     gen_cpp(functions, False, "python_torch_functions.cpp")
                     + gen_return_types(return_types(native_functions)))
    for python_module in ("nn", "linalg"):
        filename = f"python_{python_module}_functions.cpp"
        write_if_changed(os.path.join(python_install_dir, filename),
                         gen_cpp(python_overloads(native_functions, method=False, python_module=python_module), False,
                                 filename, python_module))
    write_if_changed(os.path.join(python_install_dir, "python_variable_methods.cpp"),
                     gen_cpp(methods, True, "python_variable_methods.cpp"))
    if pyi_install_dir:
        var_funcs, init = gen_pyi(functions, methods)
        write_if_changed(os.path.join(pyi_install_dir, "_VariableFunctions.pyi"), var_funcs)
        write_if_changed(os.path.join(pyi_install_dir, "__init__.pyi"), init)
