"""tools/codegen/model.py - operator schemas as Python objects.

Mirrors PyTorch's torchgen/model.py (FunctionSchema, Argument, Type). Guide:
docs/source/internals/generated_code.rst.

A schema such as ``add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`` is
parsed once here; every generator (C++ API, registrations, Python bindings, stubs) reads
the same objects.
"""

import re
from dataclasses import dataclass
from typing import List, Optional, Tuple


@dataclass(frozen=True)
class Type:
    """A schema type: a base name ("Tensor", "int", "Scalar"...), optionally a list or optional."""

    base: str  # Tensor, Scalar, int, float, bool, str, ScalarType, Device, Layout, MemoryFormat, Generator
    is_list: bool = False
    list_size: Optional[int] = None  # int[2]
    is_optional: bool = False  # Type? (the whole type may be None)
    alias: Optional[str] = None  # "a" in Tensor(a!)
    is_write: bool = False  # the "!" in Tensor(a!): the argument is written to
    elem_optional: bool = False  # Tensor?[]: a list whose elements may be None (index, index_put_)

    @staticmethod
    def parse(text: str) -> "Type":
        text = text.strip()
        is_optional = text.endswith("?")
        if is_optional:
            text = text[:-1]
        # Tensor(a -> *): an input whose alias set flows into every output (split, unbind).
        text = re.sub(r"\((\w+)\s*->\s*\*\)", r"(\1)", text)
        m = re.fullmatch(r"(\w+)(\((\w+)(!?)\))?(\?)?(\[(\d*)\])?(\?)?", text)
        if not m:
            raise ValueError(f"cannot parse type {text!r}")
        base, _, alias, bang, elem_optional, list_part, list_size, inner_optional = m.groups()
        if base == "SymInt":
            base = "int"  # this tree has no symbolic shapes: SymInt is an int
        return Type(
            base=base,
            is_list=list_part is not None,
            list_size=int(list_size) if list_size else None,
            is_optional=is_optional or inner_optional is not None,
            alias=alias,
            is_write=bool(bang),
            elem_optional=elem_optional is not None and list_part is not None,
        )

    def __str__(self) -> str:
        s = self.base
        if self.alias:
            s += f"({self.alias}{'!' if self.is_write else ''})"
        if self.elem_optional:
            s += "?"
        if self.is_list:
            s += f"[{self.list_size or ''}]"
        if self.is_optional:
            s += "?"
        return s

    @property
    def is_tensor_like(self) -> bool:
        return self.base == "Tensor"


@dataclass(frozen=True)
class Argument:
    name: str
    type: Type
    default: Optional[str]
    kwarg_only: bool

    @staticmethod
    def parse(text: str, kwarg_only: bool) -> "Argument":
        text = text.strip()
        default = None
        if "=" in text:
            text, default = (part.strip() for part in text.split("=", 1))
        type_text, name = text.rsplit(" ", 1)
        return Argument(name=name, type=Type.parse(type_text), default=default, kwarg_only=kwarg_only)


@dataclass(frozen=True)
class Return:
    name: Optional[str]
    type: Type


def _split_top_level(text: str) -> List[str]:
    """Split on commas that are not inside brackets or parentheses."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return parts


@dataclass(frozen=True)
class FunctionSchema:
    name: str  # "add"
    overload_name: str  # "Tensor" or ""
    arguments: Tuple[Argument, ...]
    returns: Tuple[Return, ...]
    text: str  # the schema as written in the YAML

    @staticmethod
    def parse(text: str) -> "FunctionSchema":
        m = re.fullmatch(r"\s*([\w.]+)\((.*)\)\s*->\s*(.+?)\s*", text)
        if not m:
            raise ValueError(f"cannot parse schema {text!r}")
        full_name, args_text, returns_text = m.groups()
        name, _, overload = full_name.partition(".")
        arguments, kwarg_only = [], False
        for part in _split_top_level(args_text):
            if part.strip() == "*":
                kwarg_only = True
                continue
            arguments.append(Argument.parse(part, kwarg_only))
        returns_text = returns_text.strip()
        if returns_text == "()":
            returns = ()
        else:
            if returns_text.startswith("("):
                returns_text = returns_text[1:-1]
            returns = []
            for part in _split_top_level(returns_text):
                pieces = part.strip().rsplit(" ", 1)
                if len(pieces) == 2 and not pieces[1].endswith(")") and not pieces[1].endswith("]"):
                    returns.append(Return(name=pieces[1], type=Type.parse(pieces[0])))
                else:
                    returns.append(Return(name=None, type=Type.parse(part)))
            returns = tuple(returns)
        return FunctionSchema(name, overload, tuple(arguments), tuple(returns), text.strip())

    @property
    def full_name(self) -> str:
        return f"{self.name}.{self.overload_name}" if self.overload_name else self.name

    @property
    def is_inplace(self) -> bool:
        """add_: the name ends in _ and self is written to."""
        return self.name.endswith("_") and not self.name.endswith("__")

    @property
    def is_out(self) -> bool:
        return any(a.type.is_write and a.kwarg_only for a in self.arguments)

    @property
    def positional(self) -> List[Argument]:
        return [a for a in self.arguments if not a.kwarg_only]

    @property
    def kwarg_only_args(self) -> List[Argument]:
        return [a for a in self.arguments if a.kwarg_only]


@dataclass
class NativeFunction:
    """One entry of native_functions.yaml."""

    func: FunctionSchema
    variants: Tuple[str, ...]  # ("function",), ("function", "method"), ("method",)
    dispatch: dict  # {"CPU": "add_cpu", "CompositeExplicitAutograd": "zeros"}
    device_check: bool  # False for "device_check: NoCheck" (TensorIterator checks itself)
    python_module: Optional[str] = None
    yaml_line: int = 0
    manual_cpp_binding: bool = False

    @property
    def has_composite_implicit(self) -> bool:
        return "CompositeImplicitAutograd" in self.dispatch

    @property
    def is_factory(self) -> bool:
        """No tensor inputs, but a device argument: BackendSelect chooses the backend."""
        args = self.func.arguments
        return not any(a.type.is_tensor_like for a in args) and any(
            a.name == "device" and a.type.base == "Device" for a in args
        )


def parse_native_yaml(path: str) -> List[NativeFunction]:
    import yaml

    with open(path) as f:
        text = f.read()
    entries = yaml.safe_load(text)
    # Line numbers, so each generated function can name the YAML entry it came from.
    lines = {}
    for lineno, line in enumerate(text.splitlines(), 1):
        m = re.match(r"- func: ([\w.]+)\(", line)
        if m:
            lines[m.group(1)] = lineno
    functions = []
    for e in entries:
        schema = FunctionSchema.parse(e["func"])
        variants = tuple(v.strip() for v in e.get("variants", "function").split(","))
        dispatch = {}
        for keys, kernel in (e.get("dispatch") or {}).items():
            for key in keys.split(","):
                dispatch[key.strip()] = kernel
        if not dispatch:
            # No dispatch section: a CompositeImplicitAutograd kernel named after the operator.
            dispatch = {"CompositeImplicitAutograd": schema.name}
        functions.append(
            NativeFunction(
                func=schema,
                variants=variants,
                dispatch=dispatch,
                device_check=e.get("device_check", "ExactSame") != "NoCheck",
                python_module=e.get("python_module"),
                yaml_line=lines.get(schema.full_name, 0),
                manual_cpp_binding=bool(e.get("manual_cpp_binding", False)),
            )
        )
    return functions
