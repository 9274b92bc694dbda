"""tools/codegen/cpp.py - how schema types and defaults are spelled in the C++ API.

Mirrors PyTorch's torchgen/api/cpp.py. Guide: docs/source/internals/generated_code.rst.
"""

from typing import List

from tools.codegen.model import Argument, FunctionSchema, NativeFunction, Type

_BASE = {
    "Scalar": "at::Scalar",
    "int": "int64_t",
    "float": "double",
    "bool": "bool",
    "str": "c10::string_view",
    "ScalarType": "at::ScalarType",
    "Device": "at::Device",
    "Layout": "at::Layout",
    "MemoryFormat": "at::MemoryFormat",
    "Generator": "at::Generator",  # Generator? -> std::optional<at::Generator>
}


def argument_type(t: Type) -> str:
    """The C++ parameter type of an argument of schema type t."""
    if t.base == "Tensor":
        if t.is_list and t.elem_optional:
            # Tensor?[] (index, index_put_): PyTorch passes a c10::List<std::optional<Tensor>>;
            # an ArrayRef over the same elements does here (DispatchKeyExtractor.h sees inside).
            return "c10::ArrayRef<::std::optional<at::Tensor>>"
        if t.is_list:
            return "at::TensorList"
        if t.is_optional:
            return "const ::std::optional<at::Tensor> &"
        # Mutated tensors (self of add_, out=) are passed by non-const reference.
        return "at::Tensor &" if t.is_write else "const at::Tensor &"
    if t.is_list:
        if t.base == "int":
            return "at::OptionalIntArrayRef" if t.is_optional else "at::IntArrayRef"
        if t.base == "bool" and t.list_size:
            # bool[3] output_mask (convolution_backward): which gradients the caller wants.
            return f"::std::array<bool,{t.list_size}>"
        raise ValueError(f"unsupported list type {t}")
    base = _BASE[t.base]
    if t.base == "Scalar" and not t.is_optional:
        return "const at::Scalar &"
    if t.is_optional:
        return f"::std::optional<{base}>"
    return base


def return_type(func: FunctionSchema) -> str:
    def one(t: Type) -> str:
        if t.base == "Tensor":
            if t.is_list:
                return "::std::vector<at::Tensor>"
            return "at::Tensor &" if t.is_write else "at::Tensor"
        return _BASE[t.base] if t.base != "Scalar" else "at::Scalar"

    if not func.returns:
        return "void"
    if len(func.returns) == 1:
        return one(func.returns[0].type)
    return "::std::tuple<" + ",".join(one(r.type) for r in func.returns) + ">"


def default_value(arg: Argument) -> str:
    """A YAML default ("None", "1", "False", "[]", "contiguous_format") as a C++ expression."""
    d = arg.default
    t = arg.type
    if d == "None":
        return "::std::nullopt"
    if d in ("True", "False"):
        return d.lower()
    if d == "[]":
        return "{}"
    if d.startswith("["):
        return "{" + d[1:-1] + "}"
    if d == "contiguous_format":
        return "c10::MemoryFormat::Contiguous"
    if d == "long":
        return "at::kLong"
    if d in ("Mean", "Sum"):  # int reduction=Mean (ATen/core/Reduction.h)
        return f"at::Reduction::{d}"
    if d.startswith('"') or d.startswith("'"):
        return '"' + d[1:-1] + '"'
    if t.base == "int" and t.is_list:
        return "{" + d + "}"
    return d


def arguments(func: FunctionSchema, with_defaults: bool, skip_self: bool = False) -> List[str]:
    """C++ parameter declarations, in schema order (positional, then keyword-only)."""
    args = [a for a in func.arguments if not (skip_self and a.name == "self")]
    # C++ allows defaults only on a trailing run of parameters: add.out(self, other, *,
    # alpha=1, out) keeps alpha's default in the schema but not in C++ (as in PyTorch).
    first_default = len(args)
    while first_default > 0 and args[first_default - 1].default is not None:
        first_default -= 1
    decls = []
    for i, a in enumerate(args):
        decl = f"{argument_type(a.type)} {a.name}"
        if with_defaults and a.default is not None and i >= first_default:
            decl += f"={default_value(a)}"
        decls.append(decl)
    return decls


def argument_names(func: FunctionSchema) -> List[str]:
    return [a.name for a in func.arguments]


def signature_type(func: FunctionSchema) -> str:
    """The operator's C++ function type, as the dispatcher checks it: Ret (Args...)."""
    return f"{return_type(func)} ({', '.join(argument_type(a.type) for a in func.arguments)})"


def op_struct_name(func: FunctionSchema) -> str:
    """at::_ops::add_Tensor, at::_ops::empty_memory_format."""
    name = func.name
    if func.overload_name:
        name += "_" + func.overload_name
    return name


def native_kernel_declaration(f: NativeFunction, kernel: str) -> str:
    return f"TORCH_API {return_type(f.func)} {kernel}({', '.join(arguments(f.func, with_defaults=True))});"
