"""tools/autograd/load_derivatives.py - derivatives.yaml as Python objects.

Mirrors PyTorch's tools/autograd/load_derivatives.py. Guide: docs/source/internals/autograd.rst.

Each entry becomes a DifferentiabilityInfo: the backward node's class name (AddBackward0),
the formula of each differentiable input, and what the node must save for the formulas:
inputs and outputs as SavedVariables, or only their sizes / dtype / options when a formula
needs nothing more (so the node keeps no memory alive that it does not need).
"""

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Dict, List, Optional

import yaml

from tools.codegen.model import Argument, FunctionSchema, NativeFunction


@dataclass
class SavedAttribute:
    name: str  # the node's member: "self_" (a SavedVariable), "self_sym_sizes", "alpha"
    cpp_type: str  # "SavedVariable", "std::vector<int64_t>", "at::Scalar" ...
    expr: str  # how the forward kernel computes it: "self", "self.sizes().vec()", "alpha"
    local: str  # what the formula calls it: "self", "self_sym_sizes", "alpha"
    is_output: bool = False
    is_list: bool = False  # Tensor[]: a std::vector<SavedVariable>
    elem_optional: bool = False  # Tensor?[] (index's indices): elements may be None


@dataclass
class Derivative:
    var_names: List[str]
    formula: str


@dataclass
class DifferentiabilityInfo:
    name: str  # "add.Tensor"
    func: FunctionSchema
    op: str  # "AddBackward0"
    derivatives: List[Derivative]
    args_with_derivatives: List[Argument]
    saved_inputs: List[SavedAttribute]
    saved_outputs: List[SavedAttribute]
    output_differentiability: Optional[List[bool]]
    yaml_line: int = 0


def camel(name: str) -> str:
    """add -> Add, _to_copy -> ToCopy, log1p -> Log1P, as PyTorch names nodes (str.title per part)."""
    return "".join(part.title() for part in name.strip("_").split("_"))


# How a value derived from a tensor is saved instead of the tensor.
_TENSOR_PROPERTIES = [
    # (pattern after "x.", member suffix, C++ type, expression)
    (r"sym_sizes\(\)", "sym_sizes", "std::vector<int64_t>", "{}.sizes().vec()"),
    (r"sizes\(\)", "sym_sizes", "std::vector<int64_t>", "{}.sizes().vec()"),
    (r"sym_strides\(\)", "sym_strides", "std::vector<int64_t>", "{}.strides().vec()"),
    (r"strides\(\)", "sym_strides", "std::vector<int64_t>", "{}.strides().vec()"),
    (r"scalar_type\(\)", "scalar_type", "at::ScalarType", "{}.scalar_type()"),
    (r"options\(\)", "options", "at::TensorOptions", "{}.options()"),
    (r"dim\(\)", "dim", "int64_t", "{}.dim()"),
    (r"sym_numel\(\)", "sym_numel", "int64_t", "{}.numel()"),
    (r"numel\(\)", "sym_numel", "int64_t", "{}.numel()"),
]

# How a value derived from every tensor of a Tensor[] (cat's `tensors`) is saved instead.
_LIST_PROPERTIES = [
    # (function, member suffix, C++ type); the forward kernel calls the function itself
    ("to_args_sizes", "args_sizes", "std::vector<std::vector<int64_t>>"),
    ("to_args_scalartypes", "args_scalartypes", "std::vector<at::ScalarType>"),
]


def _value_type(a: Argument) -> str:
    t = a.type
    if t.base == "Scalar":
        return "std::optional<at::Scalar>" if t.is_optional else "at::Scalar"
    if t.base == "int" and t.is_list:
        return "std::optional<std::vector<int64_t>>" if t.is_optional else "std::vector<int64_t>"
    base = {"int": "int64_t", "bool": "bool", "float": "double", "ScalarType": "at::ScalarType",
            "str": "std::string", "MemoryFormat": "at::MemoryFormat", "Layout": "at::Layout",
            "Device": "at::Device"}[t.base]
    return f"std::optional<{base}>" if t.is_optional else base


def _value_expr(a: Argument) -> str:
    t = a.type
    if t.base == "int" and t.is_list:
        if t.is_optional:
            return f"{a.name}.has_value() ? std::optional<std::vector<int64_t>>({a.name}->vec()) : std::nullopt"
        return f"{a.name}.vec()"
    if t.base == "str":
        if t.is_optional:
            return f"{a.name}.has_value() ? std::optional<std::string>(std::string(*{a.name})) : std::nullopt"
        return f"std::string({a.name})"
    return a.name


def _value_local(a: Argument, member: str) -> str:
    """How the formula sees a saved non-tensor value (an int[] is an IntArrayRef again)."""
    t = a.type
    if t.base == "int" and t.is_list:
        if t.is_optional:
            return f"({member}.has_value() ? at::OptionalIntArrayRef(*{member}) : at::OptionalIntArrayRef())"
        return f"at::IntArrayRef({member})"
    return member


def output_names(func: FunctionSchema) -> List[str]:
    if len(func.returns) == 1:
        return [func.returns[0].name or "result"]
    return [r.name or f"result{i}" for i, r in enumerate(func.returns)]


def _process(func: FunctionSchema, derivatives: List[Derivative]):
    """Rewrite formulas to use saved values; return the saved inputs and outputs."""
    saved_inputs: Dict[str, SavedAttribute] = {}
    saved_outputs: Dict[str, SavedAttribute] = {}
    outs = output_names(func)
    tensor_names = [a.name for a in func.arguments if a.type.base == "Tensor"] + outs
    # A tensor some formula uses whole is saved whole, and its sizes / dtype are read from it
    # in backward rather than saved again (as PyTorch: MulBackward0 saves self and other only).
    saved_whole = set()
    for d in derivatives:
        for name in tensor_names:
            rest = d.formula
            for pattern, _, _, _ in _TENSOR_PROPERTIES:
                rest = re.sub(rf"\b{name}\.{pattern}", "", rest)
            if re.search(rf"\b{name}\b(?!_)", rest) and not any(a.name == name and a.type.is_list
                                                                  for a in func.arguments):
                saved_whole.add(name)
    for d in derivatives:
        formula = d.formula
        for name in tensor_names:
            is_output = name in outs and name not in [a.name for a in func.arguments]
            target = saved_outputs if is_output else saved_inputs
            if name in saved_whole:
                formula = re.sub(rf"\b{name}\.sym_sizes\(\)", f"{name}.sizes()", formula)
                formula = re.sub(rf"\b{name}\.sym_strides\(\)", f"{name}.strides()", formula)
                formula = re.sub(rf"\b{name}\.sym_numel\(\)", f"{name}.numel()", formula)
            for pattern, suffix, cpp_type, expr in ([] if name in saved_whole else _TENSOR_PROPERTIES):
                regex = rf"\b{name}\.{pattern}"
                if re.search(regex, formula):
                    member = f"{name}_{suffix}"
                    formula = re.sub(regex, member, formula)
                    target[member] = SavedAttribute(member, cpp_type, expr.format(name), member, is_output)
            for fn, suffix, cpp_type in _LIST_PROPERTIES:
                regex = rf"\b{fn}\({name}\)"
                if re.search(regex, formula):
                    member = f"{name}_{suffix}"
                    formula = re.sub(regex, member, formula)
                    target[member] = SavedAttribute(member, cpp_type, f"torch::autograd::generated::details::{fn}({name})", member,
                                                   is_output)
            if re.search(rf"\b{name}_geometry\b", formula):
                member = f"{name}_geometry"
                target[member] = SavedAttribute(member, "at::TensorGeometry", f"at::TensorGeometry({name})", member,
                                                is_output)
            if re.search(rf"\b{name}\b(?!_)", formula):
                arg = next((a for a in func.arguments if a.name == name), None)
                is_list = arg is not None and arg.type.is_list
                elem_optional = arg is not None and arg.type.elem_optional
                target[name + "_"] = SavedAttribute(name + "_", "SavedVariable", name, name, is_output, is_list,
                                                    elem_optional)
        for a in func.arguments:
            if a.type.base == "Tensor" or a.name in saved_inputs:
                continue
            if re.search(rf"\b{a.name}\b(?!_)", formula):
                saved_inputs[a.name] = SavedAttribute(a.name, _value_type(a), _value_expr(a),
                                                      _value_local(a, a.name))
        d.formula = formula
    return list(saved_inputs.values()), list(saved_outputs.values())


def load_derivatives(path: str, native_functions: List[NativeFunction]) -> List[DifferentiabilityInfo]:
    with open(path) as f:
        text = f.read()
    lines = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        m = re.match(r"- name: ([\w.]+)\(", line)
        if m:
            lines[m.group(1)] = lineno
    by_name = {f.func.full_name: f for f in native_functions}
    counters: Dict[str, int] = defaultdict(int)
    infos = []
    for entry in yaml.safe_load(text):
        func = FunctionSchema.parse(entry["name"])
        if func.full_name not in by_name:
            raise ValueError(f"derivatives.yaml: {func.full_name} is not in native_functions.yaml")
        func = by_name[func.full_name].func
        base = func.name[:-1] if func.is_inplace else func.name
        # nll_loss_forward's node is NllLossBackward0, as in PyTorch: the _forward is dropped.
        if base.endswith("_forward"):
            base = base[: -len("_forward")]
        op = f"{camel(base)}Backward{counters[base]}"
        counters[base] += 1
        derivatives = []
        for key, formula in entry.items():
            if key in ("name", "output_differentiability", "result", "dispatch"):
                continue
            derivatives.append(Derivative([v.strip() for v in key.split(",")], str(formula)))
        names = {n for d in derivatives for n in d.var_names}
        args_with_derivatives = [a for a in func.arguments if a.name in names]
        unknown = names - {a.name for a in func.arguments}
        if unknown:
            raise ValueError(f"derivatives.yaml: {func.full_name} has no argument {sorted(unknown)}")
        saved_inputs, saved_outputs = _process(func, derivatives)
        infos.append(DifferentiabilityInfo(
            name=func.full_name, func=func, op=op, derivatives=derivatives,
            args_with_derivatives=args_with_derivatives, saved_inputs=saved_inputs, saved_outputs=saved_outputs,
            output_differentiability=entry.get("output_differentiability"),
            yaml_line=lines.get(func.full_name, 0)))
    return infos
