"""torch.library: define operators and register their kernels from Python.

Mirrors PyTorch's torch/library.py and torch/_library/custom_ops.py. Guide:
docs/source/internals/cpp_extensions.rst.

The low level is the dispatcher's own: ``Library("mylib", "DEF").define(schema)`` is
TORCH_LIBRARY's ``m.def``, ``lib.impl(name, fn, "CPU")`` registers a kernel written in Python
(the dispatcher calls it boxed, torch/csrc/utils/python_dispatch.cpp). The high level is
PyTorch's current recipe for custom operators:

    @torch.library.custom_op("mylib::scale", mutates_args=())
    def scale(x: torch.Tensor, s: float) -> torch.Tensor:   # the schema comes from the hints
        return x * s

    scale.register_fake(lambda x, s: torch.empty_like(x))   # shapes and dtypes only
    scale.register_autograd(backward, setup_context=setup_context)
    torch.library.opcheck(scale, (torch.randn(3), 2.0))

The same register_* functions take an operator defined in C++ (``"myops::lltm"``), so a C++
extension's operator gets its autograd formula or fake kernel from Python.
"""

import collections.abc
import inspect
import sys
import types
import typing
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import torch
from torch import _C

__all__ = [
    "Library", "define", "impl", "custom_op", "register_fake", "register_autograd", "register_kernel",
    "infer_schema", "opcheck", "CustomOpDef",
]

# Libraries made by define()/impl() without lib=, kept alive for the life of the process.
_keep_alive: List["Library"] = []
# Per qualified name: the Python callables registered for it, by kind ("fake", "autograd").
_registry: Dict[str, Dict[str, Any]] = {}


class Library:
    """A group of registrations in one namespace: kind "DEF" (defines operators, one per
    namespace, like TORCH_LIBRARY), "FRAGMENT" (defines more), "IMPL" (kernels only, for
    dispatch_key, like TORCH_LIBRARY_IMPL). The registrations last while the object does."""

    def __init__(self, ns: str, kind: str, dispatch_key: str = ""):
        if kind not in ("IMPL", "DEF", "FRAGMENT"):
            raise ValueError("Unsupported kind: ", kind)
        frame = sys._getframe(1)
        self.m = _C._dispatch_library(kind, ns, dispatch_key, frame.f_code.co_filename, frame.f_lineno)
        self.ns = ns
        self.kind = kind
        self.dispatch_key = dispatch_key
        self._op_defs = set()

    def __repr__(self):
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})>"

    def define(self, schema: str, alias_analysis: str = "", *, tags=()) -> str:
        """Declare an operator: lib.define("scale(Tensor x, float s) -> Tensor")."""
        name = self.m.define(schema)
        qualified = f"{self.ns}::{name.split('.')[0]}"
        self._op_defs.add(qualified)
        return name

    def impl(self, op_name, fn: Callable, dispatch_key: str = "", *, with_keyset: bool = False):
        """Register fn as op_name's kernel for dispatch_key ("CPU", "CUDA", "Meta",
        "Autograd", "CompositeImplicitAutograd", ...); default: the library's key."""
        if with_keyset:
            raise NotImplementedError("with_keyset=True is not supported by this build")
        if not callable(fn):
            raise TypeError(f"Input function is required to be a callable but found type {type(fn)}")
        if isinstance(op_name, str):
            name = op_name
        elif isinstance(op_name, torch._ops.OpOverload):
            name = op_name._name
        else:
            raise RuntimeError("impl should be passed either a name or an OpOverload object as the first argument")
        key = dispatch_key or self.dispatch_key or "CompositeImplicitAutograd"
        if "::" in name:
            ns, _, name = name.partition("::")
            if ns != self.ns:
                raise ValueError(f"This library is for namespace {self.ns}, not {ns}")
        self.m.impl(name, key, fn)

    def _destroy(self):
        # torch::Library's destructor undoes its registrations; this object owns the only one.
        self.m = None


def _parse_qualname(qualname: str) -> Tuple[str, str]:
    ns, sep, name = qualname.partition("::")
    if not sep or not ns or not name:
        raise ValueError(f"Expected `qualname` to be of the form \"namespace::name\", but got {qualname}.")
    return ns, name


def _lib_for(ns: str) -> Library:
    lib = Library(ns, "FRAGMENT")
    _keep_alive.append(lib)
    return lib


def define(qualname: str, schema: str, *, lib: Optional[Library] = None, tags=()) -> None:
    """torch.library.define("mylib::scale", "(Tensor x, float s) -> Tensor")."""
    ns, name = _parse_qualname(qualname)
    lib = lib or _lib_for(ns)
    lib.define(name + schema, tags=tags)


_DEVICE_KEYS = {"cpu": "CPU", "cuda": "CUDA", "meta": "Meta", "default": "CompositeExplicitAutograd"}


def impl(qualname: str, types: Union[str, Sequence[str]], func: Optional[Callable] = None, *,
         lib: Optional[Library] = None):
    """Register func for the device types ("cpu", "cuda") or dispatch keys named by types;
    usable as a decorator."""
    if isinstance(types, str):
        types = (types,)

    def register(fn):
        ns, name = _parse_qualname(qualname)
        library = lib or _lib_for(ns)
        for t in types:
            library.impl(name, fn, _DEVICE_KEYS.get(t, t))
        return fn

    return register if func is None else register(func)


def register_kernel(op, device_types, func: Optional[Callable] = None, *, lib: Optional[Library] = None):
    """The device-specific kernel of an operator: register_kernel("mylib::scale", "cpu", fn)."""
    if isinstance(op, CustomOpDef):
        return op.register_kernel(device_types, func)
    return impl(_qualname(op), device_types, func, lib=lib)


def _qualname(op) -> str:
    if isinstance(op, str):
        return op
    if isinstance(op, CustomOpDef):
        return op._name
    if isinstance(op, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
        return op._qualified_op_name if isinstance(op, torch._ops.OpOverloadPacket) else op._packet._qualified_op_name
    raise TypeError(f"expected an operator or its qualified name, got {type(op)}")


def infer_schema(prototype_function: Callable, /, *, mutates_args, op_name: Optional[str] = None) -> str:
    """The schema of a Python function from its type hints, as PyTorch writes it:
    (x: Tensor, n: int) -> Tensor gives "(Tensor x, SymInt n) -> Tensor"."""
    sig = inspect.signature(prototype_function)
    hints = typing.get_type_hints(prototype_function)
    if mutates_args == "unknown":
        mutates = {name for name, p in sig.parameters.items() if _schema_type(hints.get(name), name) in
                   ("Tensor", "Tensor?", "Tensor[]")}
    else:
        mutates = {mutates_args} if isinstance(mutates_args, str) else set(mutates_args)
    params, seen_kwonly, alias = [], False, 0
    for name, p in sig.parameters.items():
        if name not in hints:
            raise ValueError(f"infer_schema(func): Parameter {name} must have a type annotation.")
        if p.kind == inspect.Parameter.KEYWORD_ONLY and not seen_kwonly:
            params.append("*")
            seen_kwonly = True
        t = _schema_type(hints[name], name)
        if name in mutates:
            t = t.replace("Tensor", f"Tensor(a{alias}!)", 1)
            alias += 1
        default = ""
        if p.default is not inspect.Parameter.empty:
            default = "=" + ("None" if p.default is None else repr(p.default) if not isinstance(p.default, str)
                             else f'"{p.default}"')
        params.append(f"{t} {name}{default}")
    unknown = mutates - set(sig.parameters)
    if unknown:
        raise ValueError(f"infer_schema(func): {sorted(unknown)[0]} in mutates_args were not found in the "
                         "custom op's signature.")
    ret = _return_schema(hints.get("return", inspect.Signature.empty))
    schema = f"({', '.join(params)}) -> {ret}"
    return f"{op_name}{schema}" if op_name else schema


def _schema_type(hint, name: str) -> str:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Union or origin is types.UnionType:
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1 and len(args) == 2:
            return _schema_type(inner[0], name) + "?"
    if origin in (list, tuple, collections.abc.Sequence) and args:
        return _schema_type(args[0], name) + "[]"
    table = {torch.Tensor: "Tensor", int: "SymInt", float: "float", bool: "bool", str: "str",
             torch.dtype: "ScalarType", torch.device: "Device"}
    if hint in table:
        return table[hint]
    raise ValueError(f"infer_schema(func): Parameter {name} has unsupported type {hint}.")


def _return_schema(hint) -> str:
    if hint is None or hint is type(None):
        return "()"
    if hint is inspect.Signature.empty:
        raise ValueError("infer_schema(func): No return type annotation was provided. Please add one.")
    if typing.get_origin(hint) is tuple:
        return "(" + ", ".join(_schema_type(a, "return") for a in typing.get_args(hint)) + ")"
    return _schema_type(hint, "return")


# [marker: autograd_kernel]
def _make_autograd_kernel(qualname: str):
    """The Autograd kernel of an operator whose formula was registered from Python: the
    forward calls the operator again below autograd, backward is the registered function.
    Without a registered formula, the result's backward raises, as PyTorch's does."""
    op_ref = {}

    def op():
        if "op" not in op_ref:
            ns, name = _parse_qualname(qualname)
            op_ref["op"] = getattr(getattr(torch.ops, ns), name)
        return op_ref["op"]

    def kernel(*args):
        entry = _registry.get(qualname, {})
        backward_fn = entry.get("backward")
        setup_context = entry.get("setup_context")

        class Generated(torch.autograd.Function):
            @staticmethod
            def forward(ctx, *inputs):
                with _C._AutoDispatchBelowAutograd():
                    output = op()(*inputs)
                if setup_context is not None:
                    setup_context(ctx, inputs, output)
                return output

            @staticmethod
            def backward(ctx, *grads):
                if backward_fn is None:
                    raise RuntimeError(f"Trying to backward through {qualname.replace('::', '.')}.default but no "
                                       "autograd formula was registered. Please use register_autograd to add one.")
                result = backward_fn(ctx, *grads)
                if not isinstance(result, tuple):
                    result = (result,)
                return result

        Generated.__name__ = f"GeneratedBackwardFor_{qualname.replace('::', '_')}_default"
        if not any(isinstance(a, torch.Tensor) and a.requires_grad for a in _flat(args)) or not torch.is_grad_enabled():
            with _C._AutoDispatchBelowAutograd():
                return op()(*args)
        return Generated.apply(*args)

    return kernel


def _flat(args):
    for a in args:
        if isinstance(a, (list, tuple)):
            yield from a
        else:
            yield a
# [end marker: autograd_kernel]


def _ensure_autograd_kernel(qualname: str, lib: Optional[Library] = None) -> None:
    entry = _registry.setdefault(qualname, {})
    if not entry.get("autograd_registered"):
        ns, name = _parse_qualname(qualname)
        (lib or _lib_for(ns)).impl(name, _make_autograd_kernel(qualname), "Autograd")
        entry["autograd_registered"] = True


def register_autograd(op, backward: Callable, /, *, setup_context: Optional[Callable] = None,
                      lib: Optional[Library] = None) -> None:
    """The operator's derivative: backward(ctx, *grads) returns one gradient per input (None for
    the others); setup_context(ctx, inputs, output) saves what backward needs."""
    if isinstance(op, CustomOpDef):
        return op.register_autograd(backward, setup_context=setup_context)
    qualname = _qualname(op)
    entry = _registry.setdefault(qualname, {})
    entry["backward"], entry["setup_context"] = backward, setup_context
    _ensure_autograd_kernel(qualname, lib)


def register_fake(op, func: Optional[Callable] = None, /, *, lib: Optional[Library] = None, _stacklevel=1):
    """The operator's fake kernel: what it returns (shapes, dtypes, devices) without computing
    it. Registered at the Meta key, so the operator runs on meta tensors; opcheck compares
    its results with the real kernel's."""
    if isinstance(op, CustomOpDef):
        return op.register_fake(func)

    def register(fn):
        qualname = _qualname(op)
        _registry.setdefault(qualname, {})["fake"] = fn
        ns, name = _parse_qualname(qualname)
        (lib or _lib_for(ns)).impl(name, fn, "Meta")
        return fn

    return register if func is None else register(func)


class CustomOpDef:
    """What @custom_op makes: callable like the function, and the handle for its registrations."""

    def __init__(self, namespace: str, name: str, schema: str, fn: Callable, device_types=None):
        self._namespace = namespace
        self._name = f"{namespace}::{name}"
        self._init_fn = fn
        self._lib = _lib_for(namespace)
        self._lib.define(name + schema)
        keys = ["CompositeExplicitAutograd"] if device_types is None else [
            _DEVICE_KEYS[d] for d in ([device_types] if isinstance(device_types, str) else device_types)]
        for key in keys:
            self._lib.impl(name, fn, key)
        _ensure_autograd_kernel(self._name, self._lib)
        self.__name__ = name
        self.__doc__ = fn.__doc__

    def __repr__(self):
        return f"<CustomOpDef({self._name})>"

    @property
    def _opoverload(self):
        ns, name = _parse_qualname(self._name)
        return getattr(getattr(torch.ops, ns), name).default

    def __call__(self, *args, **kwargs):
        return self._opoverload(*args, **kwargs)

    def register_kernel(self, device_types, fn: Optional[Callable] = None):
        def register(f):
            types = [device_types] if isinstance(device_types, str) else device_types
            for d in types:
                self._lib.impl(self.__name__, f, _DEVICE_KEYS[d])
            return f

        return register if fn is None else register(fn)

    def register_fake(self, fn: Callable) -> Callable:
        _registry.setdefault(self._name, {})["fake"] = fn
        self._lib.impl(self.__name__, fn, "Meta")
        return fn

    def register_autograd(self, backward: Callable, /, *, setup_context: Optional[Callable] = None) -> None:
        entry = _registry.setdefault(self._name, {})
        entry["backward"], entry["setup_context"] = backward, setup_context


def custom_op(name: str, fn: Optional[Callable] = None, /, *, mutates_args, device_types=None,
              schema: Optional[str] = None):
    """Make fn an operator "namespace::name" of the dispatcher: its schema from the type hints
    (or schema=), its kernel fn for every device (or device_types)."""
    def inner(f):
        ns, op_name = _parse_qualname(name)
        s = schema if schema is not None else infer_schema(f, mutates_args=mutates_args)
        return CustomOpDef(ns, op_name, s, f, device_types)

    return inner if fn is None else inner(fn)


DEFAULT_TEST_UTILS = ("test_schema", "test_autograd_registration", "test_faketensor")


def opcheck(op, args: Tuple[Any, ...], kwargs: Optional[Dict[str, Any]] = None, *,
            test_utils: Union[str, Sequence[str]] = DEFAULT_TEST_UTILS, raise_exception: bool = True,
            atol=None, rtol=None) -> Dict[str, str]:
    """Check that an operator is registered consistently, on sample arguments:

    * test_schema: arguments the schema does not mark as written (Tensor(a!)) are unchanged
      by the call, and it returns what the schema says;
    * test_autograd_registration: with inputs that require grad, the operator has an
      autograd kernel (or decomposes through CompositeImplicitAutograd);
    * test_faketensor: on meta tensors (the fake kernel), it returns the shapes, dtypes and
      strides-free metadata of the real kernel's results.

    PyTorch's fourth test (test_aot_dispatch_dynamic) needs torch.compile, which this build
    does not have."""
    kwargs = kwargs or {}
    if isinstance(test_utils, str):
        test_utils = (test_utils,)
    unknown = set(test_utils) - set(DEFAULT_TEST_UTILS)
    if unknown:
        raise ValueError(f"opcheck: unsupported test_utils {sorted(unknown)} (this build supports "
                         f"{list(DEFAULT_TEST_UTILS)})")
    if isinstance(op, CustomOpDef):
        op = op._opoverload
    if isinstance(op, torch._ops.OpOverloadPacket):
        op = getattr(op, op.overloads()[0])
    results = {}
    for test in test_utils:
        try:
            globals()["_" + test](op, args, kwargs)
            results[test] = "SUCCESS"
        except Exception as e:  # noqa: BLE001 - the test's failure is the result
            if raise_exception:
                raise OpCheckError(f"opcheck(op, ...): {test} failed with {e} (scroll up for stack trace)") from e
            results[test] = e
    return results


class OpCheckError(Exception):
    pass


def _clone(x):
    if isinstance(x, torch.Tensor):
        return x.detach().clone()
    if isinstance(x, (list, tuple)):
        return type(x)(_clone(a) for a in x)
    return x


def _test_schema(op, args, kwargs):
    written = {a[0] for a in op._handle.arguments if "!" in a[1]}
    names = [a[0] for a in op._handle.arguments]
    before = [_clone(a) for a in args]
    out = op(*args, **kwargs)
    for name, old, new in zip(names, before, args):
        if name in written or not isinstance(new, torch.Tensor):
            continue
        if not torch.equal(old, new.detach()):
            raise RuntimeError(f"{op._name}: argument '{name}' was modified in place but the schema does not "
                               "mark it as mutated (Tensor(a!))")
    returns = op._handle.returns
    got = 0 if out is None else (len(out) if isinstance(out, tuple) else 1)
    if got != len(returns):
        raise RuntimeError(f"{op._name}: returned {got} values, the schema says {len(returns)}")


def _test_autograd_registration(op, args, kwargs):
    tensors = [a for a in _flat(args) if isinstance(a, torch.Tensor)]
    if not any(t.is_floating_point() for t in tensors):
        return
    name = op._name.split(".")[0]
    has_autograd = any(_C._dispatch_has_kernel_for_dispatch_key(name, key)
                       for key in ("AutogradCPU", "AutogradCUDA", "Autograd"))
    has_composite = "CompositeImplicitAutograd" in _C._dispatch_dump(name)
    if not (has_autograd or has_composite):
        raise AssertionError(f"{op._name}: has kernels but no autograd registration: its outputs would not "
                             "track gradients. Register one with torch.library.register_autograd, or a "
                             "TORCH_LIBRARY_IMPL(ns, Autograd, m) kernel.")


def _to_meta(x):
    if isinstance(x, torch.Tensor):
        return torch.empty(x.shape, dtype=x.dtype, device="meta")
    if isinstance(x, (list, tuple)):
        return type(x)(_to_meta(a) for a in x)
    return x


def _test_faketensor(op, args, kwargs):
    real = op(*_clone(list(args)), **kwargs)
    fake = op(*_to_meta(list(args)), **{k: _to_meta(v) for k, v in kwargs.items()})
    real_t = real if isinstance(real, tuple) else (real,)
    fake_t = fake if isinstance(fake, tuple) else (fake,)
    for r, f in zip(real_t, fake_t):
        if isinstance(r, torch.Tensor):
            if tuple(r.shape) != tuple(f.shape) or r.dtype != f.dtype:
                raise RuntimeError(f"{op._name}: the fake kernel returned shape {tuple(f.shape)} dtype {f.dtype}, "
                                   f"the real one shape {tuple(r.shape)} dtype {r.dtype}")
