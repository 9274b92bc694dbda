"""torch/nn/modules/module.py - nn.Module: the base class of every layer and model.

Mirrors PyTorch's torch/nn/modules/module.py. Guide: docs/source/internals/python_layer.rst.

A Module keeps three ordered dicts: _parameters (Parameter or None), _buffers (Tensor or
None) and _modules (child Module or None). Assigning an attribute routes the value into
the right dict (__setattr__); reading one looks there when ordinary lookup fails
(__getattr__). Everything else walks those dicts: parameters() and named_modules() recurse
through _modules, state_dict() writes "child.name" keys, to()/float() rewrite the tensors
(_apply). Calling a module (__call__ = _call_impl) runs forward pre-hooks, forward, forward
hooks, and wraps inputs and outputs for full backward hooks (torch/utils/hooks.py).
"""

import itertools
from collections import OrderedDict, namedtuple
from typing import Any, Callable, Dict, Iterator, List, Optional, Set, Tuple

import torch
from torch.nn.parameter import Parameter
from torch.utils.hooks import BackwardHook, RemovableHandle, _add_hook

__all__ = [
    "Module",
    "register_module_forward_pre_hook",
    "register_module_forward_hook",
    "register_module_full_backward_hook",
]

# Hooks every module runs (torch.nn.modules.module.register_module_forward_hook ...).
_global_forward_pre_hooks: Dict[int, Callable] = OrderedDict()
_global_forward_hooks: Dict[int, Callable] = OrderedDict()
_global_backward_hooks: Dict[int, Callable] = OrderedDict()


def register_module_forward_pre_hook(hook: Callable) -> RemovableHandle:
    """A forward pre-hook that every module runs before its own."""
    return _add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook: Callable) -> RemovableHandle:
    """A forward hook that every module runs before its own."""
    return _add_hook(_global_forward_hooks, hook)


def register_module_full_backward_hook(hook: Callable) -> RemovableHandle:
    """A full backward hook that every module runs before its own."""
    return _add_hook(_global_backward_hooks, hook)


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What load_state_dict returns: the keys it did not find, and those it did not expect."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(s_: str, numSpaces: int) -> str:
    """Indent every line but the first (how a child's repr nests inside its parent's)."""
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    s = [(numSpaces * " ") + line for line in s]
    return first + "\n" + "\n".join(s)


def _forward_unimplemented(self, *input: Any) -> None:
    raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')


class Module:
    r"""A layer or a whole model: it holds parameters, buffers and child modules, and ``forward``.

    >>> class Model(torch.nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc = torch.nn.Linear(3, 2)
    ...     def forward(self, x):
    ...         return self.fc(x).relu()
    >>> Model()
    Model(
      (fc): Linear(in_features=3, out_features=2, bias=True)
    )
    >>> [name for name, _ in Model().named_parameters()]
    ['fc.weight', 'fc.bias']
    """

    dump_patches: bool = False
    _version: int = 1
    training: bool
    call_super_init: bool = False

    def __init__(self, *args, **kwargs) -> None:
        if not self.call_super_init and bool(kwargs):
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument '{next(iter(kwargs))}'"
            )
        if not self.call_super_init and bool(args):
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but {len(args) + 1} were given"
            )
        # object.__setattr__ skips Module.__setattr__ (which needs these dicts to exist).
        super().__setattr__("training", True)
        super().__setattr__("_parameters", OrderedDict())
        super().__setattr__("_buffers", OrderedDict())
        super().__setattr__("_non_persistent_buffers_set", set())
        super().__setattr__("_backward_pre_hooks", OrderedDict())
        super().__setattr__("_backward_hooks", OrderedDict())
        super().__setattr__("_is_full_backward_hook", None)
        super().__setattr__("_forward_hooks", OrderedDict())
        super().__setattr__("_forward_hooks_with_kwargs", OrderedDict())
        super().__setattr__("_forward_hooks_always_called", OrderedDict())
        super().__setattr__("_forward_pre_hooks", OrderedDict())
        super().__setattr__("_forward_pre_hooks_with_kwargs", OrderedDict())
        super().__setattr__("_state_dict_hooks", OrderedDict())
        super().__setattr__("_state_dict_pre_hooks", OrderedDict())
        super().__setattr__("_load_state_dict_pre_hooks", OrderedDict())
        super().__setattr__("_load_state_dict_post_hooks", OrderedDict())
        super().__setattr__("_modules", OrderedDict())
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    forward: Callable[..., Any] = _forward_unimplemented

    # ---- registration ----
    def register_buffer(self, name: str, tensor: Optional[torch.Tensor], persistent: bool = True) -> None:
        r"""Add a tensor that is state but not a parameter (BatchNorm's running_mean, say).

        A persistent buffer is part of state_dict(); a non-persistent one is not."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {torch.typename(name)}")
        elif "." in name:
            raise KeyError('buffer name can\'t contain "."')
        elif name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        elif hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        elif tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(
                f"cannot assign '{torch.typename(tensor)}' object to buffer '{name}' (torch Tensor or None required)"
            )
        else:
            self._buffers[name] = tensor
            if persistent:
                self._non_persistent_buffers_set.discard(name)
            else:
                self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param: Optional[Parameter]) -> None:
        r"""Add a parameter under name (what ``self.name = Parameter(...)`` does)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {torch.typename(name)}")
        elif "." in name:
            raise KeyError('parameter name can\'t contain "."')
        elif name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        elif hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")

        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{torch.typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        elif param.grad_fn:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model "
                f"parameters must be created explicitly. To express '{name}' "
                "as a function of another Tensor, compute the value in "
                "the forward() method."
            )
        else:
            self._parameters[name] = param

    def add_module(self, name: str, module: Optional["Module"]) -> None:
        r"""Add a child module under name (what ``self.name = SomeModule()`` does)."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{torch.typename(module)} is not a Module subclass")
        elif not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {torch.typename(name)}")
        elif hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        elif "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        elif name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    def register_module(self, name: str, module: Optional["Module"]) -> None:
        r"""Alias for add_module."""
        self.add_module(name, module)

    def get_submodule(self, target: str) -> "Module":
        r"""The submodule at a dotted path ("net.0"), or AttributeError."""
        if target == "":
            return self
        atoms: List[str] = target.split(".")
        mod: Module = self
        for item in atoms:
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, torch.nn.Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def get_parameter(self, target: str) -> Parameter:
        r"""The parameter at a dotted path ("net.0.weight"), or AttributeError."""
        module_path, _, param_name = target.rpartition(".")
        mod: Module = self.get_submodule(module_path)
        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")
        param: Parameter = getattr(mod, param_name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")
        return param

    # ---- attribute routing ----
    def __getattr__(self, name: str) -> Any:
        # Only called when ordinary lookup fails: parameters, buffers and modules live in dicts.
        if "_parameters" in self.__dict__:
            _parameters = self.__dict__["_parameters"]
            if name in _parameters:
                return _parameters[name]
        if "_buffers" in self.__dict__:
            _buffers = self.__dict__["_buffers"]
            if name in _buffers:
                return _buffers[name]
        if "_modules" in self.__dict__:
            modules = self.__dict__["_modules"]
            if name in modules:
                return modules[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        def remove_from(*dicts_or_sets):
            for d in dicts_or_sets:
                if name in d:
                    if isinstance(d, dict):
                        del d[name]
                    else:
                        d.discard(name)

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{torch.typename(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(
                        f"cannot assign '{torch.typename(value)}' as child module '{name}' "
                        "(torch.nn.Module or None expected)"
                    )
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, torch.Tensor):
                        raise TypeError(
                            f"cannot assign '{torch.typename(value)}' as buffer '{name}' "
                            "(torch.Tensor or None expected)"
                        )
                    buffers[name] = value
                else:
                    super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            super().__delattr__(name)

    def __dir__(self):
        module_attrs = dir(self.__class__)
        attrs = list(self.__dict__.keys())
        parameters = list(self._parameters.keys())
        modules = list(self._modules.keys())
        buffers = list(self._buffers.keys())
        keys = module_attrs + attrs + parameters + modules + buffers
        keys = [key for key in keys if not key[0].isdigit()]
        return sorted(keys)

    def __setstate__(self, state):
        self.__dict__.update(state)

    # ---- walking the tree ----
    def _named_members(self, get_members_fn, prefix="", recurse=True, remove_duplicate: bool = True):
        """Members from every module (or only this one), each object once unless asked."""
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            members = get_members_fn(module)
            for k, v in members:
                if v is None or v in memo:
                    continue
                if remove_duplicate:
                    memo.add(v)
                name = module_prefix + ("." if module_prefix else "") + k
                yield name, v

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        r"""The module's parameters (and, with recurse, its descendants'), each once."""
        for _name, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[Tuple[str, Parameter]]:
        r"""(dotted name, parameter) pairs: "0.weight", "0.bias", ..."""
        gen = self._named_members(
            lambda module: module._parameters.items(), prefix=prefix, recurse=recurse,
            remove_duplicate=remove_duplicate,
        )
        yield from gen

    def buffers(self, recurse: bool = True) -> Iterator[torch.Tensor]:
        r"""The module's buffers (and, with recurse, its descendants')."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[Tuple[str, torch.Tensor]]:
        r"""(dotted name, buffer) pairs."""
        gen = self._named_members(
            lambda module: module._buffers.items(), prefix=prefix, recurse=recurse,
            remove_duplicate=remove_duplicate,
        )
        yield from gen

    def children(self) -> Iterator["Module"]:
        r"""The immediate child modules."""
        for _name, module in self.named_children():
            yield module

    def named_children(self) -> Iterator[Tuple[str, "Module"]]:
        r"""(name, child) pairs for the immediate children, each child once."""
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def modules(self) -> Iterator["Module"]:
        r"""Every module in the tree, this one first (depth first), each once."""
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo: Optional[Set["Module"]] = None, prefix: str = "", remove_duplicate: bool = True):
        r"""(dotted name, module) for every module in the tree; this one has name prefix ("")."""
        if memo is None:
            memo = set()
        if self not in memo:
            if remove_duplicate:
                memo.add(self)
            yield prefix, self
            for name, module in self._modules.items():
                if module is None:
                    continue
                submodule_prefix = prefix + ("." if prefix else "") + name
                yield from module.named_modules(memo, submodule_prefix, remove_duplicate)

    # ---- modes, gradients, conversions ----
    def train(self, mode: bool = True) -> "Module":
        r"""Set training mode here and in every descendant (Dropout, BatchNorm read it)."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> "Module":
        r"""train(False)."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> "Module":
        r"""Set requires_grad on every parameter (freezing a part of a model, say)."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        r"""Drop (set_to_none=True, the default) or zero every parameter's .grad."""
        for p in self.parameters():
            torch._tensor._clear_grad(p, set_to_none)

    def _apply(self, fn, recurse=True):
        """Replace every parameter, its grad and every buffer by fn(tensor) (to, float, double ...)."""
        if recurse:
            for module in self.children():
                module._apply(fn)

        for key, param in self._parameters.items():
            if param is None:
                continue
            # As PyTorch does: param.data = fn(param), so the Parameter object (and every
            # reference to it, an optimizer's) stays, now over the converted data
            # (VariableHooks::set_data in torch/csrc/autograd/variable.cpp).
            with torch.no_grad():
                param_applied = fn(param)
            param.data = param_applied
            if param.grad is not None:
                with torch.no_grad():
                    grad_applied = fn(param.grad)
                param.grad.data = grad_applied

        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def apply(self, fn: Callable[["Module"], None]) -> "Module":
        r"""Call fn on every child (recursively), then on self: ``model.apply(init_weights)``."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def to(self, *args, **kwargs) -> "Module":
        r"""Move and/or cast parameters and buffers: to(device), to(dtype), to(device, dtype),
        to(tensor). Only floating point (and complex) tensors change dtype."""
        device, dtype, non_blocking = None, None, False
        for a in args:
            if isinstance(a, torch.dtype):
                dtype = a
            elif isinstance(a, torch.Tensor):
                device, dtype = a.device, a.dtype
            elif isinstance(a, (str, torch.device, int)):
                device = torch.device(a) if not isinstance(a, int) else torch.device("cuda", a)
            elif isinstance(a, bool):
                non_blocking = a
            else:
                raise TypeError(f"to() received an invalid combination of arguments - got {a!r}")
        if "device" in kwargs:
            device = torch.device(kwargs["device"]) if kwargs["device"] is not None else None
        if "dtype" in kwargs:
            dtype = kwargs["dtype"]
        non_blocking = kwargs.get("non_blocking", non_blocking)
        if dtype is not None:
            if not (dtype.is_floating_point or dtype.is_complex):
                raise TypeError(
                    "nn.Module.to only accepts floating point or complex "
                    f"dtypes, but got desired dtype={dtype}"
                )

        def convert(t):
            if t.is_floating_point() or t.is_complex():
                return t.to(device=device if device is not None else t.device, dtype=dtype or t.dtype,
                            non_blocking=non_blocking)
            return t.to(device=device if device is not None else t.device, non_blocking=non_blocking)

        return self._apply(convert)

    def cpu(self) -> "Module":
        r"""Move every parameter and buffer to the CPU."""
        return self._apply(lambda t: t.to(device=torch.device("cpu")))

    def cuda(self, device=None) -> "Module":
        r"""Move every parameter and buffer to a CUDA device."""
        dev = torch.device("cuda") if device is None else torch.device("cuda", device) if isinstance(device, int) \
            else torch.device(device)
        return self._apply(lambda t: t.to(device=dev))

    def type(self, dst_type) -> "Module":
        r"""Cast every parameter and buffer to dst_type."""
        return self._apply(lambda t: t.to(dtype=dst_type))

    def float(self) -> "Module":
        r"""Cast floating point parameters and buffers to float32."""
        return self._apply(lambda t: t.to(dtype=torch.float32) if t.is_floating_point() else t)

    def double(self) -> "Module":
        r"""Cast floating point parameters and buffers to float64."""
        return self._apply(lambda t: t.to(dtype=torch.float64) if t.is_floating_point() else t)

    def half(self) -> "Module":
        r"""Cast floating point parameters and buffers to float16."""
        return self._apply(lambda t: t.to(dtype=torch.float16) if t.is_floating_point() else t)

    def bfloat16(self) -> "Module":
        r"""Cast floating point parameters and buffers to bfloat16."""
        return self._apply(lambda t: t.to(dtype=torch.bfloat16) if t.is_floating_point() else t)

    # ---- hooks ----
    def register_forward_pre_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False):
        r"""hook(module, args) -> None or new args, run before forward.
        With with_kwargs=True: hook(module, args, kwargs) -> None or (new_args, new_kwargs)."""
        handle = _add_hook(self._forward_pre_hooks, hook, prepend)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def register_forward_hook(self, hook, *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False):
        r"""hook(module, args, output) -> None or new output, run after forward.
        With with_kwargs=True: hook(module, args, kwargs, output)."""
        handle = _add_hook(self._forward_hooks, hook, prepend)
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def register_full_backward_pre_hook(self, hook, prepend: bool = False):
        r"""hook(module, grad_output) -> None or new grad_output, run when the gradients with
        respect to the module's outputs are computed."""
        return _add_hook(self._backward_pre_hooks, hook, prepend)

    def register_full_backward_hook(self, hook, prepend: bool = False):
        r"""hook(module, grad_input, grad_output) -> None or new grad_input, run when the
        gradients with respect to the module's inputs are computed."""
        if self._is_full_backward_hook is False:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a "
                "single Module. Please use only one of them."
            )
        self._is_full_backward_hook = True
        return _add_hook(self._backward_hooks, hook, prepend)

    def _get_backward_hooks(self):
        full_backward_hooks = []
        if _global_backward_hooks:
            full_backward_hooks += _global_backward_hooks.values()
        if self._is_full_backward_hook:
            full_backward_hooks += self._backward_hooks.values()
        return full_backward_hooks, list(self._backward_pre_hooks.values())

    # [marker: call_impl]
    def _call_impl(self, *args, **kwargs):
        forward_call = self.forward
        # The fast path: no hooks anywhere.
        if not (self._backward_hooks or self._backward_pre_hooks or self._forward_hooks
                or self._forward_pre_hooks or _global_backward_hooks or _global_forward_hooks
                or _global_forward_pre_hooks):
            return forward_call(*args, **kwargs)

        full_backward_hooks, backward_pre_hooks = self._get_backward_hooks()

        for hook_id, hook in (*_global_forward_pre_hooks.items(), *self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                args_kwargs_result = hook(self, args, kwargs)
                if args_kwargs_result is not None:
                    if isinstance(args_kwargs_result, tuple) and len(args_kwargs_result) == 2:
                        args, kwargs = args_kwargs_result
                    else:
                        raise RuntimeError(
                            "forward pre-hook must return None or a tuple "
                            f"of (new_args, new_kwargs), but got {args_kwargs_result}."
                        )
            else:
                args_result = hook(self, args)
                if args_result is not None:
                    if not isinstance(args_result, tuple):
                        args_result = (args_result,)
                    args = args_result

        bw_hook = None
        if full_backward_hooks or backward_pre_hooks:
            bw_hook = BackwardHook(self, full_backward_hooks, backward_pre_hooks)
            args = bw_hook.setup_input_hook(args)

        result = forward_call(*args, **kwargs)

        for hook_id, hook in (*_global_forward_hooks.items(), *self._forward_hooks.items()):
            if hook_id in self._forward_hooks_with_kwargs:
                hook_result = hook(self, args, kwargs, result)
            else:
                hook_result = hook(self, args, result)
            if hook_result is not None:
                result = hook_result

        if bw_hook:
            result = bw_hook.setup_output_hook(result)
        return result

    __call__: Callable[..., Any] = _call_impl
    # [end marker: call_impl]

    # ---- state_dict ----
    def register_state_dict_pre_hook(self, hook):
        r"""hook(module, prefix, keep_vars), run before state_dict() collects this module."""
        return _add_hook(self._state_dict_pre_hooks, hook)

    def register_load_state_dict_post_hook(self, hook):
        r"""hook(module, incompatible_keys), run after load_state_dict; may edit the key lists."""
        return _add_hook(self._load_state_dict_post_hooks, hook)

    # [marker: save_to_state_dict]
    def _save_to_state_dict(self, destination, prefix, keep_vars):
        """Write this module's own parameters and persistent buffers (not its children's)."""
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
    # [end marker: save_to_state_dict]

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        r"""An OrderedDict of every parameter and persistent buffer, by dotted name.

        The values are detached aliases (they share memory with the module's tensors) unless
        keep_vars=True, which gives the Parameters themselves."""
        if len(args) > 0:
            # Positional form (destination, prefix, keep_vars), deprecated in PyTorch.
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()

        local_metadata = dict(version=self._version)
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata

        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            hook_result = hook(self, destination, prefix, local_metadata)
            if hook_result is not None:
                destination = hook_result
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs):
        """Copy this module's own entries from state_dict; record what is missing or unexpected.

        Subclasses override this to read old layouts (BatchNorm's num_batches_tracked)."""
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)

        persistent_buffers = {k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set}
        local_name_params = itertools.chain(self._parameters.items(), persistent_buffers.items())
        local_state = {k: v for k, v in local_name_params if v is not None}

        for name, param in local_state.items():
            key = prefix + name
            if key in state_dict:
                input_param = state_dict[key]
                if not isinstance(input_param, torch.Tensor):
                    error_msgs.append(
                        f'While copying the parameter named "{key}", '
                        "expected torch.Tensor or Tensor-like object from checkpoint but "
                        f"received {type(input_param)}"
                    )
                    continue
                if input_param.shape != param.shape:
                    error_msgs.append(
                        f"size mismatch for {key}: copying a param with shape {input_param.shape} from checkpoint, "
                        f"the shape in current model is {param.shape}."
                    )
                    continue
                try:
                    with torch.no_grad():
                        param.copy_(input_param)
                except Exception as ex:
                    error_msgs.append(
                        f'While copying the parameter named "{key}", '
                        f"whose dimensions in the model are {param.size()} and "
                        f"whose dimensions in the checkpoint are {input_param.size()}, "
                        f"an exception occurred : {ex.args}."
                    )
            elif strict:
                missing_keys.append(key)

        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix):
                    input_name = key[len(prefix):].split(".", 1)
                    # A key for a child module is the child's business; others are unexpected.
                    if input_name[0] not in self._modules and input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict: bool = True, assign: bool = False):
        r"""Copy parameters and buffers from state_dict into this module and its descendants.

        With strict=True (the default) a missing or unexpected key is an error; either way
        the keys are returned as _IncompatibleKeys(missing_keys, unexpected_keys)."""
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")

        missing_keys: List[str] = []
        unexpected_keys: List[str] = []
        error_msgs: List[str] = []

        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            module._load_from_state_dict(
                local_state_dict, prefix, local_metadata, True, missing_keys, unexpected_keys, error_msgs
            )
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    child_state_dict = {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}
                    load(child, child_state_dict, child_prefix)  # noqa: F821 - runs before `del load`
            incompatible_keys = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                out = hook(module, incompatible_keys)
                assert out is None, (
                    "Hooks registered with ``register_load_state_dict_post_hook`` are not "
                    "expected to return new values, if incompatible_keys need to be modified, "
                    "it should be done inplace."
                )

        load(self, state_dict)
        del load

        if strict:
            if len(unexpected_keys) > 0:
                error_msgs.insert(
                    0,
                    "Unexpected key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in unexpected_keys)),
                )
            if len(missing_keys) > 0:
                error_msgs.insert(
                    0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing_keys))
                )
        if len(error_msgs) > 0:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(self.__class__.__name__, "\n\t".join(error_msgs))
            )
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # ---- printing ----
    def _get_name(self):
        return self.__class__.__name__

    def extra_repr(self) -> str:
        r"""The text inside a module's parentheses; layers override it ("in_features=3, ...")."""
        return ""

    def __repr__(self):
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            mod_str = repr(module)
            mod_str = _addindent(mod_str, 2)
            child_lines.append("(" + key + "): " + mod_str)
        lines = extra_lines + child_lines

        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        main_str += ")"
        return main_str
