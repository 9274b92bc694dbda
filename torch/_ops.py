"""torch.ops: every operator the dispatcher knows, reached by namespace and name.

Mirrors PyTorch's torch/_ops.py. Guide: docs/source/internals/cpp_extensions.rst.

``torch.ops.myops.lltm`` is an OpOverloadPacket (all overloads of ``myops::lltm``);
``torch.ops.myops.lltm.default`` the OpOverload of the unnamed overload. Calling either is a
boxed call through the dispatcher (torch/csrc/jit/python/pybind_utils.cpp): the Python
arguments are turned into IValues by the operator's schema, the dispatcher picks the kernel
from the tensors' keys (TORCH_SHOW_DISPATCH_TRACE=1 prints "[callBoxed] op=[myops::lltm]"),
and the returns come back as Python objects. An operator defined in a C++ extension appears
here once its library is loaded: ``torch.ops.load_library(path)``.

The aten operators are registered unboxed only in this tree (their Python bindings are the
generated torch.* functions); ``torch.ops.aten.add.Tensor`` therefore calls the torch.*
function of that name.
"""

import ctypes
import os
import types

import torch
from torch import _C


class OpOverload:
    """One overload of an operator: ``torch.ops.myops.lltm.default``."""

    def __init__(self, packet: "OpOverloadPacket", handle, overload_name: str):
        self._packet = packet
        self._handle = handle
        self._overloadname = overload_name or "default"
        self._name = packet._qualified_op_name if not overload_name else f"{packet._qualified_op_name}.{overload_name}"
        self.__name__ = f"{packet.__name__}.{self._overloadname}"
        self.__qualname__ = self._name
        # "myops.lltm.default", as PyTorch prints an overload.
        self._dotted = f"{packet._dotted}.{self._overloadname}"

    @property
    def _schema(self) -> str:
        return self._handle.schema

    @property
    def overloadpacket(self) -> "OpOverloadPacket":
        return self._packet

    def name(self) -> str:
        return self._name

    def __call__(self, *args, **kwargs):
        return self._handle(*args, **kwargs)

    def __repr__(self):
        return f"<OpOverload(op='{self._packet._dotted}', overload='{self._overloadname}')>"

    def __str__(self):
        return self._dotted


class _AtenOverload:
    """An aten overload: its Python binding is the generated torch.* (or Tensor) function."""

    def __init__(self, packet: "OpOverloadPacket", overload_name: str):
        self._packet = packet
        self._overloadname = overload_name or "default"

    def __call__(self, *args, **kwargs):
        return self._packet(*args, **kwargs)

    def __repr__(self):
        return f"<OpOverload(op='{self._packet._dotted}', overload='{self._overloadname}')>"


class OpOverloadPacket:
    """All overloads of one operator: ``torch.ops.myops.lltm``. Calling it calls the only
    overload, or (with several) the first whose schema accepts the arguments."""

    def __init__(self, qualified_op_name: str, op_name: str, overload_names):
        self._qualified_op_name = qualified_op_name
        self._dotted = qualified_op_name.replace("::", ".")
        self.__name__ = op_name
        self._overload_names = list(overload_names)
        self._overloads = {}

    def __repr__(self):
        return f"<OpOverloadPacket(op='{self._dotted}')>"

    def __str__(self):
        return self._dotted

    def overloads(self):
        return ["default" if name == "" else name for name in self._overload_names]

    def __getattr__(self, key):
        if key.startswith("__"):
            raise AttributeError(key)
        overload = "" if key == "default" else key
        if overload not in self._overload_names:
            raise AttributeError(
                f"The underlying op of '{self._qualified_op_name}' has no overload name '{key}'")
        if overload not in self._overloads:
            handle = _C._get_operation_overload(self._qualified_op_name, overload)
            if self._qualified_op_name.startswith("aten::"):
                self._overloads[overload] = _AtenOverload(self, overload)
            else:
                self._overloads[overload] = OpOverload(self, handle, overload)
        result = self._overloads[overload]
        setattr(self, key, result)
        return result

    def __call__(self, *args, **kwargs):
        if self._qualified_op_name.startswith("aten::"):
            return _call_aten(self.__name__, args, kwargs)
        if len(self._overload_names) == 1:
            return getattr(self, self.overloads()[0])(*args, **kwargs)
        errors = []
        for name in self.overloads():
            try:
                return getattr(self, name)(*args, **kwargs)
            except (RuntimeError, TypeError) as e:
                errors.append(str(e))
        raise RuntimeError(f"{self._qualified_op_name}() matched none of its overloads:\n" + "\n".join(errors))


def _call_aten(name, args, kwargs):
    fn = getattr(torch, name, None)
    if fn is None:
        fn = getattr(torch._C._nn, name, None)
    if fn is None and args and isinstance(args[0], torch.Tensor):
        fn = getattr(type(args[0]), name)
    if fn is None:
        raise AttributeError(f"'_OpNamespace' 'aten' object has no attribute '{name}'")
    return fn(*args, **kwargs)


class _OpNamespace(types.ModuleType):
    """``torch.ops.myops``: its attributes are the operators registered in that namespace."""

    def __init__(self, name: str):
        super().__init__("torch.ops." + name)
        self.name = name

    def __getattr__(self, op_name):
        if op_name.startswith("__"):
            raise AttributeError(op_name)
        qualified = f"{self.name}::{op_name}"
        overloads = _C._get_operation_overload_names(qualified)
        if not overloads:
            raise AttributeError(f"'_OpNamespace' '{self.name}' object has no attribute '{op_name}'")
        packet = OpOverloadPacket(qualified, op_name, overloads)
        # Not cached for custom namespaces: a library loaded or unloaded later changes them.
        if self.name == "aten":
            setattr(self, op_name, packet)
        return packet


class _Ops(types.ModuleType):
    """``torch.ops``: namespaces on first access, and the libraries loaded into the process."""

    __file__ = "_ops.py"

    def __init__(self):
        super().__init__("torch.ops")
        self.loaded_libraries = set()

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        namespace = _OpNamespace(name)
        setattr(self, name, namespace)
        return namespace

    def load_library(self, path):
        """Load a shared library into the process (its TORCH_LIBRARY blocks register their
        operators as it loads) and remember it in torch.ops.loaded_libraries."""
        path = os.path.realpath(path)
        ctypes.CDLL(path)
        self.loaded_libraries.add(path)


ops = _Ops()
