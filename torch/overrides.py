"""torch.overrides: the __torch_function__ protocol for functions written in Python.

Mirrors PyTorch's torch/overrides.py. Guide: docs/source/internals/python_bindings.rst.

The C++ bindings check their arguments themselves (torch/csrc/utils/disable_torch_function.cpp);
a torch function written in Python does the same with these two helpers::

    def my_op(input, other):
        if has_torch_function((input, other)):
            return handle_torch_function(my_op, (input, other), input, other)
        ...
"""

import torch
from torch._C import _disabled_torch_function_impl  # noqa: F401
from torch._C import _has_torch_function, _is_torch_function_enabled

__all__ = ["has_torch_function", "handle_torch_function", "is_tensor_like"]


def has_torch_function(relevant_args) -> bool:
    """True if any argument's type overrides __torch_function__ (plain tensors do not)."""
    return _has_torch_function(relevant_args)


def _get_overloaded_args(relevant_args):
    """The arguments to offer the call to: one per type, subclasses before their bases."""
    overloaded_types, overloaded_args = set(), []
    for arg in relevant_args:
        arg_type = type(arg)
        if arg_type in overloaded_types or not has_torch_function((arg,)):
            continue
        index = len(overloaded_args)
        for i, old_arg in enumerate(overloaded_args):
            if issubclass(arg_type, type(old_arg)):
                index = i
                break
        overloaded_types.add(arg_type)
        overloaded_args.insert(index, arg)
    return overloaded_args


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Call the first __torch_function__ override that does not return NotImplemented."""
    overloaded_args = _get_overloaded_args(relevant_args)
    types = tuple(type(arg) for arg in overloaded_args)
    for overloaded_arg in overloaded_args:
        result = type(overloaded_arg).__torch_function__(public_api, types, args, kwargs)
        if result is not NotImplemented:
            return result
    func_name = f"{public_api.__module__}.{public_api.__name__}"
    raise TypeError(
        f"no implementation found for '{func_name}' on types that implement "
        f"__torch_function__: {[type(arg) for arg in overloaded_args]}"
    )


def is_tensor_like(inp) -> bool:
    """A torch.Tensor, or anything whose type defines __torch_function__."""
    return type(inp) is torch.Tensor or hasattr(inp, "__torch_function__")


def _is_enabled() -> bool:
    return _is_torch_function_enabled()
